// An emulated Raspberry Pi Pico (rp2040js) running the console's firmware.
//
//   node tools/device/pico/run.mjs JOB.json
//
// The job (written by tools/device/pico.py) is a chip's (chip.mjs: the firmware image, the boot
// ROM, a littlefs image, the panel's bus and pins, the button GPIOs, where the trace, the USB
// REPL's output and the flash go) with a list of steps (press a button, wait for text on the
// USB REPL, wait until the panel has been quiet for a while, ...). What rp2040js does not model
// and the harness supplies (flash writes, pull-ups, the SPI wire) is in chip.mjs.

import fs from 'node:fs';
import { Chip, loadBootrom, main, slicedRunner } from './chip.mjs';

const SLICE_NS = 200e3;   // how often a waiting step looks at what it waits for

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const chip = new Chip(job, await loadBootrom(job.bootrom));
main(job.steps, [chip], slicedRunner([chip], SLICE_NS, job.max_ms || 600000), () => chip.finish());
