"""Liar's Dice (single hand) actions, chance outcomes and events, with text forms.

Text forms, used by records, the terminal and bot protocols: bids `3x5` (also `3 fives`,
`3 5`, `bid 3 5`), `liar` (also `challenge`, `dudo`), `calza` (also `exact`); chance
outcomes `dice 13356` (the sorted hand of the player whose cup is being rolled) and
`first 2` (the seat that starts the game).
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
from bluffdice.games.base import Eliminated as Eliminated
from bluffdice.games.base import GameOver as GameOver
from bluffdice.games.base import (
    RoundStarted as SharedRoundStarted,
)

FACE_WORDS: dict[str, int] = {
    "one": 1,
    "ones": 1,
    "ace": 1,
    "aces": 1,
    "two": 2,
    "twos": 2,
    "deuce": 2,
    "deuces": 2,
    "three": 3,
    "threes": 3,
    "trey": 3,
    "treys": 3,
    "four": 4,
    "fours": 4,
    "five": 5,
    "fives": 5,
    "six": 6,
    "sixes": 6,
    "seven": 7,
    "sevens": 7,
    "eight": 8,
    "eights": 8,
    "nine": 9,
    "nines": 9,
}

_PLURAL = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}
_PLURAL.update({7: "sevens", 8: "eights", 9: "nines"})


def face_plural(face: int) -> str:
    """`fives` for 5: how a bid names its face in prose."""
    return _PLURAL.get(face, f"{face}s")


class Action(msgspec.Struct, frozen=True, tag=True):
    """Base of player actions."""

    word: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.word


class Bid(Action, frozen=True, tag="liars-dice.bid"):
    """'At least `quantity` dice among all cups show `face`' (wild dice counted)."""

    quantity: int
    face: int

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}"

    def describe(self) -> str:
        return f"{self.quantity} {face_plural(self.face)}"


class Challenge(Action, frozen=True, tag="liars-dice.liar"):
    """Call the last bid a lie ('Dudo!'): all cups are lifted and the dice counted."""

    word: ClassVar[str] = "liar"


class Calza(Action, frozen=True, tag="liars-dice.calza"):
    """Claim the last bid is exactly right (calza option): win a die back if so."""

    word: ClassVar[str] = "calza"


LiarsDiceAction = Bid | Challenge | Calza


class Dice(msgspec.Struct, frozen=True, tag="liars-dice.dice"):
    """Chance outcome: the sorted hand rolled into the cup of the player now rolling."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "dice " + "".join(str(d) for d in self.dice)


class FirstPlayer(msgspec.Struct, frozen=True, tag="liars-dice.first"):
    """Chance outcome: the seat that starts the game."""

    player: int

    def __str__(self) -> str:
        return f"first {self.player}"


LiarsDiceOutcome = Dice | FirstPlayer

_WORDS: dict[str, LiarsDiceAction] = {
    "liar": Challenge(),
    "challenge": Challenge(),
    "dudo": Challenge(),
    "doubt": Challenge(),
    "c": Challenge(),
    "l": Challenge(),
    "calza": Calza(),
    "exact": Calza(),
    "spot-on": Calza(),
    "spot on": Calza(),
}

_BID = re.compile(r"^(?:bid\s+)?(\d+)\s*(?:[x×*]\s*|\s+)(\d+|[a-z]+)$")


def parse_bid(text: str) -> Bid:
    """`3x5`, `3 x 5`, `3 5`, `3 fives`, `bid 3 5` -> Bid(3, 5); ValueError otherwise."""
    word = " ".join(text.strip().lower().split())
    match = _BID.match(word)
    if match is None:
        raise ValueError(f"{text.strip()!r} is not a bid: write quantity and face, e.g. 3x5")
    quantity, face_text = int(match.group(1)), match.group(2)
    face = int(face_text) if face_text.isdigit() else FACE_WORDS.get(face_text)
    if face is None:
        raise ValueError(f"{face_text!r} is not a face: write 1 to 9 or ones .. nines")
    return Bid(quantity, face)


def parse_action(text: str) -> LiarsDiceAction | LiarsDiceOutcome:
    """Read the text form of an action or chance outcome; ValueError says what is accepted."""
    word = " ".join(text.strip().lower().split())
    if word in _WORDS:
        return _WORDS[word]
    head, _, rest = word.partition(" ")
    if head == "dice" and rest:
        digits = rest.replace(" ", "")
        if not digits.isdigit():
            raise ValueError(f"{text.strip()!r}: a roll is written as digits, e.g. dice 13356")
        return Dice(tuple(sorted(int(d) for d in digits)))
    if head == "first" and rest.isdigit():
        return FirstPlayer(int(rest))
    try:
        return parse_bid(word)
    except ValueError:
        raise ValueError(
            f"{text.strip()!r} is not a Liar's Dice action: bid quantity and face "
            "(3x5, 3 fives, 3 5), or call 'liar' (challenge) or 'calza'"
        ) from None


# Events. Public ones are seen by everyone; PrivateEvent subclasses only by their player.


class RoundStarted(SharedRoundStarted, frozen=True, tag="liars-dice.round_started"):
    dice: tuple[int, ...]
    palifico: bool = False


class Rolled(Event, frozen=True, tag="liars-dice.rolled"):
    """A player shook their cup (the dice stay hidden)."""

    player: int
    count: int


class YourDice(DiceDealt, frozen=True, tag="liars-dice.your_dice"):
    """The dice under your own cup: only their owner sees this event."""

    dice: tuple[int, ...]


class BidMade(Event, frozen=True, tag="liars-dice.bid_made"):
    player: int
    quantity: int
    face: int


class Challenged(Event, frozen=True, tag="liars-dice.challenged"):
    player: int
    bidder: int
    quantity: int
    face: int


class CalzaCalled(Event, frozen=True, tag="liars-dice.calza_called"):
    player: int
    bidder: int
    quantity: int
    face: int


class Revealed(DiceRevealed, frozen=True, tag="liars-dice.revealed", gc=False):
    """Every cup is lifted: `hands[p]` is player p's dice (empty if out). One per round,
    never in a reference cycle: untracked by the garbage collector."""

    hands: tuple[tuple[int, ...], ...]
    quantity: int
    face: int
    count: int
    wild: int


class DiceChanged(Event, frozen=True, tag="liars-dice.dice_changed"):
    """A player lost a die (`change` -1) or won one back with a calza (+1, or 0 if full)."""

    player: int
    change: int
    dice: int
    reason: str
