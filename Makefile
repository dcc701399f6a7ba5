# The verbs a person types. Everything installs itself into .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv sim play test bench screenshots clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
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

# The whole suite, on CPython and on real MicroPython (WebAssembly), on every core.
test: $(STAMP)
	$(PY) -m pytest -n auto -q tests

bench: $(STAMP)
	$(PY) tools/bench.py

clean:
	rm -rf $(VENV) build .pytest_cache
