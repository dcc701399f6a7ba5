// Where an emulated Pico spends its cycles: run.mjs's job, with every instruction's cycles
// added to the program counter it ran at, in windows that end at each marker (a press and
// the frames that answer it end at the marker after it), and at the first byte the panel
// receives after a press begins (the window "answer": from the press to its first byte), and
// once the panel has received job.title_bytes (the window "title": from power-on to the last
// byte of the first whole frame, the title; "boot" then runs on to the boot marker). Writes job.profile (JSON): per
// marker, [[pc, cycles], ...] for the code in flash, the boot ROM and RAM (viper and native
// code the VM emitted lives there). tools/device/pico_profile.py names the functions.
//
//   node tools/device/pico/profile.mjs JOB.json

import fs from 'node:fs';
import { Chip, loadBootrom, main, slicedRunner } from './chip.mjs';

const SLICE_NS = 200e3;

class ProfiledChip extends Chip {
  constructor(job, bootrom) {
    super(job, bootrom);
    this.windows = [];
    this.counts = new Map();
    const core = this.core;
    const execute = core.executeInstruction.bind(core);
    const counts = this.counts;
    // Calls into job.watch (function addresses): per window, [address, r0 at entry, LR] each.
    const watch = new Set((job.watch || []).map((a) => a & ~1));
    this.calls = [];
    this.answered = 0;      // the press whose first byte has cut a window
    this.titled = !job.title_bytes;   // the title's window is cut
    core.executeInstruction = () => {
      const pc = core.PC;
      if (watch.has(pc)) {
        this.calls.push([pc, core.registers[0] >>> 0, (core.registers[14] >>> 0) & ~1, this.clock.nanos]);
      }
      const cycles = execute();
      counts.set(pc, (counts.get(pc) || 0) + cycles);
      if (this.pressNs !== this.answered && this.firstSpiNs >= this.pressNs && this.pressNs > 0) {
        this.answered = this.pressNs;
        this.cut('answer');
      }
      if (!this.titled && this.spiBytes >= job.title_bytes) {
        this.titled = true;
        this.cut('title');
      }
      return cycles;
    };
  }

  cut(name) {
    this.windows.push({ name, pcs: [...this.counts.entries()], calls: this.calls });
    this.counts.clear();
    this.calls = [];
  }

  marker(fields) {
    super.marker(fields);
    this.cut(fields.name);
  }

  finish() {
    super.finish();
    fs.writeFileSync(this.job.profile, JSON.stringify(this.windows));
  }
}

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const chip = new ProfiledChip(job, await loadBootrom(job.bootrom));
main(job.steps, [chip], slicedRunner([chip], SLICE_NS, job.max_ms || 600000), () => chip.finish());
