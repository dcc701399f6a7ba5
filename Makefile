# The verbs a person types. Everything installs itself into .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv sim play test typecheck bench build flash screenshots clean

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

venv: $(STAMP)

# The simulator: a window with the console's screen (BOARD=240x135, 240x240, 320x240 or a board name).
BOARD ?= 240x240
sim: $(STAMP)
	$(PY) -m simulator --board $(BOARD)

# PNGs of every game on every screen class, into docs/screens/ (the README shows them).
screenshots: $(STAMP)
	$(PY) tools/screenshots.py

play: $(STAMP)
	$(PY) tools/play.py

# The whole suite, on CPython and on real MicroPython (WebAssembly), on every core,
# after the device code's type check.
test: $(STAMP) typecheck
	$(PY) -m pytest -n auto -q tests

# firmware/ and boards/ against each port's MicroPython stubs, one port at a time.
STUB_PORTS := rp2 esp32
STUBS := $(VENV)/stubs

$(STUBS)/%/.installed: requirements-stubs.txt $(STAMP)
	rm -rf $(STUBS)/$*
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --target $(STUBS)/$* \
		$$(grep -E '^micropython-($*|stdlib)-stubs==' requirements-stubs.txt)
	touch $@

typecheck: $(foreach p,$(STUB_PORTS),$(STUBS)/$(p)/.installed)
	@for port in $(STUB_PORTS); do \
		echo "typecheck firmware/ boards/ against $$port stubs"; \
		MYPYPATH=$(STUBS)/$$port $(PY) -m mypy --config-file tools/mypy-device.ini \
			--cache-dir $(STUBS)/.mypy_cache_$$port --custom-typeshed-dir $(STUBS)/$$port \
			firmware boards || exit 1; \
	done

# make build BOARD=picosystem: everything compiled for the board into build/BOARD/.
# make flash BOARD=picosystem PORT=/dev/ttyACM0: copy it with mpremote and reset the board.
build: $(STAMP)
	@test -n "$(BOARD)" || { echo "usage: make build BOARD=name (boards/__init__.py lists them)"; exit 2; }
	$(PY) tools/deploy.py build $(BOARD)

flash: build
	@test -n "$(PORT)" || { echo "usage: make flash BOARD=$(BOARD) PORT=/dev/ttyACM0"; exit 2; }
	$(PY) tools/deploy.py flash $(BOARD) --port $(PORT)

bench: $(STAMP)
	$(PY) tools/bench.py

clean:
	rm -rf $(VENV) build .pytest_cache
