# The verbs a person types. Everything installs itself into .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv sim play test bench soak clean

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

# The long reliability run (power cuts, corruption, 1,000,000 button events, 10,000 games on
# MicroPython); its figures go into docs/reliability.md. `make test` runs a short version.
soak: $(STAMP)
	$(PY) tools/soak.py --update-docs

clean:
	rm -rf $(VENV) build .pytest_cache
