"""benchmarks/table.py and the `--json` of the benchmarks it runs: each row carries both
sides, every pair's ratio, and the median [min–max] the table prints. (The figures are
the benchmarks' business; here only that they are carried and shown right.)"""

from __future__ import annotations

import importlib.util
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).resolve().parents[1] / "benchmarks"


def table() -> ModuleType:
    spec = importlib.util.spec_from_file_location("table", HERE / "table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_startup_json_pairs_each_command_with_the_floor_of_its_round() -> None:
    done = subprocess.run(
        [sys.executable, str(HERE / "bench_startup.py"), "--runs", "2", "--json"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert {r["what"] for r in rows} == {
        "startup: bluffdice --help",
        "startup: bluffdice rules",
        "startup: bluffdice odds mia",
    }
    for r in rows:
        assert len(r["ratios"]) == 2
        assert r["ratio"] == pytest.approx(statistics.median(r["ratios"]))
        assert r["ratio_min"] == min(r["ratios"]) and r["ratio_max"] == max(r["ratios"])
        assert r["ours"] > 0 and r["theirs"] > 0
    assert "round 2 of 2 done" in done.stderr  # progress on stderr, JSON alone on stdout


def test_startup_refuses_zero_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(HERE / "bench_startup.py"), "--runs", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--runs must be at least 1" in done.stderr


def test_cfr_and_startup_rows_show_both_sides_and_the_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = table()
    cfr = {
        "what": "CFR dcfr, 1-die Liar's Dice to 0.001 exploitability",
        "iterations": 180,
        "reference_iterations": 308,
        "ours": 0.37,
        "theirs": 33.0,
        "ratio": 89.9,
        "ratio_min": 85.0,
        "ratio_max": 95.5,
    }
    startup = {
        "what": "startup: bluffdice --help",
        "ours": 0.094,
        "theirs": 0.054,
        "ratio": 1.74,
        "ratio_min": 1.70,
        "ratio_max": 1.80,
        "target": 2.0,
        "reference": 'python -c "import typer, rich"',
    }
    answers = {"bench_cfr.py": [cfr], "bench_startup.py": [startup]}
    monkeypatch.setattr(module, "run", lambda args: (answers[args[0]], 1.5))
    [(section, row)] = module.cfr_rows(None)
    assert section == module.OUTSIDE
    assert "**89.90×** [85.00–95.50]" in row
    assert "33.00 CPU s (308 iterations)" in row and "0.37 CPU s (180 iterations)" in row
    assert "`.venv/bin/python benchmarks/bench_cfr.py --quick --pairs 3`" in row
    [(section, row)] = module.startup_rows(None)
    assert section == module.OUTSIDE
    assert "**1.74×** [1.70–1.80] (target ≤ 2×); 0.094 against 0.054 CPU s" in row
    assert module.current_rows(module.tables([(section, row)])) == [(section, row)]


def test_the_readme_quotes_its_ratios_from_the_benchmark_table() -> None:
    """Every ratio README.md's "How fast" quotes is a figure of benchmarks/README.md's
    tables, with the same range: the README copies, it never measures on its own."""
    root = HERE.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("## How fast", 1)[1].split("\n## ", 1)[0]
    quoted = re.findall(r"\*\*[\d.]+×\*\* \[[\d.]+–[\d.]+\]", section)
    assert len(quoted) >= 4
    tables = (HERE / "README.md").read_text(encoding="utf-8")
    for figure in quoted:
        assert figure in tables, f"README.md quotes {figure}, which benchmarks/README.md lacks"


def test_maexchen_rows_name_the_canonical_folder_as_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    module = table()
    found = {
        "what": "Mäxchen server against the canonical contest server, 4 bots: rounds/s",
        "ours": 900.0,
        "theirs": 1000.0,
        "unit": "rounds/s",
        "ratio": 0.9,
        "ratio_min": 0.8,
        "ratio_max": 1.23,
        "target": ">= 2",
    }
    seen: list[tuple[str, ...]] = []

    def fake(args: tuple[str, ...]) -> tuple[list[dict[str, object]], float]:
        seen.append(args)
        return [found], 2.0

    monkeypatch.setattr(module, "run", fake)
    [(section, row)] = module.maexchen_rows(Path("/somewhere/server"))
    assert seen[0][-2:] == ("--canonical", "/somewhere/server")
    assert section == module.OUTSIDE
    assert "**0.90×** [0.80–1.23] (target >= 2); 900.00 against 1,000.00 rounds/s" in row
    assert "bench_maexchen_canonical.py --pairs 4 --seconds 15 --canonical DIR`" in row
    with pytest.raises(SystemExit, match="needs --canonical"):
        module.maexchen_rows(None)
