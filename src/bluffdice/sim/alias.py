"""Walker's alias tables: sample from a fixed distribution with one uniform number.

The uniform numbers come from `random_words`, 32-bit words cut from the bit generator's
64-bit outputs.

For a row of `k` probabilities the table holds, per column `j`, a threshold and an
alias: draw `x` uniform in [0, k), take column `j = floor(x)`, and answer `j` if the
fraction `x - j` is below the threshold, else the alias. Building costs O(k) per row once;
sampling is a constant number of array operations however wide the rows are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

_BUILT: dict[bytes, tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]] = {}
_BUILT_MAX = 64


def alias_tables(
    rows: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """Threshold and alias arrays (both shaped like `rows`) for each row of `rows`.

    Rows need not be normalised; a row of zeros (a situation that never arises) gets a
    uniform table, so sampling it is harmless.
    """
    rows = np.asarray(rows, dtype=np.float64)
    count, k = rows.shape
    # Tables repeat rows (every situation where a bot does the same thing): build each
    # distinct row once, the same way, and hand it to all its copies.
    distinct, copies = np.unique(rows, axis=0, return_inverse=True)
    if distinct.shape[0] < count:
        prob_d, alias_d = alias_tables(distinct)
        back = copies.reshape(-1)
        return prob_d[back], alias_d[back]
    prob = np.ones((count, k), dtype=np.float32)
    alias = np.tile(np.arange(k, dtype=np.int64), (count, 1))
    totals = rows.sum(axis=1)
    for i in range(count):
        if totals[i] <= 0:
            continue
        scaled = rows[i] * (k / totals[i])
        small = [j for j in range(k) if scaled[j] < 1.0]
        large = [j for j in range(k) if scaled[j] >= 1.0]
        while small and large:
            s, g = small.pop(), large.pop()
            prob[i, s] = scaled[s]
            alias[i, s] = g
            scaled[g] -= 1.0 - scaled[s]
            (small if scaled[g] < 1.0 else large).append(g)
        for j in small + large:  # rounding leftovers: keep themselves
            prob[i, j] = 1.0
            alias[i, j] = j
    # A zero-probability column must never answer itself: rounding may leave its
    # threshold a hair above 0, so clear it.
    prob[(rows <= 0) & (alias != np.arange(k))] = 0.0
    return prob, alias


def stacked_alias_tables(
    parts: Sequence[npt.NDArray[np.float64]],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """`alias_tables` of the parts' rows stacked in order, each part built once per
    process: building loops over rows in Python (about 0.1 s for a Mia table), and a
    match builds both seatings of every pair, so the same seat tables come back again and
    again. Parts are recognised by their contents, so a changed table is built anew."""
    probs, aliases = [], []
    for part in parts:
        rows = np.ascontiguousarray(part, dtype=np.float64)
        key = hashlib.blake2b(rows.tobytes(), digest_size=16).digest() + repr(rows.shape).encode()
        if key not in _BUILT:
            if len(_BUILT) >= _BUILT_MAX:
                _BUILT.clear()
            _BUILT[key] = alias_tables(rows)
        prob, alias = _BUILT[key]
        probs.append(prob)
        aliases.append(alias)
    return np.concatenate(probs), np.concatenate(aliases)


def random_words(rng: np.random.Generator, size: int) -> npt.NDArray[np.uint32]:
    """`size` uniform 32-bit words, two from each 64-bit output of the bit generator:
    a float32 from `rng.random` costs a whole output, so this halves the generator's
    work, which was the largest single cost of a simulator step."""
    raw: npt.NDArray[np.uint64] = rng.bit_generator.random_raw((size + 1) // 2)
    return raw.view(np.uint32)[:size]


def below(words: npt.NDArray[np.uint32], k: int) -> npt.NDArray[np.int64]:
    """floor(word * k / 2**32) for each word: uniform on range(k) within k / 2**32 (numpy's
    bounded integers reject and redraw, which costs several times more)."""
    x = words.astype(np.uint64)
    x *= np.uint64(k)
    x >>= np.uint64(32)
    return x.view(np.int64)
