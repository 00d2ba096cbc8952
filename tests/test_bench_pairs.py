"""benchmarks/pairs.py, the pairing the two-sided benchmarks share: who goes first in
each pair, the ratio's median [min-max], and how the games are cut into pairs."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).resolve().parents[1] / "benchmarks"


def pairs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pairs", HERE / "pairs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sides_take_turns_going_first_and_results_stay_in_side_order() -> None:
    module = pairs()
    calls: list[str] = []

    def side(name: str) -> object:
        def run(index: int) -> str:
            calls.append(f"{name}{index}")
            return f"{name}{index}"

        return run

    results = module.interleaved(4, side("a"), side("b"))
    assert calls == ["a0", "b0", "b1", "a1", "a2", "b2", "b3", "a3"]
    assert results == [("a0", "b0"), ("a1", "b1"), ("a2", "b2"), ("a3", "b3")]


def test_spread_is_the_median_and_range_of_the_ratios() -> None:
    module = pairs()
    assert module.spread([1.6, 1.2, 3.0, 1.4]) == "1.50× [1.20-3.00]"
    assert module.spread([0.0512], digits=3, unit=" s") == "0.051 s [0.051-0.051]"
    with pytest.raises(ValueError):
        module.spread([])


def test_slices_cover_every_game_once_as_evenly_as_they_go() -> None:
    module = pairs()
    cut = module.slices(11, 3)
    assert [len(s) for s in cut] == [4, 4, 3]
    assert [i for s in cut for i in s] == list(range(11))
    with pytest.raises(ValueError):
        module.slices(2, 3)


def test_pairs_count_refuses_zero_and_words() -> None:
    module = pairs()
    assert module.count("3") == 3
    for bad in ("0", "-1", "two"):
        with pytest.raises(argparse.ArgumentTypeError):
            module.count(bad)


def test_bench_abuse_reads_each_pairs_p99s_within_the_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE))  # bench_abuse imports bench_server and pairs
    spec = importlib.util.spec_from_file_location("bench_abuse", HERE / "bench_abuse.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fast = [0.001] * 99 + [0.004]  # p99: the 100th of 100, 4 ms
    slow = [0.002] * 99 + [0.020]
    latencies = {
        "idle 1": fast,
        "abused 1": slow,
        "abused 2": fast,
        "idle 2": slow,
        "between": [9.0],
    }
    assert module.pair_p99s(latencies, 2) == [
        pytest.approx((4.0, 20.0)),
        pytest.approx((20.0, 4.0)),
    ]
