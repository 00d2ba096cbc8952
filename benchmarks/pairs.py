"""Interleaved pairs for the benchmarks that compare two sides.

A benchmark that times its side and then the reference, each once, reads the machine's
drift between the two as a difference between them. Pairs instead: each pair runs both
sides back to back, taking turns which goes first, and the ratio is read per pair; the
benchmark prints every pair's figures and the ratios' median [min-max], so the spread
shows how far one run can be trusted.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Sequence
from typing import TypeVar

A = TypeVar("A")
B = TypeVar("B")


def one_pair(index: int, first: Callable[[int], A], second: Callable[[int], B]) -> tuple[A, B]:
    """Pair number `index` of both sides, as (first's result, second's result): an even
    pair runs `first` first, an odd pair runs `second` first."""
    if index % 2:
        b = second(index)
        return first(index), b
    a = first(index)
    return a, second(index)


def interleaved(
    pairs: int, first: Callable[[int], A], second: Callable[[int], B]
) -> list[tuple[A, B]]:
    """Pairs `0..pairs-1` of both sides (see `one_pair`), taking turns which goes first."""
    return [one_pair(index, first, second) for index in range(pairs)]


def spread(ratios: Sequence[float], digits: int = 2, unit: str = "×") -> str:
    """`median [min-max]` of the pairs' ratios, e.g. `1.52× [1.40-1.61]`."""
    if not ratios:
        raise ValueError("no pairs to summarise")
    mid, low, high = statistics.median(ratios), min(ratios), max(ratios)
    return f"{mid:.{digits}f}{unit} [{low:.{digits}f}-{high:.{digits}f}]"


def count(text: str) -> int:
    """argparse type for `--pairs`: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def slices(total: int, pairs: int) -> list[range]:
    """`range(total)` cut into `pairs` consecutive slices as even as they go (the first
    ones one longer), so each pair plays its own games and all pairs play `total`."""
    if total < pairs:
        raise ValueError(f"{total} games cannot make {pairs} pairs")
    size, extra = divmod(total, pairs)
    out: list[range] = []
    start = 0
    for pair in range(pairs):
        end = start + size + (1 if pair < extra else 0)
        out.append(range(start, end))
        start = end
    return out
