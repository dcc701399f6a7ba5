// The console on a web page (docs/web.md): MicroPython's WebAssembly port runs the engine and
// the interface (web/main.py); this script loads it, runs the frame loop, paints the canvas and
// turns keys and on-screen buttons into the console's button presses.
//
// tools/build_web.py puts PCC_CONFIG (boards, key map, timings) and PCC_FILES (the Python
// modules, compiled) before this script, and calls pccBoot(loadMicroPython) from the page's module.
"use strict";

(function () {
  const CONFIG = window.PCC_CONFIG;
  const BUTTONS = CONFIG.buttons; // UP DOWN LEFT RIGHT A B X Y START SELECT
  const LONG_BUTTONS = CONFIG.longButtons.map((name) => BUTTONS.indexOf(name));
  const DPAD_LAST = BUTTONS.indexOf("RIGHT");
  const KEYS = {}; // KeyboardEvent.key -> button
  for (const [key, button] of CONFIG.keys) KEYS[key] = BUTTONS.indexOf(button);
  const LONG_KEYS = {}; // KeyboardEvent.key -> the button it long-presses at once (R: redo)
  for (const [key, button] of CONFIG.longKeys) LONG_KEYS[key] = BUTTONS.indexOf(button);

  const params = new URLSearchParams(location.search);
  const manualTime = params.get("time") === "manual"; // the browser tests step time themselves

  const statusLine = document.getElementById("status");
  const canvas = document.getElementById("screen");

  function say(text, isError) {
    statusLine.textContent = text;
    statusLine.classList.toggle("error", !!isError);
  }

  // --- the screen size: ?board=240x240 or a board's name (simulator/boards.py's rules) ---

  function resolveBoard(text) {
    const m = /^(\d+)x(\d+)$/.exec(text);
    if (m) {
      const width = +m[1], height = +m[2];
      if (!CONFIG.sizes.includes(width + "x" + height)) {
        return { error: "no layout for a " + width + "x" + height + " screen: the sizes are " + CONFIG.sizes.join(", ") };
      }
      return { name: text, title: text, width, height, buttons: BUTTONS.map((_, i) => i), twoButtons: false, noX: false,
        mono: CONFIG.oneBit.includes(text) };
    }
    const board = CONFIG.boards[text];
    if (!board) {
      return { error: "no board named '" + text + "' (give a size: " + CONFIG.sizes.join(", ") + ", or one of " +
        Object.keys(CONFIG.boards).join(", ") + ")" };
    }
    return Object.assign({ name: text }, board);
  }

  // The size switch: a link for each size with a layout, the page's other parameters kept.
  function setUpSizes(chosen) {
    const nav = document.getElementById("sizes");
    for (const size of CONFIG.sizes) {
      const link = document.createElement("a");
      const to = new URLSearchParams(params);
      to.set("board", size);
      link.href = "?" + to.toString();
      link.textContent = size;
      if (chosen.width + "x" + chosen.height === size) link.setAttribute("aria-current", "page");
      nav.appendChild(link);
    }
  }

  // --- buttons: keyboard and touch, as the simulator's keys (simulator/__main__.py Keys) ---
  // Every button reports as it goes down, except one of LONG_BUTTONS that the screen defers
  // (deferMask, from the console's defers() after each frame): that one reports once when held
  // past LONG_PRESS_MS (long) or on release (short). One of LONG_BUTTONS that reported as it
  // went down reports once more when held past LONG_PRESS_MS (held on: 2). The D-pad repeats.

  const queue = []; // [button, long], [CLICK, x, y], [DIGIT, digit] or [BACK] for the next frame
  const CLICK = -1, DIGIT = -2, BACK = -3;
  const down = new Map(); // button -> {at, long, next, sources}
  let heldMask = 0;
  let deferMask = 0;
  let present = null; // the board's buttons (a Set; null: a bare size, every button)
  let longAs = new Map(); // a held button -> the one its long press stands for (the board's LONG_AS)
  let manualClock = 0; // manual time: the page's clock is the time the tests let pass

  function nowMs() {
    return manualTime ? manualClock : performance.now();
  }

  function buttonDown(button, source, now) {
    let state = down.get(button);
    if (state) {
      state.sources.add(source);
      return;
    }
    if (present && !present.has(button)) return; // the board has no such button
    // A button whose long press stands for one the board lacks always waits (firmware/buttons.py).
    const waits = longAs.has(button) || (LONG_BUTTONS.includes(button) && (deferMask >> button & 1) === 1);
    state = { at: now, long: false, next: now + CONFIG.repeatFirstMs, sources: new Set([source]), waits };
    down.set(button, state);
    heldMask |= 1 << button;
    lightButton(button, true);
    if (!waits) queue.push([button, 0]);
    wake();
  }

  function buttonUp(button, source) {
    const state = down.get(button);
    if (!state || !state.sources.delete(source) || state.sources.size) return;
    down.delete(button);
    heldMask &= ~(1 << button);
    lightButton(button, false);
    if (state.waits && !state.long) queue.push([button, 0]);
    wake();
  }

  function releaseAll() {
    // The page lost the focus: no key-up will come. Let go without pressing anything.
    for (const button of down.keys()) lightButton(button, false);
    down.clear();
    heldMask = 0;
  }

  function heldButtons(now) {
    for (const [button, state] of down) {
      if (longAs.has(button)) {
        if (!state.long && now - state.at >= CONFIG.longPressMs) {
          state.long = true;
          queue.push([longAs.get(button), 0]);
        }
      } else if (LONG_BUTTONS.includes(button)) {
        if (!state.long && now - state.at >= CONFIG.longPressMs) {
          state.long = true;
          queue.push([button, state.waits ? 1 : 2]);
        }
      } else if (button <= DPAD_LAST && now >= state.next) {
        state.next = now + CONFIG.repeatMs;
        queue.push([button, 0]);
      }
    }
  }

  function keyButton(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return -1;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    return key in KEYS ? KEYS[key] : -1;
  }

  window.addEventListener("keydown", (event) => {
    if (event.key === CONFIG.backKey && !(event.ctrlKey || event.metaKey || event.altKey)) {
      event.preventDefault(); // Esc backs out as B does (the console's back_key)
      if (!event.repeat) queue.push([BACK]);
      wake();
      return;
    }
    const button = keyButton(event);
    if (button < 0 && /^[0-9]$/.test(event.key) && !(event.ctrlKey || event.metaKey || event.altKey)) {
      queue.push([DIGIT, +event.key]); // a number entry (the deal screen) takes it
      return;
    }
    if (button < 0 && event.key.toLowerCase() in LONG_KEYS && !(event.ctrlKey || event.metaKey || event.altKey)) {
      event.preventDefault();
      const long = LONG_KEYS[event.key.toLowerCase()];
      if (!event.repeat && !(present && !present.has(long))) queue.push([long, 1]);
      wake();
      return;
    }
    if (button < 0) return;
    event.preventDefault();
    if (!event.repeat) buttonDown(button, "key:" + event.key.toLowerCase(), nowMs());
  });
  window.addEventListener("keyup", (event) => {
    const button = keyButton(event);
    if (button < 0) return;
    event.preventDefault();
    buttonUp(button, "key:" + event.key.toLowerCase());
  });
  window.addEventListener("blur", releaseAll);

  const pads = new Map(); // button -> its on-screen element

  function lightButton(button, on) {
    const pad = pads.get(button);
    if (pad) pad.classList.toggle("down", on);
  }

  function setUpPads(board) {
    for (const pad of document.querySelectorAll(".pads [data-button]")) {
      const button = BUTTONS.indexOf(pad.dataset.button);
      // A board with only A and B plays the two-button scheme: only those are shown.
      if (board.twoButtons && button !== BUTTONS.indexOf("A") && button !== BUTTONS.indexOf("B")) {
        pad.hidden = true;
        continue;
      }
      pads.set(button, pad);
      const source = (event) => "pointer:" + event.pointerId;
      pad.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        pad.setPointerCapture(event.pointerId);
        buttonDown(button, source(event), nowMs());
      });
      const up = (event) => buttonUp(button, source(event));
      pad.addEventListener("pointerup", up);
      pad.addEventListener("pointercancel", up);
      pad.addEventListener("contextmenu", (event) => event.preventDefault());
    }
    document.body.classList.toggle("two-buttons", board.twoButtons);
  }

  // A click, a tap or a drag on the screen: at the screen's pixel, as the simulator's mouse
  // (engine_core/pointer.py: a pile takes the cursor and A, twice quickly sends it home; a card
  // picked up and dragged follows the pointer and drops where it is let go). The canvas keeps
  // the pointer that pressed on it until it is let go: its moves (the last only, per frame)
  // and its release, off the canvas at OFF, OFF (on no pile).
  const PRESS = 0, MOVE = 1, RELEASE = 2, OFF = 511;
  let pointing = null; // the pointerId pressed on the canvas
  function screenPoint(event) {
    const box = canvas.getBoundingClientRect();
    const x = Math.floor((event.clientX - box.left) * width / box.width);
    const y = Math.floor((event.clientY - box.top) * height / box.height);
    return x >= 0 && y >= 0 && x < width && y < height ? [x, y] : null;
  }
  canvas.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || pointing !== null) return;
    event.preventDefault();
    const at = screenPoint(event);
    if (!at) return;
    pointing = event.pointerId;
    canvas.setPointerCapture(event.pointerId);
    queue.push([CLICK, at[0], at[1], PRESS]);
    wake();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (event.pointerId !== pointing) return;
    event.preventDefault();
    const at = screenPoint(event);
    if (!at) return;
    const last = queue[queue.length - 1];
    if (last && last[0] === CLICK && last[3] === MOVE) queue.pop();
    queue.push([CLICK, at[0], at[1], MOVE]);
    wake();
  });
  const release = (event) => {
    if (event.pointerId !== pointing) return;
    pointing = null;
    const at = event.type === "pointerup" ? screenPoint(event) : null;
    queue.push([CLICK, at ? at[0] : OFF, at ? at[1] : OFF, RELEASE]);
    wake();
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());

  // --- the canvas: the framebuffer through the palette, dirty rectangles only ---

  let page = null; // web/main.py's PageConsole
  let memory = null; // the WebAssembly instance's memory
  let addr = null; // [framebuffer, palette, dirty rectangles, 1 if the framebuffer is one-bit]
  let width = 0, height = 0, ctx = null, image = null, pixels = null;
  const colours = new Uint32Array(16);

  // A one-bit screen lit on dark, as simulator/image.py's mono_rgb_bytes shows it.
  const LIT = 0xffffffff, DARK = 0xff000000;

  function copyDirty(count) {
    if (addr[3]) {
      copyDirtyMono(count);
      return;
    }
    const bytes = memory.buffer; // taken afresh: a grown memory has a new buffer
    const buf = new Uint8Array(bytes, addr[0], (width * height) >> 1);
    const palette = new Uint16Array(bytes, addr[1], 16);
    const dirty = new Int16Array(bytes, addr[2], 4 * count);
    for (let i = 0; i < 16; i++) {
      // RGB565 to 8 bits a channel as the simulator shows it (simulator/image.py rgb888).
      const v = palette[i];
      const r = (v >> 11) & 31, g = (v >> 5) & 63, b = v & 31;
      colours[i] = 0xff000000 | (((b << 3) | (b >> 2)) << 16) | (((g << 2) | (g >> 4)) << 8) | ((r << 3) | (r >> 2));
    }
    for (let i = 0; i < count; i++) {
      const x0 = dirty[4 * i], y0 = dirty[4 * i + 1], w = dirty[4 * i + 2], h = dirty[4 * i + 3];
      for (let y = y0; y < y0 + h; y++) {
        let out = y * width + x0;
        for (let x = x0; x < x0 + w; x++, out++) {
          const byte = buf[out >> 1];
          pixels[out] = colours[x & 1 ? byte & 15 : byte >> 4];
        }
      }
      ctx.putImageData(image, 0, 0, x0, y0, w, h);
    }
    page.painted();
  }

  // MONO_VLSB (docs/screen.md, "One-bit panels"): byte (y >> 3) * width + x holds column x of
  // rows 8 * (y >> 3) .. + 7, bit y & 7 the pixel (1 lit), as simulator/image.py's mono_pixels.
  function copyDirtyMono(count) {
    const bytes = memory.buffer;
    const buf = new Uint8Array(bytes, addr[0], width * ((height + 7) >> 3));
    const dirty = new Int16Array(bytes, addr[2], 4 * count);
    for (let i = 0; i < count; i++) {
      const x0 = dirty[4 * i], y0 = dirty[4 * i + 1], w = dirty[4 * i + 2], h = dirty[4 * i + 3];
      for (let y = y0; y < y0 + h; y++) {
        const page = (y >> 3) * width, bit = 1 << (y & 7);
        let out = y * width + x0;
        for (let x = x0; x < x0 + w; x++, out++) pixels[out] = buf[page + x] & bit ? LIT : DARK;
      }
      ctx.putImageData(image, 0, 0, x0, y0, w, h);
    }
    page.painted();
  }

  // --- the frame loop: requestAnimationFrame, at the device's frame rate ---

  let lastFrame = -1;
  let lastTick = 0;
  let grantedMs = 0; // manual time: what the tests let pass
  let frames = 0;
  const frameTimes = []; // the last frames' cost in ms (docs/web.md): [ms, presses delivered]

  function step(now) {
    const started = performance.now();
    let ms;
    if (manualTime) {
      ms = grantedMs;
      grantedMs = 0;
      manualClock += ms;
    } else {
      // Whole milliseconds; the fraction left waits for the next frame, so the console's
      // clock keeps the browser's. A hidden tab stops the frames: it comes back where it
      // was, not minutes later.
      ms = Math.max(0, Math.floor(now - lastTick));
      if (ms > CONFIG.maxTickMs + restedMs) {
        ms = CONFIG.maxTickMs + restedMs; // a rest's time passes in full, as the device's does
        lastTick = now;
      } else {
        lastTick += ms;
      }
    }
    // The buttons held at the frame's time: a long press due by then is delivered with it.
    heldButtons(manualTime ? manualClock : now);
    const pressed = queue.length;
    for (const [button, a, b, phase] of queue) {
      if (button === CLICK) page.click(a, b, phase);
      else if (button === DIGIT) page.type_digit(a);
      else if (button === BACK) page.back();
      else page.press(button, a);
    }
    delivered += pressed;
    queue.length = 0;
    restedMs = 0;
    const count = page.frame(ms, heldMask);
    deferMask = page.defers();
    showLight(page.light());
    if (count) {
      copyDirty(count);
      if (manualTime) drawn.push([page.logged, canvasRGB()]);
    }
    const tone = page.sound();
    if (tone) beep(tone >>> 16, (tone & 0xffff) / 1000);
    frames++;
    frameTimes.push([performance.now() - started, pressed]);
    if (frameTimes.length > 2000) frameTimes.shift();
    if (deals !== page.deals()) showDeal();
  }

  let stopped = false;

  // The device's dimming and screen off (engine_core/power.py, the console's settings Dim
  // after and Screen off after): the canvas shown darker as a backlight at that share of full
  // looks (share ** (1 / 2.2), as the simulator's window), blank at 0. A key or a tap wakes
  // it, and does nothing else (the loop's port).
  let light = 100;

  function showLight(percent) {
    if (percent === light) return;
    light = percent;
    canvas.style.filter = percent >= 100 ? "" : "brightness(" + Math.pow(percent / 100, 1 / 2.2).toFixed(3) + ")";
  }

  // Resting: when nothing moves (page.idle(): engine_core/ui/idle.py) and no button is down,
  // no frame runs until a button goes down or a second has passed, as the device rests.
  let resting = false;
  let restTimer = 0;
  let restedMs = 0; // the rest's length: the frame after it passes that much time
  let rests = 0;

  function wake() {
    if (!resting) return;
    resting = false;
    clearTimeout(restTimer);
    requestAnimationFrame(loop);
  }

  function loop(now) {
    if (stopped) return;
    if (lastFrame < 0 || now - lastFrame >= CONFIG.frameMs - 2) {
      lastFrame = now;
      try {
        step(now);
      } catch (error) {
        failed(error);
      }
      if (!manualTime && queue.length === 0 && down.size === 0 && page.idle()) {
        resting = true;
        rests++;
        restedMs = Math.min(CONFIG.restMaxMs, page.rest_ms());
        restTimer = setTimeout(wake, restedMs);
        return;
      }
    }
    requestAnimationFrame(loop);
  }

  let delivered = 0;
  let deals = -1; // page.deals() when the link was last made
  const drawn = []; // manual time: [events logged before it, the canvas] for each frame drawn

  function showDeal() {
    deals = page.deals();
    const deal = page.deal();
    const link = document.getElementById("deal");
    if (!deal) {
      link.hidden = true;
      return;
    }
    const [game, seed] = deal.split(" ");
    const url = new URL(location.href);
    url.searchParams.set("game", game);
    url.searchParams.set("seed", seed);
    url.searchParams.delete("time");
    link.href = url.href;
    link.textContent = "Link to this deal (" + CONFIG.titles[game] + ", seed " + seed + ")";
    link.hidden = false;
  }

  // --- sound: short beeps, as a buzzer would give them (only while the page has been used) ---

  let audio = null;

  function beep(hz, seconds) {
    // The tone the engine's loop started (engine_core/ui/tones.py's table, as the device's beeper).
    if (!audio || audio.state !== "running") return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "square";
    osc.frequency.value = hz;
    gain.gain.value = 0.04;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + seconds);
  }

  function wakeAudio() {
    // Browsers let a page sound only after a gesture: the first key or touch makes the context.
    if (!audio && window.AudioContext) audio = new AudioContext();
    if (audio && audio.state === "suspended") audio.resume();
  }
  window.addEventListener("keydown", wakeAudio);
  window.addEventListener("pointerdown", wakeAudio);

  // --- scaling: whole device pixels per screen pixel, crisp ---

  function fit() {
    // The largest whole number of device pixels per screen pixel at which the rest of the page
    // keeps its room: with the buttons beside the screen (a laptop) the whole page, key help
    // included, fits the window without scrolling; with the buttons below it (a phone) the
    // screen fills the width and it and its buttons fit the height (the help may scroll).
    const ratio = window.devicePixelRatio || 1;
    const shown = canvas.getBoundingClientRect();
    const body = document.body.getBoundingClientRect();
    const boxStyle = getComputedStyle(document.getElementById("screen-box"));
    const grid = document.getElementById("console");
    const beside = getComputedStyle(grid).gridTemplateAreas.startsWith('"dpad');
    const pads = beside ? document.querySelector(".dpad").getBoundingClientRect().width +
      document.querySelector(".face").getBoundingClientRect().width +
      2 * parseFloat(getComputedStyle(grid).columnGap) : 0;
    const bodyStyle = getComputedStyle(document.body);
    const otherW = pads + 2 * (parseFloat(boxStyle.paddingLeft) + parseFloat(bodyStyle.paddingLeft));
    const bottom = beside ? body.height :
      grid.getBoundingClientRect().bottom - body.top + parseFloat(bodyStyle.paddingBottom);
    const otherH = bottom - shown.height;
    const roomW = window.innerWidth - otherW;
    const roomH = window.innerHeight - otherH;
    const scale = Math.max(1, Math.floor(Math.min(roomW * ratio / width, roomH * ratio / height)));
    canvas.style.width = (width * scale) / ratio + "px";
    canvas.style.height = (height * scale) / ratio + "px";
  }

  // --- loading ---

  function failed(error) {
    stopped = true;
    say("The console stopped: " + (error && error.message ? error.message : error), true);
    console.error(error);
    window.pcc.error = String(error && error.stack ? error.stack : error);
    throw error;
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error("could not load " + src));
      document.head.appendChild(script);
    });
  }

  async function wasmUrl() {
    // From a web server the browser compiles micropython.wasm as it downloads. From file://
    // a page may not fetch its neighbours, so the same bytes come in a script (base64) and
    // reach the compiler as a blob.
    if (location.protocol !== "file:") return "micropython.wasm";
    await loadScript("micropython.wasm.js");
    const text = atob(window.PCC_WASM);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    delete window.PCC_WASM;
    return URL.createObjectURL(new Blob([bytes], { type: "application/wasm" }));
  }

  const MAX_ITEM_CHARS = 1 << 16; // a record's hex is at most a few thousand characters

  function storage() {
    try {
      const store = window.localStorage;
      store.getItem("pocket-cards/settings.dat");
      return safeStore(store);
    } catch (error) {
      return null; // storage switched off: records last as long as the page
    }
  }

  // localStorage's methods throw: QuotaExceededError when the origin's quota is full, a
  // SecurityError when storage is switched off meanwhile. In this MicroPython port a
  // JavaScript exception thrown inside a call from Python does not become a Python exception:
  // it unwinds through the interpreter and stops the page. So the console gets methods that
  // never throw (web/storage.py): getItem gives the item, null, or "!" and the error's name
  // (not hex: read as a damaged record); setItem and removeItem give "" or the error's name.
  // An item far longer than any record is not handed over either ("!TooLong"): copied into
  // the interpreter's heap it could exhaust it.
  function safeStore(store) {
    const nameOf = (error) => String((error && error.name) || error || "Error");
    return {
      getItem(key) {
        try {
          const text = store.getItem(key);
          return text !== null && text.length > MAX_ITEM_CHARS ? "!TooLong" : text;
        } catch (error) {
          return "!" + nameOf(error);
        }
      },
      setItem(key, value) {
        try { store.setItem(key, value); return ""; } catch (error) { return nameOf(error); }
      },
      removeItem(key) {
        try { store.removeItem(key); return ""; } catch (error) { return nameOf(error); }
      },
    };
  }

  function catchMemory() {
    // The port exports no view of its memory (HEAPU8 is not exported), and the page reads the
    // framebuffer in place: keep the memory its instance exports while it is being made.
    const instantiate = WebAssembly.instantiate;
    const streaming = WebAssembly.instantiateStreaming;
    const keep = (result) => {
      memory = (result.instance || result).exports.memory;
      return result;
    };
    WebAssembly.instantiate = (...args) => instantiate.apply(WebAssembly, args).then(keep);
    WebAssembly.instantiateStreaming = (...args) => streaming.apply(WebAssembly, args).then(keep);
    return () => {
      WebAssembly.instantiate = instantiate;
      WebAssembly.instantiateStreaming = streaming;
    };
  }

  function writeFiles(fs) {
    // The modules, compiled by mpy-cross (tools/build_web.py), base64 (or their source, for
    // comparing: build_web.py --source).
    for (const [path, text] of Object.entries(window.PCC_FILES)) {
      const dir = "/" + path.split("/").slice(0, -1).join("/");
      const binary = atob(text);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      fs.mkdirTree(dir);
      fs.writeFile("/" + path, bytes);
    }
    delete window.PCC_FILES;
  }

  async function boot(loadMicroPython) {
    const t0 = performance.now();
    const board = resolveBoard(params.get("board") || "240x240");
    const warnings = []; // shown under the screen: the page goes on with what it can
    let chosen = board;
    if (board.error) {
      warnings.push(board.error);
      chosen = resolveBoard("240x240");
    }
    // ?mono=1 shows any board one bit a pixel, as the simulator's --mono; a one-bit board is.
    const mono = params.get("mono") === "1" || !!chosen.mono;
    width = chosen.width;
    height = chosen.height;
    canvas.width = width;
    canvas.height = height;
    ctx = canvas.getContext("2d", { alpha: false });
    image = ctx.createImageData(width, height);
    pixels = new Uint32Array(image.data.buffer);
    document.getElementById("board").textContent = chosen.title;
    setUpSizes(chosen);
    setUpPads(chosen);
    present = chosen.mask === undefined ? null : new Set(chosen.buttons);
    longAs = new Map(chosen.longAs || []);
    fit();
    window.addEventListener("resize", fit);

    const url = await wasmUrl();
    const restore = catchMemory();
    const mp = await loadMicroPython({
      url,
      heapsize: CONFIG.heapBytes,
      stdout: (line) => console.log(line),
      stderr: (line) => {
        console.error(line);
        say(line, true);
      },
    });
    restore();
    const t1 = performance.now();
    if (url.startsWith("blob:")) URL.revokeObjectURL(url);
    if (!(memory instanceof WebAssembly.Memory)) throw new Error("the WebAssembly memory was not found");
    writeFiles(mp.FS);
    const store = storage();
    if (!store) warnings.push("This browser keeps no records for the page: nothing is saved.");
    mp.globals.set("page_store", store);
    mp.runPython(
      "import web.main\n" +
      "page = web.main.PageConsole(" + width + ", " + height + ", " + (chosen.twoButtons ? "True" : "False") +
      ", page_store, " + (manualTime ? "True" : "False") + ", " + (mono ? "True" : "False") + ", " +
      (chosen.mask === undefined ? -1 : chosen.mask) + ", " + JSON.stringify(chosen.longAs || []) + ")\n" +
      "page.app.no_x = " + (chosen.noX ? "True" : "False") + "\n");
    page = mp.globals.get("page");
    addr = Array.from(page.addresses());
    const kiosk = params.get("kiosk");
    page.start(kiosk === "1" ? 1 : kiosk === "0" ? 0 : -1);
    document.body.classList.toggle("kiosk", kiosk === "1");
    const game = params.get("game");
    if (game) {
      const seed = parseInt(params.get("seed") || "1", 10);
      const why = isNaN(seed) || seed < 0 || seed >= 1 << 30 ? "a seed is a number from 0 to 2^30 - 1" :
        page.open_game(game, seed);
      if (why) warnings.push("?game=" + game + ": " + why);
      // A reload resumes the game rather than dealing it again; the deal's link stays below.
      const url = new URL(location.href);
      url.searchParams.delete("game");
      url.searchParams.delete("seed");
      history.replaceState(null, "", url.href);
    }
    fit();
    say(warnings.join(" "), warnings.length > 0);
    window.addEventListener("pagehide", () => page.save_now());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") page.save_now();
    });
    copyDirty(page.frame(0, 0)); // the first frame: the title or the resumed game
    if (manualTime) drawn.push([page.logged, canvasRGB()]);
    window.pcc.loadMs = performance.now() - t0;
    window.pcc.micropythonMs = t1 - t0; // fetching and compiling the port, starting it
    window.pcc.firstFrameMs = performance.now(); // since the page's navigation began
    window.pcc.ready = true;
    lastTick = performance.now();
    requestAnimationFrame(loop);
    installable();
  }

  // --- the page as an app: a service worker keeps every file for playing offline ---

  function installable() {
    // sw.js (written by make web) caches the page's files, so the page, once opened, starts
    // with no network and installs to a phone's home screen (manifest.webmanifest). Only from
    // a server: a file:// page has no service worker, and needs none.
    if (!("serviceWorker" in navigator) || !location.protocol.startsWith("http")) return;
    navigator.serviceWorker.register("sw.js").then((registration) => {
      window.pcc.worker = registration;
    }, (error) => {
      console.warn("no offline copy: " + error); // the page plays on, online
    });
  }

  // --- what the browser tests and the docs' figures read ---

  window.pcc = {
    ready: false,
    error: null,
    loadMs: 0,
    micropythonMs: 0,
    firstFrameMs: 0,
    get frames() { return frames; },
    get rests() { return rests; },
    get resting() { return resting; },
    get light() { return light; },
    get delivered() { return delivered; },
    get queued() { return queue.length; },
    settled() { return queue.length === 0 && grantedMs === 0 && !page.busy(); },
    advance(ms) { grantedMs += ms; }, // manual time only
    // The presses and ticks since the last call, and each frame drawn meanwhile with how many
    // of those events came before it (manual time).
    takeLog() { return [page.take_log(), drawn.splice(0, drawn.length)]; },
    frameTimes() { return frameTimes.slice(); },
    canvasRGB: () => canvasRGB(),
  };

  function canvasRGB() {
    // The canvas as RGB bytes (base64), as simulator/image.py's to_rgb_bytes gives a screen.
    const data = ctx.getImageData(0, 0, width, height).data;
    const chunks = [];
    for (let i = 0; i < data.length; i += 3 * 4096) {
      const part = [];
      for (let k = i; k < Math.min(i + 3 * 4096, data.length); k += 4) part.push(data[k], data[k + 1], data[k + 2]);
      chunks.push(String.fromCharCode.apply(null, part));
    }
    return btoa(chunks.join(""));
  }

  window.pccBoot = (loadMicroPython) => boot(loadMicroPython).catch(failed);
})();
