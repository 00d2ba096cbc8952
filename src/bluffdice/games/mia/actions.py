"""Mia actions, chance outcomes and events: small frozen values that encode to JSON.

Every action and outcome also has a short text form (`str(action)`, `parse_action`),
used by game records, the terminal and the bot protocols: `roll`, `look`, `53`,
`pass 65`, `challenge`, `give-up`, `beat`, `cheers`; outcomes `dice 43`, `first 2`.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from bluffdice.games.base import (
    DiceDealt,
    DiceRevealed,
    Event,
)
from bluffdice.games.base import Eliminated as Eliminated
from bluffdice.games.base import GameOver as GameOver
from bluffdice.games.base import RoundStarted as RoundStarted
from bluffdice.games.mia.values import parse_value, value_of


class Action(msgspec.Struct, frozen=True, tag=True, gc=False):
    """Base of player actions."""

    word: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.word


class Roll(Action, frozen=True, tag="mia.roll"):
    """Open a round by rolling, or believe the last announcement and roll again."""

    word: ClassVar[str] = "roll"


class Look(Action, frozen=True, tag="mia.look"):
    """Look at the dice you just rolled."""

    word: ClassVar[str] = "look"


class Announce(Action, frozen=True, tag="mia.announce"):
    """Announce a value for the dice under your cup (true or not)."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


class Pass(Action, frozen=True, tag="mia.pass"):
    """Hand the cup on without rolling or looking, announcing the same or a higher value."""

    value: int

    def __str__(self) -> str:
        return f"pass {self.value}"


class Challenge(Action, frozen=True, tag="mia.challenge"):
    """Lift the cup: call the last announcement a lie (after Mia: look)."""

    word: ClassVar[str] = "challenge"


class GiveUp(Action, frozen=True, tag="mia.give-up"):
    """After a Mia announcement: lose one life without looking."""

    word: ClassVar[str] = "give-up"


class BeatMia(Action, frozen=True, tag="mia.beat"):
    """After a Mia announcement (beat_mia option): roll openly, trying for a 21."""

    word: ClassVar[str] = "beat"


class Cheers(Action, frozen=True, tag="mia.cheers"):
    """Show a 32 you looked at (joker32 option): the round starts again, no penalty."""

    word: ClassVar[str] = "cheers"


MiaAction = Roll | Look | Announce | Pass | Challenge | GiveUp | BeatMia | Cheers


class Dice(msgspec.Struct, frozen=True, tag="mia.dice", gc=False):
    """Chance outcome: the dice of a roll, as a value (53 is a 5 and a 3)."""

    value: int

    def __str__(self) -> str:
        return f"dice {self.value}"


class FirstPlayer(msgspec.Struct, frozen=True, tag="mia.first", gc=False):
    """Chance outcome: the seat that starts the game."""

    player: int

    def __str__(self) -> str:
        return f"first {self.player}"


MiaOutcome = Dice | FirstPlayer

_WORDS: dict[str, MiaAction] = {
    "roll": Roll(),
    "believe": Roll(),
    "r": Roll(),
    "look": Look(),
    "l": Look(),
    "challenge": Challenge(),
    "liar": Challenge(),
    "c": Challenge(),
    "give-up": GiveUp(),
    "giveup": GiveUp(),
    "give up": GiveUp(),
    "beat": BeatMia(),
    "cheers": Cheers(),
    "skal": Cheers(),
}


def parse_action(text: str) -> MiaAction | MiaOutcome:
    """Read the text form of an action or chance outcome; ValueError says what is accepted."""
    word = " ".join(text.strip().lower().split())
    if word in _WORDS:
        return _WORDS[word]
    head, _, rest = word.partition(" ")
    if head in ("pass", "p") and rest:
        return Pass(parse_value(rest))
    if head in ("announce", "a") and rest:
        return Announce(parse_value(rest))
    if head == "dice" and rest:
        return Dice(parse_value(rest))
    if head == "first" and rest.isdigit():
        return FirstPlayer(int(rest))
    try:
        return Announce(parse_value(word))
    except ValueError:
        raise ValueError(
            f"{text.strip()!r} is not a Mia action: type a value (54, 5 4, mia), "
            "'pass 65', 'roll', 'look', 'challenge' (or 'liar'), 'give-up', 'beat' or 'cheers'"
        ) from None


def dice_outcome(die1: int, die2: int) -> Dice:
    return Dice(value_of(die1, die2))


# Events. Public ones are seen by everyone; PrivateEvent subclasses only by their player.


class GameStarted(Event, frozen=True, tag="mia.game_started"):
    players: int
    rules: str


class Rolled(Event, frozen=True, tag="mia.rolled"):
    """A player rolled (the dice stay hidden)."""

    player: int


class Looked(DiceDealt, frozen=True, tag="mia.looked"):
    """The roller looked at the dice: only they see this event."""

    value: int


class Announced(Event, frozen=True, tag="mia.announced"):
    player: int
    value: int


class Passed(Event, frozen=True, tag="mia.passed"):
    player: int
    value: int


class Challenged(Event, frozen=True, tag="mia.challenged"):
    player: int
    announcer: int
    announced: int


class GaveUp(Event, frozen=True, tag="mia.gave_up"):
    player: int


class Revealed(DiceRevealed, frozen=True, tag="mia.revealed"):
    """The dice under the cup are shown to everyone."""

    value: int
    announced: int | None
    truthful: bool | None


class MiaAttempt(DiceRevealed, frozen=True, tag="mia.mia_attempt"):
    """An open roll against a Mia announcement (beat_mia option)."""

    player: int
    value: int


class CheersShown(Event, frozen=True, tag="mia.cheers_shown"):
    player: int


class Penalty(Event, frozen=True, tag="mia.penalty"):
    """A player lost `amount` lives (sips in drinking mode; a stiff drink if `stiff`)."""

    player: int
    amount: int
    reason: str
    stiff: bool = False
