# The verbs a person types. Everything installs itself into .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv sim play test bench clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

venv: $(STAMP)

# The simulator (for now the text protocol on the terminal).
sim: $(STAMP)
	$(PY) tools/play.py

play: $(STAMP)
	$(PY) tools/play.py

# The whole suite, on CPython and on real MicroPython (WebAssembly), on every core.
test: $(STAMP)
	$(PY) -m pytest -n auto -q tests

bench: $(STAMP)
	$(PY) tools/bench.py

clean:
	rm -rf $(VENV) build .pytest_cache
