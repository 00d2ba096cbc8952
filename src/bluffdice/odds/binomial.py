"""Liar's Dice bids: how many dice among all cups show a face, exactly.

You see your own dice and nothing else. Each unknown die shows the bid's face with
chance p = 1/faces, or 2/faces when a face is wild (ones, usually) and the bid is on
another face (the wild die counts as the bid's face). `wild` names the wild face: 1 for
wild ones (the default), None for none; True and False mean 1 and None.

Your own matches are certain, so the count among all dice is your matches plus a
binomial count among the unknown dice:

    P(exactly q) = C(n, q - m) p^(q-m) (1 - p)^(n - q + m),   n unknown dice, m matches.

All chances are Fractions; `float()` them for display.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class CountOdds:
    """The chance that exactly / at least `quantity` dice of all show the face."""

    quantity: int
    p_exactly: Fraction
    p_at_least: Fraction


@dataclass(frozen=True)
class FaceOdds:
    """Everything about bids on one face, for `dice` dice in play of which you hold `own`."""

    face: int
    dice: int
    wild: int | None
    unknown: int
    own_matches: int
    p_die: Fraction
    counts: tuple[CountOdds, ...]
    """Quantities 0 .. dice, in order."""
    expected: Fraction
    best_bid: int
    """The largest quantity that holds with at least 50 % chance."""

    def p_at_least(self, quantity: int) -> Fraction:
        if quantity <= 0:
            return Fraction(1)
        if quantity > self.dice:
            return Fraction(0)
        return self.counts[quantity].p_at_least

    def p_exactly(self, quantity: int) -> Fraction:
        return self.counts[quantity].p_exactly if 0 <= quantity <= self.dice else Fraction(0)


Wild = int | bool | None
"""The wild face: 1 for wild ones, None for none (True and False: 1 and None)."""


def wild_face(wild: Wild, faces: int = 6) -> int | None:
    """Normalise `wild` to a face or None, refusing a face the die does not have."""
    if wild is None or wild is False:
        return None
    face = 1 if wild is True else wild
    _check_face(face, faces)
    return face


def die_probability(face: int, *, faces: int = 6, wild: Wild = 1) -> Fraction:
    """The chance that one unknown die counts for `face` (ones wild: 2/faces unless face 1)."""
    _check_face(face, faces)
    w = wild_face(wild, faces)
    return Fraction(2 if w is not None and face != w else 1, faces)


def matches(own: Iterable[int], face: int, *, faces: int = 6, wild: Wild = 1) -> int:
    """How many of your own dice count for `face`."""
    _check_face(face, faces)
    w = wild_face(wild, faces)
    count = 0
    for die in own:
        _check_die(die, faces)
        if die in (face, w):
            count += 1
    return count


def p_exactly(n: int, k: int, p: Fraction) -> Fraction:
    """Binomial: the chance that exactly k of n independent dice hit, each with chance p."""
    if n < 0:
        raise ValueError(f"a number of dice is 0 or more, not {n}")
    if not 0 <= k <= n:
        return Fraction(0)
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def p_at_least(n: int, k: int, p: Fraction) -> Fraction:
    """Binomial: the chance that k or more of n dice hit."""
    if k <= 0:
        return Fraction(1)
    return sum((p_exactly(n, x, p) for x in range(k, n + 1)), Fraction(0))


def face_odds(
    dice: int, face: int, *, own: Sequence[int] = (), faces: int = 6, wild: Wild = 1
) -> FaceOdds:
    """The count of `face` among all `dice` dice in play, yours (`own`) included."""
    _check_faces(faces)
    if dice < 1:
        raise ValueError(f"there must be at least one die in play, not {dice}")
    if len(own) > dice:
        raise ValueError(f"you hold {len(own)} dice but only {dice} are in play")
    m = matches(own, face, faces=faces, wild=wild)
    n = dice - len(own)
    p = die_probability(face, faces=faces, wild=wild)
    exact = [p_exactly(n, q - m, p) for q in range(dice + 1)]
    counts = []
    tail = Fraction(0)
    for q in range(dice, -1, -1):
        tail += exact[q]
        counts.append(CountOdds(q, exact[q], tail))
    counts.reverse()
    best = max(c.quantity for c in counts if c.p_at_least >= HALF)
    return FaceOdds(
        face=face,
        dice=dice,
        wild=wild_face(wild, faces),
        unknown=n,
        own_matches=m,
        p_die=p,
        counts=tuple(counts),
        expected=m + n * p,
        best_bid=best,
    )


def odds_table(
    dice: int, *, own: Sequence[int] = (), faces: int = 6, wild: Wild = 1
) -> list[FaceOdds]:
    """`face_odds` for every face, 1 to `faces`."""
    return [face_odds(dice, f, own=own, faces=faces, wild=wild) for f in range(1, faces + 1)]


def expected_count(
    dice: int, face: int, *, own: Sequence[int] = (), faces: int = 6, wild: Wild = 1
) -> Fraction:
    """Your matches plus the unknown dice times p."""
    return face_odds(dice, face, own=own, faces=faces, wild=wild).expected


def best_bid(
    dice: int, face: int, *, own: Sequence[int] = (), faces: int = 6, wild: Wild = 1
) -> int:
    """The largest quantity of `face` that holds with at least 50 % chance."""
    return face_odds(dice, face, own=own, faces=faces, wild=wild).best_bid


@dataclass(frozen=True)
class DiceRules:
    """What the odds need from a Liar's Dice rule set."""

    dice_per_player: int
    faces: int
    wild: int | None
    cups: tuple[int, ...] = ()
    """Unequal cups, one count per seat (`cups=3:2`); empty: `dice_per_player` each."""


