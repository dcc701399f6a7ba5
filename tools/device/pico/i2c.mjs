// An OLED on the emulated chip's I2C bus (chip.mjs): rp2040js models the RP2040's I2C block
// and leaves the target to the harness. This one answers at one address and records what it
// is sent.
//
// Each write transfer to `address` becomes one run of the chip's trace with DC level 2, its
// control bytes in it (support/oled_model.py decodes them). Every step of a transfer takes its
// bits at the bus's clock: START and STOP one bit, the address and each byte nine (with the
// acknowledge). Transfers to other addresses are not acknowledged; reads are not modelled.

// The bus's clock as the firmware set it: the SCL high and low counts of the speed mode in
// use, in clk_sys cycles (RP2040 datasheet, I2C: IC_SS_SCL_HCNT/LCNT, IC_FS_SCL_HCNT/LCNT).
export function i2cHz(i2c, clkSys) {
  const high = i2c.speed === 1 ? i2c.ssClockHighPeriod : i2c.fsClockHighPeriod;
  const low = i2c.speed === 1 ? i2c.ssClockLowPeriod : i2c.fsClockLowPeriod;
  return (high + low) > 0 ? clkSys / (high + low) : 0;
}

export function attachI2c(chip, i2c, address) {
  let next = null;
  const alarm = chip.clock.createAlarm(() => { const f = next; next = null; f(); });
  const after = (bits, f) => {
    const hz = i2cHz(i2c, chip.mcu.clkSys) || 400e3;
    next = f;
    alarm.schedule(bits * 1e9 / hz);
    return chip.clock.nanos + bits * 1e9 / hz;
  };
  let ours = false;
  i2c.onStart = () => after(1, () => i2c.completeStart());
  i2c.onConnect = (addr, mode) => {
    ours = addr === address && mode === 0;
    if (ours) {
      chip.flushRun();
      chip.runDc = 2;
      chip.i2cContinued = false;
    }
    after(9, () => i2c.completeConnect(addr === address));
  };
  i2c.onWriteByte = (value) => {
    const now = chip.clock.nanos;
    const endNs = after(9, () => i2c.completeWrite(ours));
    if (ours) {
      chip.run.push(value & 255);
      chip.panelByte(now, endNs);
    }
  };
  i2c.onStop = () => {
    if (ours) {
      chip.flushRun();
      chip.runDc = -1;
      ours = false;
    }
    after(1, () => i2c.completeStop());
  };
}
