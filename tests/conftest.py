"""The suite's hooks: the goldens stay read-only through a run, and the summary says loudly
what did not run."""

import os
import time

from support.goldens import CHANGES, FRAMES, GOLDEN, current

# MicroPython's time.sleep_us, which the device code run on CPython calls (firmware/hardware.py:
# the RP2040's core voltage settles before the clock goes up) and CPython's time lacks.
if not hasattr(time, "sleep_us"):
    time.sleep_us = lambda us: time.sleep(us / 1e6)  # type: ignore[attr-defined]

_GOLDENS_AT_START = {}


def goldens_now():
    values = current()
    for name in (CHANGES, FRAMES):
        with open(os.path.join(GOLDEN, name), "rb") as f:
            values[("file", name)] = f.read()
    return values


def pytest_sessionstart(session):
    """The goldens as the run found them (tests/golden/; tests/test_goldens.py)."""
    if not hasattr(session.config, "workerinput"):
        _GOLDENS_AT_START.update(goldens_now())


def pytest_sessionfinish(session, exitstatus):
    """A run that changed tests/golden/ fails: only `make goldens WHY=...` writes it."""
    if hasattr(session.config, "workerinput") or not _GOLDENS_AT_START:
        return
    now = goldens_now()
    changed = sorted("%s %s" % k for k in set(now) | set(_GOLDENS_AT_START)
                     if now.get(k) != _GOLDENS_AT_START.get(k))
    if changed:
        session.exitstatus = 1
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = ["the tests changed tests/golden/ (only `make goldens WHY=...` may): " + ", ".join(changed)]
        if reporter is not None:
            reporter.write_sep("!", lines[0], red=True, bold=True)
        else:
            print(lines[0])


def pytest_terminal_summary(terminalreporter):
    """Say loudly when the emulated-Pico tests or the browser tests did not run, and why."""
    reasons = set()
    for report in terminalreporter.stats.get("skipped", []):
        if "test_pico.py" in report.nodeid:
            reasons.add(str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr))
    if reasons:
        terminalreporter.write_sep("!", "the firmware was NOT tested on the emulated Pico", red=True, bold=True)
        for reason in sorted(reasons):
            terminalreporter.write_line("  " + reason)
        terminalreporter.write_line("  (make test-device runs them; CI always does)")
    # The browser tests (tests/test_web.py).
    reasons = set()
    for report in terminalreporter.stats.get("skipped", []):
        text = str(report.longrepr)
        if "BROWSER TESTS SKIPPED" in text:
            reasons.add(text[text.index("BROWSER TESTS SKIPPED"):].split("'")[0].split('"')[0])
    if reasons:
        terminalreporter.write_sep("!", "the web page was not tested in a browser", red=True, bold=True)
        for reason in sorted(reasons):
            terminalreporter.write_line(reason, red=True, bold=True)
        terminalreporter.write_line("CI sets POCKET_WEB_TESTS=required (.ci/run): there a skip is a failure.",
                                    red=True, bold=True)
    # The compiled solver (tests/test_solvers.py) needs a C compiler.
    for report in terminalreporter.stats.get("skipped", []):
        if "COMPILED SOLVER NOT TESTED" in str(report.longrepr):
            terminalreporter.write_sep("!", "the compiled Sir Tommy searches were not tested: no C compiler",
                                       red=True, bold=True)
            terminalreporter.write_line("CI sets CI=1 (.ci/run): there a missing compiler is a failure.",
                                        red=True, bold=True)
            break
