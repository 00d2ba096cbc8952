"""A pytest plugin that adds up what the conformance checks did in a run, for
docs/reliability.md:

    .venv/bin/python -m pytest -p tests.conformance_totals \
        tests/test_conformance.py tests/test_liars_dice_conformance.py
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import bluffdice.testing

TOTALS: Counter[str] = Counter()
_check_rules = bluffdice.testing.check_rules


def _counting(*args: Any, **kwargs: Any) -> bluffdice.testing.CheckReport:
    report = _check_rules(*args, **kwargs)
    TOTALS["check_rules calls"] += 1
    TOTALS["games"] += report.games
    TOTALS["steps"] += report.steps
    TOTALS["illegal actions refused"] += report.illegal_tried
    TOTALS["views compared"] += report.views_compared
    return report


bluffdice.testing.check_rules = _counting  # before the test modules import it


def pytest_terminal_summary(terminalreporter: Any) -> None:
    terminalreporter.write_line(
        "conformance checks: " + ", ".join(f"{n:,} {what}" for what, n in TOTALS.items())
    )
