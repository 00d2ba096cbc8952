"""The typed game contract at work: mypy holds a bot to its game's views and actions,
and a game's state to its own moves (`tests/typecheck/bad_bot.py` marks each line mypy
must reject with `# expect: <error code>`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "typecheck" / "bad_bot.py"


def expected(path: Path) -> set[tuple[int, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found = set()
    for number, line in enumerate(lines, start=1):
        match = re.search(r"# expect: ([a-z-]+)$", line)
        if match:
            found.add((number, match.group(1)))
    return found


def test_mypy_rejects_what_breaks_the_contract_and_only_that(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = pytest.importorskip("mypy.api")
    monkeypatch.setenv("MYPYPATH", str(ROOT / "src"))  # this tree's sources, not an install
    out, err, _ = api.run(
        [
            str(CASES),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--follow-imports",
            "silent",
            "--show-error-codes",
            "--no-error-summary",
        ]
    )
    assert err == ""
    errors = {
        (int(m.group(1)), m.group(2))
        for m in re.finditer(r"bad_bot\.py:(\d+): error: .*\[([a-z-]+)\]$", out, re.MULTILINE)
    }
    assert len(expected(CASES)) == 3
    assert errors == expected(CASES), out
