// An emulated Raspberry Pi Pico (rp2040js) running the console's firmware.
//
//   node tools/device/pico/run.mjs JOB.json
//
// The job (written by tools/device/pico.py) names the firmware image, the boot ROM, a littlefs image
// for the writable part of the flash, the panel's SPI bus and its DC/CS pins, the button
// GPIOs and a list of steps (press a button, wait for text on the USB REPL, wait until the
// panel has been quiet for a while, ...). It writes a trace: every byte the panel received
// with the DC level it was sent under, markers with the emulated time, and the USB REPL's
// output; and, at the end, the flash's filesystem region, so that a later run can power up
// with the records this one wrote.
//
// What rp2040js does not model and this harness supplies:
// - flash writes: the SDK's flash_range_erase / flash_range_program (addresses from the
//   firmware's ELF) are carried out on the emulator's flash array when the core reaches them;
// - pull-ups: every button GPIO is driven high (idle) unless a step presses it;
// - the SPI wire: each byte completes after its bits at the bus's clock (bits / SPI clock).
// Times are the emulator's: 125 MHz, cycles as it counts them (no flash wait states, no XIP
// cache misses, no bus contention): estimates, not a real Pico's figures.

import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { RP2040, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const { bootromB1 } = await import(pathToFileURL(job.bootrom).href);

const mcu = new RP2040();
mcu.loadBootrom(bootromB1);
mcu.logger = new ConsoleLogger(LogLevel.Error);
const firmware = fs.readFileSync(job.firmware);
mcu.flash.set(firmware, 0);
if (job.flash_image) {
  mcu.flash.set(fs.readFileSync(job.flash_image), job.fs_offset);
}
const clock = mcu.clock;
const core = mcu.core;

// --- the trace ---------------------------------------------------------------------------
const chunks = [];
let run = [];          // bytes of the current run (same DC level)
let runDc = -1;
let spiBytes = 0;
let csHighBytes = 0;
let lastSpiNs = 0;
let firstSpiNs = -1;   // first byte since the last marker
// Flushes: runs of bytes with gaps under BURST_GAP_NS between them (a frame's rectangles);
// each [first byte ns, last byte end ns, bytes], since the last marker.
const BURST_GAP_NS = 2e6;
let bursts = [];
let burst = null;
function flushRun() {
  if (run.length) {
    const head = Buffer.alloc(6);
    head.write('D', 0);
    head.writeUInt8(runDc, 1);
    head.writeUInt32LE(run.length, 2);
    chunks.push(head, Buffer.from(run));
    run = [];
  }
}
function marker(fields) {
  flushRun();
  const text = Buffer.from(JSON.stringify(fields));
  const head = Buffer.alloc(5);
  head.write('M', 0);
  head.writeUInt32LE(text.length, 1);
  chunks.push(head, text);
}

// --- the panel's bus ----------------------------------------------------------------------
const spi = mcu.spi[job.spi];
const dcPin = mcu.gpio[job.dc];
const csPin = job.cs === null ? null : mcu.gpio[job.cs];
const wire = clock.createAlarm(() => spi.completeTransmit(0));
spi.onTransmit = (value) => {
  const now = clock.nanos;
  if (csPin !== null && csPin.outputValue) {
    csHighBytes++;
  } else {
    const dc = dcPin.outputValue ? 1 : 0;
    if (dc !== runDc) {
      flushRun();
      runDc = dc;
    }
    run.push(value & 255);
    spiBytes++;
    if (burst === null || now - lastSpiNs > BURST_GAP_NS) {
      burst = [now, now, 0];
      bursts.push(burst);
    }
    burst[2]++;
    if (firstSpiNs < 0) firstSpiNs = now;
  }
  const freq = spi.clockFrequency || 1e6;
  const bitNs = 1e9 / freq;
  lastSpiNs = now + spi.dataBits * bitNs;
  if (burst !== null) burst[1] = lastSpiNs;
  wire.schedule(spi.dataBits * bitNs);
};

// --- buttons: idle high (the pull-ups the emulator lacks) --------------------------------
for (const gpio of job.buttons) {
  mcu.gpio[gpio].setInputValue(true);
}

// --- the USB REPL -------------------------------------------------------------------------
let consoleText = '';
let consoleSeen = 0;
let connected = false;
const cdc = new USBCDC(mcu.usbCtrl);
cdc.onDeviceConnected = () => {
  connected = true;
};
cdc.onSerialData = (value) => {
  consoleText += Buffer.from(value).toString('latin1');
};

// --- flash writes -------------------------------------------------------------------------
const ERASE = job.hooks.erase & ~1;
const PROGRAM = job.hooks.program & ~1;
let flashWrites = 0;
function flashHook(pc) {
  const offset = core.registers[0] >>> 0;
  if (pc === ERASE) {
    const count = core.registers[1] >>> 0;
    mcu.flash.fill(0xff, offset, offset + count);
  } else {
    const source = core.registers[1] >>> 0;
    const count = core.registers[2] >>> 0;
    for (let i = 0; i < count; i++) {
      mcu.flash[offset + i] &= mcu.readUint8(source + i);
    }
  }
  flashWrites++;
  core.PC = core.LR & ~1;
}

// --- running ------------------------------------------------------------------------------
const deadlineNs = (job.max_ms || 600000) * 1e6;
function runFor(ns, until) {
  const end = clock.nanos + ns;
  while (clock.nanos < end) {
    for (let i = 0; i < 20000; i++) {
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        clock.tick(next > 0 ? next : 1000);
      } else {
        const pc = core.PC;
        if (pc === ERASE || pc === PROGRAM) {
          flashHook(pc);
        }
        const cycles = core.executeInstruction();
        clock.tick(cycles * 1e9 / mcu.clkSys);
      }
    }
    if (clock.nanos > deadlineNs) {
      fail('the emulated run passed its limit of ' + job.max_ms + ' ms');
    }
    if (until && until()) return true;
  }
  return until ? until() : true;
}

