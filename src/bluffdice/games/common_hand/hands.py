"""Poker-dice hands: faces, the ranking of five dice, and the ladder of claims.

Faces are numbered 1 to 6 inside the engine and shown as the poker-dice faces
9, 10, J, Q, K, A (written `9 T J Q K A` in records). A claim names a hand without
kickers ("a pair of aces", "full house kings over tens"); the dice *make* a claim when
their hand ranks at least as high, comparing category first and then the named faces.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

FACES = range(1, 7)
SYMBOLS = ("9", "T", "J", "Q", "K", "A")
"""Record symbols of faces 1..6."""
NAMES = ("9", "10", "J", "Q", "K", "A")
"""How faces 1..6 are shown to people."""
_PLURALS = ("nines", "tens", "jacks", "queens", "kings", "aces")

_SYMBOL_TO_FACE: dict[str, int] = {
    **{s.lower(): i + 1 for i, s in enumerate(SYMBOLS)},
    **{p: i + 1 for i, p in enumerate(_PLURALS)},
    **{p[:-1]: i + 1 for i, p in enumerate(_PLURALS)},
    "10": 2,
    "jack": 3,
    "queen": 4,
    "king": 5,
    "ace": 6,
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
}
# "1".."6" count up from the nine; "9" and "10" are the poker faces themselves.
_SYMBOL_TO_FACE["9"] = 1

CATEGORIES = ("nothing", "pair", "two-pair", "three", "straight", "full-house", "four", "five")
"""Hand categories, worst first; a category's index is its rank."""
CATEGORY_RANK = {name: i for i, name in enumerate(CATEGORIES)}

HandKey = tuple[int, int, int]


def face_name(face: int) -> str:
    return NAMES[face - 1]


def face_plural(face: int) -> str:
    return _PLURALS[face - 1]


def face_symbol(face: int) -> str:
    return SYMBOLS[face - 1]


def parse_face(text: str) -> int:
    """`A`, `ace`, `aces`, `10`, `T`, `9`, or 1..6 counted up from the nine."""
    face = _SYMBOL_TO_FACE.get(text.strip().lower())
    if face is None:
        raise ValueError(f"{text!r} is not a poker-dice face: 9, 10 (T), J, Q, K or A")
    return face


def hand_text(hand: tuple[int, ...]) -> str:
    """`9 9 J K A`, the way people read the dice."""
    return " ".join(face_name(d) for d in hand)


@lru_cache(maxsize=1024)
def hand_key(hand: tuple[int, ...], straights: bool = True) -> HandKey:
    """(category rank, first named face, second named face) of five dice."""
    counts = Counter(hand)
    by_count = sorted(counts.items(), key=lambda fc: (fc[1], fc[0]), reverse=True)
    (top, n1) = by_count[0]
    n2 = by_count[1][1] if len(by_count) > 1 else 0
    if n1 == 5:
        return (CATEGORY_RANK["five"], top, 0)
    if n1 == 4:
        return (CATEGORY_RANK["four"], top, 0)
    if n1 == 3 and n2 == 2:
        return (CATEGORY_RANK["full-house"], top, by_count[1][0])
    if n1 == 1 and straights and max(hand) - min(hand) == 4:
        return (CATEGORY_RANK["straight"], max(hand), 0)
    if n1 == 3:
        return (CATEGORY_RANK["three"], top, 0)
    if n1 == 2 and n2 == 2:
        return (CATEGORY_RANK["two-pair"], top, by_count[1][0])
    if n1 == 2:
        return (CATEGORY_RANK["pair"], top, 0)
    return (CATEGORY_RANK["nothing"], max(hand), 0)


def describe_key(key: HandKey) -> str:
    """A hand or claim in words: `full house kings over tens`."""
    category, high, low = key
    name = CATEGORIES[category]
    if name == "nothing":
        return "nothing"
    if name == "pair":
        return f"a pair of {face_plural(high)}"
    if name == "two-pair":
        return f"two pair, {face_plural(high)} and {face_plural(low)}"
    if name == "three":
        return f"three {face_plural(high)}"
    if name == "straight":
        return f"a straight {face_name(high - 4)} to {face_name(high)}"
    if name == "full-house":
        return f"full house, {face_plural(high)} over {face_plural(low)}"
    if name == "four":
        return f"four {face_plural(high)}"
    return f"five {face_plural(high)}"


@lru_cache(maxsize=4)
def claim_keys(straights: bool) -> tuple[HandKey, ...]:
    """Every hand that may be claimed, lowest first (a claim of nothing says nothing)."""
    keys: list[HandKey] = []
    rank = CATEGORY_RANK
    keys += [(rank["pair"], f, 0) for f in FACES]
    keys += [(rank["two-pair"], hi, lo) for hi in FACES for lo in FACES if lo < hi]
    keys += [(rank["three"], f, 0) for f in FACES]
    if straights:
        keys += [(rank["straight"], 5, 0), (rank["straight"], 6, 0)]
    keys += [(rank["full-house"], t, p) for t in FACES for p in FACES if p != t]
    keys += [(rank["four"], f, 0) for f in FACES]
    keys += [(rank["five"], f, 0) for f in FACES]
    return tuple(sorted(keys))
