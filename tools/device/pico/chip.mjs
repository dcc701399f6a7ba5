// An emulated Raspberry Pi Pico (rp2040js) running the console's firmware, and the steps that
// drive one or more of them: shared by run.mjs (one chip) and link.mjs (two chips whose UARTs
// are joined).
//
// A chip's job (written by tools/device/pico.py) names the firmware image, a littlefs image for
// the writable part of the flash, the panel's SPI bus and its DC/CS pins (or its I2C bus and
// address: job.i2c, job.i2c_address) and the button GPIOs.
// A chip keeps a trace: every byte the panel received with the DC level it was sent under (2
// for an I2C transfer, its control bytes included; 3 for the rest of one a marker cut),
// markers with the emulated time, and the USB REPL's output; and, at the end, the flash's
// filesystem region, so that a later run can power up with the records this one wrote.
//
// What rp2040js does not model and this harness supplies:
// - flash writes: the SDK's flash_range_erase / flash_range_program (addresses from the
//   firmware's ELF) are carried out on the emulator's flash array when the core reaches them;
// - pull-ups: every button GPIO is driven high (idle) unless a step presses it;
// - the SPI wire: each byte completes after its bits at the bus's clock (bits / SPI clock);
// - the I2C target: an OLED at job.i2c_address acknowledges every byte, each taking nine bits
//   at the bus's clock (i2c.mjs);
// - the USB host's OUT packets: only when it has bytes to send (USBCDC sends empty ones);
// - the UARTs' transmit side (uart.mjs): rp2040js's would keep the chip in the UART's
//   interrupt handler once MicroPython opens one.
// - the XIP cache (job.xip_cache; XipCache below): rp2040js reads the flash in one cycle; with
//   the cache modelled, a core's read of the flash that misses the RP2040's 16 KB cache waits
//   for the flash as a real Pico's would, and the clock counts those cycles too.
// Times are the emulator's: 125 MHz, cycles as it counts them (no bus contention; flash wait
// states only with the XIP cache modelled): estimates, not a real Pico's figures.