function fail(message) {
  finish();
  process.stderr.write('pico: ' + message + '\n');
  process.exit(3);
}

function finish() {
  marker({ name: 'end', ns: clock.nanos, spi_bytes: spiBytes, cs_high_bytes: csHighBytes, spi_hz: spi.clockFrequency, clk_sys: mcu.clkSys,
    flash_writes: flashWrites });
  fs.writeFileSync(job.trace, Buffer.concat(chunks));
  fs.writeFileSync(job.console, consoleText, 'latin1');
  if (job.flash_out) {
    fs.writeFileSync(job.flash_out, mcu.flash.subarray(job.fs_offset, job.fs_offset + job.fs_size));
  }
}

function sendText(text) {
  for (const ch of Buffer.from(text, 'latin1')) {
    cdc.sendSerialByte(ch);
  }
}

core.PC = 0x10000000;
for (const step of job.steps) {
  const ms = 1e6;
  switch (step.op) {
    case 'run':
      runFor(step.ms * ms);
      break;
    case 'connect':
      if (!runFor(step.timeout_ms * ms, () => connected)) fail('the USB REPL never connected');
      break;
    case 'text': {
      const found = runFor(step.timeout_ms * ms, () => consoleText.indexOf(step.text, consoleSeen) >= 0);
      if (!found) fail('no ' + JSON.stringify(step.text) + ' on the USB REPL within ' + step.timeout_ms + ' ms');
      consoleSeen = consoleText.indexOf(step.text, consoleSeen) + step.text.length;
      break;
    }
    case 'send':
      consoleSeen = consoleText.length;
      sendText(step.text);
      break;
    case 'press': {
      const pin = mcu.gpio[step.gpio];
      const pressNs = clock.nanos;
      firstSpiNs = -1;
      pin.setInputValue(false);
      runFor(step.hold_ms * ms);
      pin.setInputValue(true);
      marker({ name: 'press', gpio: step.gpio, ns: pressNs, release_ns: clock.nanos });
      break;
    }
    case 'quiet': {
      // Until the panel has had no byte for quiet_ms, after at least min_bytes (and, when
      // first_ms is given, after its first byte or first_ms without one: a press that
      // changes nothing draws nothing).
      const start = clock.nanos;
      const quiet = step.quiet_ms * ms;
      const bytes = spiBytes + (step.min_bytes || 0);
      const firstBy = start + (step.first_ms || 0) * ms;
      const sent = spiBytes;
      const ok = runFor(step.timeout_ms * ms, () => {
        if (spiBytes < bytes) return false;
        if (spiBytes === sent) return clock.nanos >= firstBy && clock.nanos - start >= quiet;
        return clock.nanos - lastSpiNs >= quiet;
      });
      if (!ok) fail('the panel never went quiet for ' + step.quiet_ms + ' ms');
      break;
    }
    case 'mark':
      marker({ name: step.name, ns: clock.nanos, last_spi_ns: lastSpiNs, first_spi_ns: firstSpiNs,
        spi_bytes: spiBytes, flushes: bursts });
      firstSpiNs = -1;
      bursts = [];
      break;
    default:
      fail('unknown step ' + step.op);
  }
}
finish();
