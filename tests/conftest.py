import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def pytest_terminal_summary(terminalreporter):
    """Say loudly when the emulated-Pico tests did not run, and why."""
    reasons = set()
    for report in terminalreporter.stats.get("skipped", []):
        if "test_pico.py" in report.nodeid:
            reasons.add(str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr))
    if reasons:
        terminalreporter.write_sep("!", "the firmware was NOT tested on the emulated Pico", red=True, bold=True)
        for reason in sorted(reasons):
            terminalreporter.write_line("  " + reason)
        terminalreporter.write_line("  (make test-device runs them; CI always does)")
