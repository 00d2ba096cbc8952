"""benchmarks/bench_server.py works: a tiny run against a real `bluffdice serve`, its
table and its timeline plot, a tiny run paired with the relay, the timeline's
arithmetic and the open-loop pacing. (Its figures are the benchmark's business; here
only that it runs and counts right.)"""

from __future__ import annotations

import importlib.util
import json
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


def script(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """The benchmark run as a reader runs it, its output captured."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


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
    done = script(
        *("--tables", "2", "--seconds", "2", "--repeat", "1", "--reference", "none"),
        *("--plot", str(plot)),
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
    done = script("--plot", str(tmp_path / "missing" / "x.png"), timeout=60)
    assert done.returncode != 0
    assert "does not exist" in done.stderr
    assert "measuring" not in done.stderr
    assert done.stdout == ""


def test_a_paced_run_pairs_the_server_with_the_relay_and_prints_both() -> None:
    done = script(
        *("--tables", "1", "--seconds", "2", "--repeat", "1", "--interval-ms", "50", "--json")
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line.split() for line in done.stdout.splitlines()]
    rows = {w[0]: w for w in lines if len(w) > 4 and w[1:4] == ["1", "4", "20"]}
    assert set(rows) in ({"pure", "relay"}, {"mypyc", "relay"}), done.stdout
    for row in rows.values():
        assert float(row[4]) > 0  # moves a second
        assert row[-3:-1] == ["0", "0"]  # refused, lost
    assert "server / relay" in done.stdout
    compared = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [c["metric"] for c in compared] == ["CPU/move", "p50", "p99", "moves/s"]
    assert all(c["pairs"] == 1 and c["ratio"] > 0 for c in compared)


def test_a_pair_whose_relay_measured_no_cpu_has_no_ratio() -> None:
    """In a short run the relay's CPU can stay under the kernel clock's tick: that pair
    drops out of the ratio instead of dividing by zero."""
    module = bench()
    keys = {key: 1.0 for key, _ in module.METRICS}
    rows = [
        {"server": "pure", "tables": 1, **keys},
        {"server": module.RELAY, "tables": 1, **keys, "server_ms_per_move": 0.0},
        {"server": "pure", "tables": 1, **keys, "server_ms_per_move": 3.0},
        {"server": module.RELAY, "tables": 1, **keys, "server_ms_per_move": 2.0},
    ]
    ratios = module.compared(rows, "pure", 1)
    assert ratios["server_ms_per_move"] == [1.5]
    assert ratios["p99_ms"] == [1.0, 1.0]
    assert module.spread([]) == "n/a (the reference measured 0)"


def test_the_relay_needs_a_paced_load() -> None:
    done = script("--interval-ms", "0", timeout=60)
    assert done.returncode != 0
    assert "--interval-ms" in done.stderr
    assert done.stdout == ""


def test_a_paced_table_sends_one_move_a_tick() -> None:
    module = bench()
    table = module.TableLoad("t", interval=0.25)
    sent: list[int] = []

    class Seat:
        def release(self, state_id: int, move: bytes) -> None:
            sent.append(state_id)

    seat = Seat()
    assert not table.due(seat, 1, b"m1")  # no tick yet: the move waits
    table.tick()
    assert sent == [1] and table.owed == 0
    table.tick()
    table.tick()  # two ticks without a prompt (a server behind): two moves owed
    assert table.due(seat, 2, b"m2") and table.due(seat, 3, b"m3")
    assert not table.due(seat, 4, b"m4")
    assert module.TableLoad("u").due(seat, 1, b"m")  # unpaced: at once


def test_the_readme_tables_keep_each_row_in_its_section() -> None:
    """table.py `--only` keeps the rows it does not rerun: reading its own tables back
    gives the same rows, each in the table it was in."""
    spec = importlib.util.spec_from_file_location("table", SCRIPT.parent / "table.py")
    assert spec is not None and spec.loader is not None
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    rows = [
        (table.OUTSIDE, "| server | **1.50×** [1.40–1.60] | relay | `x` | 2.0 |"),
        (table.OTHER, "| lean | iteration 308 | — | `y` | 2.0 |"),
    ]
    assert table.current_rows(table.tables(rows)) == rows
