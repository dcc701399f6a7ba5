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
