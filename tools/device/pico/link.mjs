// Two emulated Picos (rp2040js) whose UARTs are joined with crossed wires: the TX of each to
// the RX of the other, as docs/link.md wires two boards.
//
//   node tools/device/pico/link.mjs JOB.json
//
// The job (written by tools/device/pico_link.py): `chips`, two chip jobs as run.mjs takes one
// (each its own firmware run, flash image, trace and USB REPL), the UART they are joined by
// (`uart`: 0 for GP0/GP1), `slice_us`, `max_ms`, `wire` (where the bytes on the wire go) and
// `steps`, each for chips[step.chip] (chip.mjs runSteps); or, with `interactive`, batches of
// steps read from stdin, each answered on stdout with what the wire carried meanwhile, so
// that the driver can choose the next presses (whose turn it is) from the messages.
//
// Time: each chip has its own emulated clock; they run in turn for slice_us of emulated time
// each, so neither is ever more than a slice ahead of the other. A byte takes its bits at the
// baud rate in the sender's shift register (uart.mjs: 10 bits, 86.8 us at 115,200 baud) and
// reaches the other chip's receive FIFO when its stop bit is in: at that instant of the
// receiver's clock, or at once when the receiver is already past it (late by less than a slice).

import fs from 'node:fs';
import { Chip, Failure, loadBootrom, main, runSteps, slicedRunner } from './chip.mjs';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const bootrom = await loadBootrom(job.bootrom);
const chips = job.chips.map((chipJob) => new Chip(chipJob, bootrom));

// One direction of the cable: bytes leave `from` and arrive at `to` in order.
class Wire {
  constructor(from, to, uart) {
    this.from = from.uarts[uart];
    this.to = to.uarts[uart];
    this.clock = to.clock;
    this.queue = [];              // [arrival ns, byte], oldest first
    this.bytes = [];              // everything sent: the log
    this.ns = [];
    this.late = 0;                // bytes the receiver took after their time (it was ahead)
    this.lateMaxNs = 0;           // by how much, at most
    this.alarm = this.clock.createAlarm(() => this.arrive());
    this.from.onWire = (byte, ns) => this.carry(byte, ns);
  }

  carry(byte, ns) {
    this.bytes.push(byte);
    this.ns.push(Math.round(ns));
    this.queue.push([ns, byte]);
    if (this.queue.length === 1) this.schedule();
  }

  schedule() {
    const wait = this.queue[0][0] - this.clock.nanos;
    if (wait < 0) {
      this.late++;
      this.lateMaxNs = Math.max(this.lateMaxNs, -wait);
    }
    this.alarm.schedule(wait > 0 ? wait : 0);
  }

  arrive() {
    while (this.queue.length && this.queue[0][0] <= this.clock.nanos + 1) {   // 1 ns: rounding
      this.to.receive(this.queue.shift()[1]);
    }
    if (this.queue.length) this.schedule();
  }

  summary() {
    return { bytes: Buffer.from(this.bytes).toString('hex'), ns: this.ns, late: this.late, late_max_ns: Math.round(this.lateMaxNs),
      overruns: this.to.overruns, unheard: this.to.unheard };
  }
}

const uart = job.uart || 0;
const wires = [new Wire(chips[0], chips[1], uart), new Wire(chips[1], chips[0], uart)];

function finish() {
  for (const chip of chips) chip.finish();
  fs.writeFileSync(job.wire, JSON.stringify(wires.map((w) => w.summary())));
}

const runFor = slicedRunner(chips, job.slice_us * 1e3, job.max_ms);

// A line from stdin (blocking), or null at its end.
function readLine() {
  const bytes = [];
  const one = Buffer.alloc(1);
  for (;;) {
    if (fs.readSync(0, one, 0, 1, null) === 0) return bytes.length ? Buffer.from(bytes).toString() : null;
    if (one[0] === 10) return Buffer.from(bytes).toString();
    bytes.push(one[0]);
  }
}

if (!job.interactive) {
  main(job.steps, chips, runFor, finish);
} else {
  // Steps in batches, one JSON list a line on stdin; after each, one JSON line on stdout: the
  // bytes each wire carried since the last answer (hex), or the failure (the run then ends).
  // An empty line (or the end of stdin) ends the run.
  const told = [0, 0];
  for (let line = readLine(); line; line = readLine()) {
    try {
      runSteps(JSON.parse(line), chips, runFor);
    } catch (e) {
      finish();
      if (!(e instanceof Failure)) throw e;
      fs.writeSync(1, JSON.stringify({ error: e.message }) + '\n');
      process.exit(3);
    }
    const wire = wires.map((w, i) => Buffer.from(w.bytes.slice(told[i])).toString('hex'));
    wires.forEach((w, i) => { told[i] = w.bytes.length; });
    fs.writeSync(1, JSON.stringify({ wire, ns: chips.map((c) => c.clock.nanos) }) + '\n');
  }
  finish();
}
