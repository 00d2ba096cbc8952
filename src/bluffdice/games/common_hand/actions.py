"""Common hand (poker dice) actions, chance outcomes and events, with text forms.

Text forms (records, terminal, bot protocols): claims `pair A`, `two-pair K T`,
`three Q`, `straight A` (10 to ace; `straight K` is 9 to king), `full-house K T`,
`four J`, `five 9`; `liar` (challenge); `reroll 9 9 T` (the faces put back in the cup);
chance outcomes `dice 99JKA` (a fresh hand, or the rerolled dice) and `first 1`.
"""

from __future__ import annotations

import re
from typing import ClassVar

import msgspec

from bluffdice.games.base import (
    DiceDealt,
    DiceRevealed,
    Event,
)
from bluffdice.games.base import GameOver as GameOver
from bluffdice.games.base import RoundStarted as RoundStarted
from bluffdice.games.common_hand.hands import (
    CATEGORIES,
    CATEGORY_RANK,
    HandKey,
    describe_key,
    face_symbol,
    parse_face,
)


class Action(msgspec.Struct, frozen=True, tag=True):
    """Base of player actions."""

    word: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.word


class Claim(Action, frozen=True, tag="common-hand.claim"):
    """'My own five dice make at least this hand.' `high`/`low` are the named faces."""

    kind: str
    high: int
    low: int = 0

    @property
    def key(self) -> HandKey:
        return (CATEGORY_RANK[self.kind], self.high, self.low)

    def __str__(self) -> str:
        if self.low:
            return f"{self.kind} {face_symbol(self.high)} {face_symbol(self.low)}"
        return f"{self.kind} {face_symbol(self.high)}"

    def describe(self) -> str:
        return describe_key(self.key)


class Challenge(Action, frozen=True, tag="common-hand.liar"):
    """Call the last claim a bluff: the claimer's dice are shown."""

    word: ClassVar[str] = "liar"


class Reroll(Action, frozen=True, tag="common-hand.reroll"):
    """Put these dice of your own (faces, sorted) back in the cup and roll them again;
    then name a higher hand."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "reroll " + " ".join(face_symbol(d) for d in self.dice)


CommonHandAction = Claim | Challenge | Reroll


class Dice(msgspec.Struct, frozen=True, tag="common-hand.dice"):
    """Chance outcome: a fresh sorted hand, or the sorted faces of rerolled dice."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "dice " + "".join(face_symbol(d) for d in self.dice)


class FirstPlayer(msgspec.Struct, frozen=True, tag="common-hand.first"):
    """Chance outcome: the seat that opens the first round."""

    player: int

    def __str__(self) -> str:
        return f"first {self.player}"


CommonHandOutcome = Dice | FirstPlayer


def claim_of(key: HandKey) -> Claim:
    category, high, low = key
    return Claim(CATEGORIES[category], high, low)


_KIND_WORDS: dict[str, str] = {
    "pair": "pair",
    "two-pair": "two-pair",
    "two pair": "two-pair",
    "twopair": "two-pair",
    "2pair": "two-pair",
    "three": "three",
    "trips": "three",
    "three of a kind": "three",
    "straight": "straight",
    "full-house": "full-house",
    "full house": "full-house",
    "fullhouse": "full-house",
    "full": "full-house",
    "fh": "full-house",
    "four": "four",
    "four of a kind": "four",
    "quads": "four",
    "five": "five",
    "five of a kind": "five",
}
_KIND = re.compile(
    r"^(" + "|".join(sorted((re.escape(k) for k in _KIND_WORDS), key=len, reverse=True)) + r")\b"
)
_FILLER = {"of", "over", "and", "to", "high", "the"}