import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { BasePeripheral, RP2040, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { UartPort } from './uart.mjs';
import { attachI2c, i2cHz } from './i2c.mjs';

export async function loadBootrom(path) {
  const { bootromB1 } = await import(pathToFileURL(path).href);
  return bootromB1;
}

// The RP2040's XIP cache (datasheet 2.6.3): 16 KB, two-way set associative, 8-byte lines, so
// 1,024 sets; a hit costs the cycle rp2040js already counts, a miss reads the line from the
// flash over the QSPI bus. The flash's four mirrors: 0x10... looks up and fills the cache,
// 0x11... looks up but does not fill, 0x12... always reads the flash and fills, 0x13... always
// reads and does not fill. Only the core's reads are counted (instruction fetches, loads,
// stacking and vector reads); the boot ROM, the SRAM and the peripherals are not affected, and
// DMA reads (the firmware's come from SRAM) are not looked up.
//
// A miss's cost, for the Pico's flash as MicroPython's rp2 port sets it up: the RPI_PICO board
// boots with boot2_w25q080.S and PICO_FLASH_SPI_CLKDIV 2 (pico-sdk boards/pico.h), so the flash
// clock is clk_sys / 2; machine.freq sets the SSI's divider (BAUDR) to keep the flash at most at
// MICROPY_HW_FLASH_MAX_FREQ (rp2_flash.c; the firmware's build sets 100 MHz, so 2 at 200 MHz,
// where MicroPython's default, 62.5 MHz, would make it 4), and the cost here follows the
// divider the firmware set. In quad I/O continuous-read mode (0xEB once, then no
// command) a line fill sends 24 address and 8 mode bits on four wires (8 flash clocks), waits
// 4 dummy clocks, and reads 64 bits on four wires (16 clocks): FLASH_CLOCKS, 56 of the core's
// at the divider 2, 112 at 4. A miss adds them to the instruction that made it
// (a real chip adds a few more cycles of SSI set-up and chip-select time: this errs on the
// fast side). An uncached read pays the same, per read as rp2040js makes them: it fetches
// instructions 16 bits at a time, so code run through an uncached mirror pays twice a word
// here where a real M0+ (32-bit fetches) pays once; the firmware runs none from there.
export const FLASH_CLOCKS = 8 + 4 + 16;
const XIP_SETS = 1024;

export class XipCache {
  constructor(mcu, core) {
    this.tags = new Int32Array(2 * XIP_SETS).fill(-1);   // [set * 2 + way]: the line's tag
    this.older = new Uint8Array(XIP_SETS);                // per set: the way a fill replaces
    this.lastKey = -1;       // address >>> 3 of the last line the 0x10 mirror read: a hit
    this.where = null;       // when asked (job.xip_misses): misses by line (offset in the flash >>> 3)
    this.stall = 0;          // cycles the current instruction waited for the flash
    this.accesses = 0;       // reads of the flash's mirrors
    this.misses = 0;         // of them, those that went to the flash
    this.stallCycles = 0;    // all the cycles waited
    this.ssi = mcu.peripherals[0x18000];   // its BAUDR: the flash clock's divider
    // The core reads memory through these three (rp2040js's CortexM0Core.readUint32 and so
    // on call the RP2040's): a comparison on every read; the cache only for the flash's
    // mirrors, and only when the read is not in the line the last one hit.
    core.readUint16 = (address) => {
      if ((address >>> 26) === 4) {
        this.accesses++;
        if ((address >>> 3) !== this.lastKey) this.look(address);
      }
      return mcu.readUint16(address);
    };
    core.readUint32 = (address) => {
      if ((address >>> 26) === 4) {
        this.accesses++;
        if ((address >>> 3) !== this.lastKey) this.look(address);
      }
      return mcu.readUint32(address);
    };
    core.readUint8 = (address) => {
      if ((address >>> 26) === 4) {
        this.accesses++;
        if ((address >>> 3) !== this.lastKey) this.look(address);
      }
      return mcu.readUint8(address);
    };
  }

  // A read in 0x10000000-0x13ffffff that is not the 0x10 mirror's last line again.
  look(address) {
    const mirror = (address >>> 24) & 3;
    const line = (address >>> 3) & 0x1fffff;
    const set = line & (XIP_SETS - 1);
    const tag = line >>> 10;
    const way = set << 1;
    if (mirror < 2) {
      if (this.tags[way] === tag) {
        this.older[set] = 1;
        if (mirror === 0) this.lastKey = address >>> 3;
        return;
      }
      if (this.tags[way + 1] === tag) {
        this.older[set] = 0;
        if (mirror === 0) this.lastKey = address >>> 3;
        return;
      }
    }
    this.misses++;
    if (this.where !== null) this.where.set(line, (this.where.get(line) || 0) + 1);
    const cycles = (this.ssi.baudr & 0xfffe || 2) * FLASH_CLOCKS;
    this.stall += cycles;
    this.stallCycles += cycles;
    if (mirror === 0 || mirror === 2) {
      const victim = this.older[set];
      this.tags[way + victim] = tag;
      this.older[set] = victim ^ 1;
      // A fill may have evicted the line lastKey names (a 0x12 read): look again next time.
      this.lastKey = mirror === 0 ? address >>> 3 : -1;
    }
  }

  // After a flash write the SDK flushes the cache (flash_range_erase / _program end in the
  // boot ROM's flash_flush_cache).
  flush() {
    this.tags.fill(-1);
    this.lastKey = -1;
  }

  counts() {
    return [this.accesses, this.misses, this.stallCycles];
  }
}

// A step could not be carried out: the run ends with this message (exit status 3).
export class Failure extends Error {}

// What runUntil adds to each instruction's cycles when the XIP cache is not modelled.
const NO_XIP = { stall: 0 };

// Flushes: runs of bytes with gaps under BURST_GAP_NS between them (a frame's rectangles).
const BURST_GAP_NS = 2e6;

// The core's regulator (RP2040 datasheet 2.10.7), which rp2040js leaves unmodelled: its VREG
// register holds VSEL (bits 7:4; 11, 1.10 V, at reset) and reads with ROK (bit 12, the output
// in regulation) set. The RP2040 is rated to 133 MHz at 1.10 V and to 200 MHz at 1.15 V (VSEL
// 12; pico-sdk 2.1.1), and the SDK waits 1 ms for a raised voltage to settle: a clk_sys beyond
// what the voltage set allows, a clock above 133 MHz within 1 ms of the raise, or a voltage
// lowered under a clock that needs it fails the job.
const VSEL_RESET = 0xb1;
const ROK = 1 << 12;
// The wait is timed on the chip's microsecond timer: a raise made within a microsecond's tick
// has its 1 ms counted from that tick, up to 1 us short of 1 ms in nanoseconds.
const SETTLE_NS = 1e6 - 1e3;
export class Vreg extends BasePeripheral {   // (its atomic set/clear writes: BasePeripheral's)
  constructor(chip) {
    super(chip.mcu, 'VREG');
    this.chip = chip;
    this.value = VSEL_RESET;
    this.raisedNs = -Infinity;   // when VSEL last went up
  }
  vsel() { return (this.value >>> 4) & 15; }
  readUint32(offset) { return offset === 0 ? this.value | ROK : 0; }
  writeUint32(offset, value) {
    if (offset !== 0) return;
    const before = this.vsel();
    this.value = value & 0xff;
    if (this.vsel() > before) this.raisedNs = this.chip.mcu.clock.nanos;
    this.check(this.chip.mcu.clkSys, false);
  }
  check(hz, clockChanged) {
    const top = this.vsel() >= 12 ? 200e6 : 133e6;
    if (hz > top) {
      this.chip.fail('clk_sys ' + hz / 1e6 + ' MHz with the core at VSEL ' + this.vsel() + ': the RP2040 is rated to '
        + top / 1e6 + ' MHz there');
    }
    if (clockChanged && hz > 133e6 && this.chip.mcu.clock.nanos - this.raisedNs < SETTLE_NS) {
      this.chip.fail('clk_sys raised to ' + hz / 1e6 + ' MHz within 1 ms of the core\'s voltage going up');
    }
  }
}

export class Chip {
  constructor(job, bootrom) {
    this.job = job;
    this.label = job.name ? job.name + ': ' : '';   // how failures name the chip
    const mcu = new RP2040();
    this.mcu = mcu;
    mcu.loadBootrom(bootrom);
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    this.vreg = new Vreg(this);
    mcu.peripherals[0x40064] = this.vreg;
    mcu.clockListeners.add((hz) => this.vreg.check(hz, true));
    mcu.flash.set(fs.readFileSync(job.firmware), 0);
    if (job.flash_image) {
      mcu.flash.set(fs.readFileSync(job.flash_image), job.fs_offset);
    }
    this.clock = mcu.clock;
    this.core = mcu.core;

    // --- the trace ---
    this.chunks = [];
    this.run = [];          // bytes of the current run (same DC level)
    this.runDc = -1;
    this.spiBytes = 0;
    this.csHighBytes = 0;
    this.lastSpiNs = 0;
    this.firstSpiNs = -1;   // first byte since the last marker
    this.pressBytes = 0;    // spiBytes when the last press began
    this.pressNs = 0;       // when it began
    this.bursts = [];       // [first byte ns, last byte end ns, bytes] since the last marker
    this.burst = null;

    // --- the panel's bus: SPI with its DC/CS pins, or I2C (job.i2c) ---
    if (job.i2c !== undefined && job.i2c !== null) {
      this.spi = null;
      this.i2c = mcu.i2c[job.i2c];
      attachI2c(this, this.i2c, job.i2c_address);
    } else {
      this.attachSpi(mcu.spi[job.spi], mcu.gpio[job.dc], job.cs === null ? null : mcu.gpio[job.cs]);
    }

    // --- buttons: idle high (the pull-ups the emulator lacks) ---
    for (const gpio of job.buttons) {
      mcu.gpio[gpio].setInputValue(true);
    }

    // --- the USB REPL ---
    this.consoleText = '';
    this.consoleSeen = 0;
    this.connected = false;
    this.cdc = new USBCDC(mcu.usbCtrl);
    this.cdc.onDeviceConnected = () => {
      this.connected = true;
    };
    this.cdc.onSerialData = (value) => {
      this.consoleText += Buffer.from(value).toString('latin1');
    };
    // A USB host sends an OUT packet when it has bytes to send. rp2040js's USBCDC answers
    // every read the device arms at once, with an empty packet when it has nothing: the
    // device re-arms, and the chip spends some 90 % of its time in the USB interrupt (about
    // 30,000 a second), never waiting for one. A read with nothing to send waits here for
    // the next text instead, as a host's would.
    const cdc = this.cdc;
    const answerRead = mcu.usbCtrl.onEndpointRead;
    this.heldRead = null;
    mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint === cdc.outEndpoint && cdc.txFIFO.itemCount === 0) {
        this.heldRead = [endpoint, size];
        return;
      }
      answerRead(endpoint, size);
    };
    this.answerHeldRead = () => {
      if (this.heldRead !== null && cdc.txFIFO.itemCount > 0) {
        const [endpoint, size] = this.heldRead;
        this.heldRead = null;
        answerRead(endpoint, size);
      }
    };

    // --- the UARTs (uart.mjs): what one sends goes nowhere unless a link joins it ---
    this.uarts = [new UartPort(this, 0), new UartPort(this, 1)];

    // --- flash writes ---
    this.ERASE = job.hooks.erase & ~1;
    this.PROGRAM = job.hooks.program & ~1;
    this.flashWrites = 0;
    this.flashErases = 0;    // of them, erases (4 KB sectors each, as MicroPython's littlefs asks)

    // --- where the time goes: executing instructions, or waiting for an interrupt (WFI/WFE) ---
    this.busyNs = 0;
    this.waitNs = 0;

    // --- the XIP cache, when the job models it ---
    this.xip = job.xip_cache ? new XipCache(mcu, this.core) : null;
    if (this.xip && job.xip_misses) this.xip.where = new Map();

    this.core.PC = 0x10000000;
  }

  // A byte for the panel at `now`, on the wire until `endNs`: counted, and in the flushes.
  panelByte(now, endNs) {
    this.spiBytes++;
    if (this.burst === null || now - this.lastSpiNs > BURST_GAP_NS) {
      this.burst = [now, now, 0];
      this.bursts.push(this.burst);
    }
    this.burst[2]++;
    if (this.firstSpiNs < 0) this.firstSpiNs = now;
    this.lastSpiNs = endNs;
    this.burst[1] = endNs;
  }

  attachSpi(spi, dcPin, csPin) {
    this.spi = spi;
    const wire = this.clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      const now = this.clock.nanos;
      const freq = spi.clockFrequency || 1e6;
      const endNs = now + spi.dataBits * 1e9 / freq;
      if (csPin !== null && csPin.outputValue) {
        this.csHighBytes++;
      } else {
        const dc = dcPin.outputValue ? 1 : 0;
        if (dc !== this.runDc) {
          this.flushRun();
          this.runDc = dc;
        }
        this.run.push(value & 255);
        this.panelByte(now, endNs);
      }
      wire.schedule(endNs - now);
    };
  }

  busHz() {
    return this.spi !== null ? this.spi.clockFrequency : i2cHz(this.i2c, this.mcu.clkSys);
  }

  // The bytes of the current run as a record. A marker may fall inside an I2C transfer: its
  // first part goes out with DC level 2, every later part of the same transfer with 3 (a
  // continuation, whose first byte is not a control byte).
  flushRun() {
    if (this.run.length) {
      const head = Buffer.alloc(6);
      head.write('D', 0);
      head.writeUInt8(this.runDc === 2 && this.i2cContinued ? 3 : this.runDc, 1);
      if (this.runDc === 2) this.i2cContinued = true;
      head.writeUInt32LE(this.run.length, 2);
      this.chunks.push(head, Buffer.from(this.run));
      this.run = [];
    }
  }

  marker(fields) {
    this.flushRun();
    const text = Buffer.from(JSON.stringify(fields));
    const head = Buffer.alloc(5);
    head.write('M', 0);
    head.writeUInt32LE(text.length, 1);
    this.chunks.push(head, text);
  }

  flashHook(pc) {
    const { core, mcu } = this;
    const offset = core.registers[0] >>> 0;
    if (pc === this.ERASE) {
      const count = core.registers[1] >>> 0;
      mcu.flash.fill(0xff, offset, offset + count);
      this.flashErases++;
    } else {
      const source = core.registers[1] >>> 0;
      const count = core.registers[2] >>> 0;
      for (let i = 0; i < count; i++) {
        mcu.flash[offset + i] &= mcu.readUint8(source + i);
      }
    }
    this.flashWrites++;
    if (this.xip !== null) this.xip.flush();
    core.PC = core.LR & ~1;
  }

  // Run the chip until its clock reaches `targetNs` (an instruction may take it a few ns past).
  runUntil(targetNs) {
    const { core, clock, mcu, ERASE, PROGRAM } = this;
    const xip = this.xip || NO_XIP;
    while (clock.nanos < targetNs) {
      if (core.waiting) {
        const left = targetNs - clock.nanos;
        const next = clock.nextAlarm ? Math.max(0, clock.nanosToNextAlarm) : left;
        const wait = next < left ? next : left;
        this.waitNs += wait;
        clock.tick(wait);
      } else {
        const pc = core.PC;
        if (pc === ERASE || pc === PROGRAM) {
          this.flashHook(pc);
        }
        const cycles = core.executeInstruction() + xip.stall;
        xip.stall = 0;
        const ns = cycles * 1e9 / mcu.clkSys;
        this.busyNs += ns;
        clock.tick(ns);
      }
    }
  }

  // The firmware's Python stack (tools/device/firmware.py, PATCHES; job.hooks.pystack: its
  // address and size) is filled with 0x55 at each reset: the bytes from its start to the last
  // one no longer holding the fill are its high-water mark so far (read from outside, so no
  // code of the chip runs).
  pystackUsed() {
    const where = this.job.hooks && this.job.hooks.pystack;
    if (!where) return null;
    const sram = this.mcu.sram;
    const start = where[0] - 0x20000000;
    for (let i = start + where[1] - 1; i >= start; i--) {
      if (sram[i] !== 0x55) return i - start + 1;
    }
    return 0;
  }

  sendText(text) {
    for (const ch of Buffer.from(text, 'latin1')) {
      this.cdc.sendSerialByte(ch);
    }
    this.answerHeldRead();
  }

  fail(message) {
    throw new Failure(this.label + message);
  }

  finish() {
    const { clock, mcu, job } = this;
    this.marker({ name: 'end', ns: clock.nanos, spi_bytes: this.spiBytes, cs_high_bytes: this.csHighBytes,
      spi_hz: this.busHz(), clk_sys: mcu.clkSys, flash_writes: this.flashWrites, flash_erases: this.flashErases,
      xip: this.xip && this.xip.counts() });
    if (this.xip && this.xip.where !== null) {
      fs.writeFileSync(job.xip_misses, JSON.stringify([...this.xip.where.entries()]));
    }
    fs.writeFileSync(job.trace, Buffer.concat(this.chunks));
    fs.writeFileSync(job.console, this.consoleText, 'latin1');
    if (job.flash_out) {
      fs.writeFileSync(job.flash_out, mcu.flash.subarray(job.fs_offset, job.fs_offset + job.fs_size));
    }
  }
}

