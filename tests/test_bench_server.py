"""benchmarks/bench_server.py works: a tiny run against a real `bluffdice serve`, its
table and its timeline plot, and the timeline's arithmetic. (Its figures are the
benchmark's business; here only that it runs and counts right.)"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("httpx")

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_server.py"


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_server", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_timeline_cuts_the_measured_seconds_at_the_cpu_samples() -> None:
    timeline = bench().timeline
    samples = [(10.0, 5.0), (10.5, 5.5), (11.0, 5.75)]
    # when each move reached its last seat, and its latency (s); one before the first
    # sample and one after the last are outside every piece
    finished = [9.9, 10.1, 10.2, 10.3, 10.4, 10.6, 11.2]
    latencies = [0.5, 0.010, 0.020, 0.030, 0.040, 0.080, 0.5]
    points = timeline(samples, finished, latencies)
    assert [p["t"] for p in points] == [0.25, 0.75]
    assert [p["moves_per_s"] for p in points] == [8.0, 2.0]
    assert [p["loop_cpu_pct"] for p in points] == [100.0, 50.0]
    assert points[0]["p50_ms"] == pytest.approx(30.0)
    assert points[0]["p99_ms"] == pytest.approx(40.0)
    assert points[1]["p50_ms"] == points[1]["p99_ms"] == pytest.approx(80.0)


def test_a_tiny_run_prints_its_table_and_draws_its_timeline(tmp_path: Path) -> None:
    plot = tmp_path / "timeline.png"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--tables", "2", "--seconds", "2", "--repeat", "1"]
        + ["--plot", str(plot)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line.split() for line in done.stdout.splitlines()]
    rows = [w for w in lines if len(w) > 1 and w[0] in ("pure", "mypyc") and w[1].isdigit()]
    assert len(rows) == 1, done.stdout  # the server of this interpreter, either build
    tables, clients, moves_per_s = rows[0][1:4]
    assert (tables, clients) == ("2", "8")
    assert float(moves_per_s) > 0
    refused, lost = rows[0][-3:-1]
    assert (refused, lost) == ("0", "0")
    assert f"plot: {plot}" in done.stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_bad_plot_path_is_refused_before_any_load(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--plot", str(tmp_path / "missing" / "x.png")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode != 0
    assert "does not exist" in done.stderr
    assert "measuring" not in done.stderr
    assert done.stdout == ""