_WILD_WORDS = {"ones": 1, "off": None}


def dice_rules(rules: object) -> DiceRules:
    """Read dice, faces and the wild face from a Liar's Dice rules object.

    Duck-typed on the fields `dice`, `faces`, `wild` ("ones", "off", "highest") and
    `cups` (if there), so the odds need not import the Liar's Dice engine.
    """
    dice = getattr(rules, "dice", None)
    faces = getattr(rules, "faces", 6)
    if not isinstance(dice, int) or not isinstance(faces, int):
        raise ValueError(f"{type(rules).__name__} has no dice to count: not Liar's Dice rules")
    wild = getattr(rules, "wild", "off")
    if wild == "highest":
        face: int | None = faces
    elif isinstance(wild, str):
        if wild not in _WILD_WORDS:
            raise ValueError(f"unknown wild face {wild!r} in {type(rules).__name__}")
        face = _WILD_WORDS[wild]
    else:
        face = wild_face(wild, faces)
    cups = tuple(getattr(rules, "cups", ()))
    return DiceRules(dice_per_player=dice, faces=faces, wild=face, cups=cups)


def parse_dice(text: str, faces: int = 6) -> tuple[int, ...]:
    """Read your dice as typed: `1,3,3,5,6`, `1 3 3 5 6` or `13356`."""
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and faces <= 9:
        parts = list(parts[0])
    try:
        dice = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a list of dice: type faces like 1,3,3,5,6 (1 to {faces})"
        ) from None
    for die in dice:
        _check_die(die, faces)
    return dice


def _check_faces(faces: int) -> None:
    if faces < 2:
        raise ValueError(f"a die has at least 2 faces, not {faces}")


def _check_face(face: int, faces: int) -> None:
    _check_faces(faces)
    if not 1 <= face <= faces:
        raise ValueError(f"a face of a {faces}-sided die is 1 to {faces}, not {face}")


def _check_die(die: int, faces: int) -> None:
    if not 1 <= die <= faces:
        raise ValueError(f"a {faces}-sided die shows 1 to {faces}, not {die}")