def parse_claim(text: str) -> Claim:
    """`pair A`, `a pair of aces`, `two pair K 10`, `full house kings over tens`,
    `straight A` (or `straight high`), `three 5` (faces 1..6 count up from the nine)."""
    word = " ".join(text.strip().lower().replace(",", " ").split())
    match = _KIND.match(word.removeprefix("a ").removeprefix("an "))
    if match is None:
        raise ValueError(
            f"{text.strip()!r} is not a hand: pair, two pair, three, straight, full house, "
            "four or five, with faces (e.g. pair A, full house K 10)"
        )
    body = word.removeprefix("a ").removeprefix("an ")
    kind = _KIND_WORDS[match.group(1)]
    rest = [w for w in body[match.end() :].split() if w not in _FILLER]
    if kind == "straight":
        if not rest and "high" in body:
            return Claim("straight", 6)
        if rest == ["low"]:
            return Claim("straight", 5)
        top = parse_face(rest[-1]) if rest else 0
        if top not in (5, 6):
            raise ValueError("a straight runs 9 to K (straight K, or low) or 10 to A (straight A)")
        return Claim("straight", top)
    need = 2 if kind in ("two-pair", "full-house") else 1
    if len(rest) != need:
        example = "two pair K 10" if kind == "two-pair" else "full house K 10"
        raise ValueError(
            f"{kind} names {need} face{'s' if need > 1 else ''}"
            + (f", e.g. {example}" if need == 2 else ", e.g. pair A")
        )
    faces = [parse_face(w) for w in rest]
    if kind == "two-pair":
        high, low = max(faces), min(faces)
        if high == low:
            raise ValueError("two pair names two different faces")
        return Claim(kind, high, low)
    if kind == "full-house":
        if faces[0] == faces[1]:
            raise ValueError("a full house names the three and the pair, two different faces")
        return Claim(kind, faces[0], faces[1])
    return Claim(kind, faces[0])


def parse_faces(text: str) -> tuple[int, ...]:
    """`9 9 T`, `99T` or `9 9 10` -> sorted faces."""
    words = text.replace(",", " ").split()
    if len(words) == 1 and "10" not in words[0] and len(words[0]) > 1:
        words = list(words[0])
    return tuple(sorted(parse_face(w) for w in words))


_WORDS: dict[str, CommonHandAction] = {
    "liar": Challenge(),
    "challenge": Challenge(),
    "bluff": Challenge(),
    "c": Challenge(),
    "l": Challenge(),
}


def parse_action(text: str) -> CommonHandAction | CommonHandOutcome:
    """Read the text form of an action or chance outcome; ValueError says what is accepted."""
    word = " ".join(text.strip().lower().split())
    if word in _WORDS:
        return _WORDS[word]
    head, _, rest = word.partition(" ")
    if head == "dice" and rest:
        return Dice(parse_faces(rest))
    if head == "reroll" and rest:
        return Reroll(parse_faces(rest))
    if head == "first" and rest.isdigit():
        return FirstPlayer(int(rest))
    try:
        return parse_claim(word)
    except ValueError as exc:
        raise ValueError(
            f"{text.strip()!r} is not a common-hand action ({exc}); or call 'liar', or "
            "'reroll' some of your dice (reroll 9 9 10)"
        ) from None


# Events. Public ones are seen by everyone; PrivateEvent subclasses only by their player.


class Rolled(Event, frozen=True, tag="common-hand.rolled"):
    """A player rolled `count` dice under the cup (a fresh hand, or a reroll)."""

    player: int
    count: int


class YourDice(DiceDealt, frozen=True, tag="common-hand.your_dice"):
    """The five dice under your own cup, after a roll or reroll: only you see this."""

    dice: tuple[int, ...]


class Claimed(Event, frozen=True, tag="common-hand.claimed"):
    player: int
    claim: Claim


class Challenged(Event, frozen=True, tag="common-hand.challenged"):
    player: int
    claimer: int
    claim: Claim


class Revealed(DiceRevealed, frozen=True, tag="common-hand.revealed"):
    """Both cups are lifted; `held` says whether the claimer's dice make the claim."""

    hands: tuple[tuple[int, ...], ...]
    claimer: int
    claim: Claim
    held: bool


class LifeLost(Event, frozen=True, tag="common-hand.life_lost"):
    player: int
    lives: int
    reason: str