// runFor(ns, until) for a set of chips: each runs in turn for a slice of emulated time, so
// that their clocks never differ by more than a slice; `until` is asked after every slice.
// Returns whether `until` held (true without one). Past `maxMs` of emulated time it fails.
export function slicedRunner(chips, sliceNs, maxMs) {
  const deadlineNs = maxMs * 1e6;
  const now = () => Math.min(...chips.map((c) => c.clock.nanos));
  return (ns, until) => {
    let t = now();
    const end = t + ns;
    while (t < end) {
      t = Math.min(t + sliceNs, end);
      for (const chip of chips) chip.runUntil(t);
      if (t > deadlineNs) {
        throw new Failure('the emulated run passed its limit of ' + maxMs + ' ms');
      }
      if (until && until()) return true;
    }
    return until ? until() : true;
  };
}

// The steps of a job, each for chips[step.chip] (0 when not given): press a button, wait for
// text on the USB REPL, wait until the panel has been quiet for a while, mark the trace...
// While a step waits, every chip runs (runFor).
export function runSteps(steps, chips, runFor) {
  const ms = 1e6;
  for (const step of steps) {
    const chip = chips[step.chip || 0];
    switch (step.op) {
      case 'run':
        runFor(step.ms * ms);
        break;
      case 'connect':
        if (!runFor(step.timeout_ms * ms, () => chip.connected)) chip.fail('the USB REPL never connected');
        break;
      case 'text': {
        const found = runFor(step.timeout_ms * ms, () => chip.consoleText.indexOf(step.text, chip.consoleSeen) >= 0);
        if (!found) {
          chip.fail('no ' + JSON.stringify(step.text) + ' on the USB REPL within ' + step.timeout_ms + ' ms');
        }
        chip.consoleSeen = chip.consoleText.indexOf(step.text, chip.consoleSeen) + step.text.length;
        break;
      }
      case 'send':
        chip.consoleSeen = chip.consoleText.length;
        chip.sendText(step.text);
        break;
      case 'press': {
        const pin = chip.mcu.gpio[step.gpio];
        const pressNs = chip.clock.nanos;
        chip.firstSpiNs = -1;
        chip.pressBytes = chip.spiBytes;
        chip.pressNs = pressNs;
        pin.setInputValue(false);
        runFor(step.hold_ms * ms);
        pin.setInputValue(true);
        chip.marker({ name: 'press', gpio: step.gpio, ns: pressNs, release_ns: chip.clock.nanos });
        break;
      }
      case 'quiet': {
        // Until the panel of each chip named (step.chips, else step.chip) has had no byte for
        // quiet_ms, after at least min_bytes since the step began and, when first_ms is given,
        // after its first byte or first_ms without one: a press that changes nothing draws
        // nothing. With since_press, all of that counts from when the chip's last press began.
        const quiet = step.quiet_ms * ms;
        const waiting = (step.chips || [step.chip || 0]).map((i) => {
          const c = chips[i];
          const start = step.since_press ? c.pressNs : c.clock.nanos;
          const sent = step.since_press ? c.pressBytes : c.spiBytes;
          return { c, start, sent, firstBy: start + (step.first_ms || 0) * ms, bytes: sent + (step.min_bytes || 0) };
        });
        const settled = (w) => {
          const c = w.c;
          if (c.spiBytes < w.bytes) return false;
          if (c.spiBytes === w.sent) return c.clock.nanos >= w.firstBy && c.clock.nanos - w.start >= quiet;
          return c.clock.nanos - c.lastSpiNs >= quiet;
        };
        if (!runFor(step.timeout_ms * ms, () => waiting.every(settled))) {
          const late = waiting.filter((w) => !settled(w)).map((w) => w.c);
          late[0].fail('the panel never went quiet for ' + step.quiet_ms + ' ms within ' + step.timeout_ms
            + ' ms (' + (late[0].spiBytes - late[0].pressBytes) + ' bytes since the last press)');
        }
        break;
      }
      case 'mark':
        chip.marker({ name: step.name, ns: chip.clock.nanos, last_spi_ns: chip.lastSpiNs,
          first_spi_ns: chip.firstSpiNs, spi_bytes: chip.spiBytes, flushes: chip.bursts,
          busy_ns: chip.busyNs, wait_ns: chip.waitNs, xip: chip.xip && chip.xip.counts(),
          pystack: chip.pystackUsed() });
        chip.firstSpiNs = -1;
        chip.bursts = [];
        break;
      default:
        chip.fail('unknown step ' + step.op);
    }
  }
}

// Run a job's steps on its chips; on a failure, write what there is, say why and exit with 3.
export function main(steps, chips, runFor, finish) {
  try {
    runSteps(steps, chips, runFor);
  } catch (e) {
    finish();
    if (!(e instanceof Failure)) throw e;
    process.stderr.write('pico: ' + e.message + '\n');
    process.exit(3);
  }
  finish();
}
