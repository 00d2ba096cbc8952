"""A fourth game that exists only in the tests: "high die".

Two players each get one hidden die; the first says `stay` or `swap` (swap cups with the
other player, unseen); the higher die wins, a tie is a draw. It is small on purpose: it
shows that a game registered from outside `bluffdice.games` runs at a table, in a
tournament and in a replay without touching any of that code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import msgspec

from bluffdice.games.base import (
    CHANCE,
    TERMINAL,
    DiceDealt,
    DiceRevealed,
    Event,
    GameOver,
    IllegalAction,
    Outcome,
    RoundStarted,
    Scoring,
    Step,
    TableState,
    places_from,
)
from bluffdice.games.registry import GameSpec, register, unregister
from bluffdice.games.rulestring import option


@dataclass(frozen=True)
class HighDieRules:
    game_name: ClassVar[str] = "high-die"
    faces: int = option(6, "faces of each die", minimum=2, maximum=20)

    def scoring(self) -> Scoring:
        return Scoring(left=None, count_losses=False)


class Stay(msgspec.Struct, frozen=True, tag="high-die.stay"):
    def __str__(self) -> str:
        return "stay"


class Swap(msgspec.Struct, frozen=True, tag="high-die.swap"):
    def __str__(self) -> str:
        return "swap"


class Deal(msgspec.Struct, frozen=True, tag="high-die.deal"):
    dice: tuple[int, int]

    def __str__(self) -> str:
        return f"deal {self.dice[0]} {self.dice[1]}"


class YourDie(DiceDealt, frozen=True, tag="high-die.your_die"):
    die: int


class Shown(DiceRevealed, frozen=True, tag="high-die.shown"):
    dice: tuple[int, int]


class Decided(Event, frozen=True, tag="high-die.decided"):
    choice: str


class HighDieView(msgspec.Struct, frozen=True, tag="high-die.view"):
    player: int | None
    state_id: int
    turn: int
    my_die: int | None
    legal_actions: tuple[Stay | Swap, ...]
    result: GameOver | None


class HighDieState(TableState, frozen=True):
    dice: tuple[int, ...] = ()
    result: GameOver | None = None

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase == "seat" else 0

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        if self.phase != "seat":
            return ()
        n = self.rules.faces
        p = Fraction(1, n * n)
        return [(Deal((a, b)), p) for a in range(1, n + 1) for b in range(1, n + 1)]

    def legal_actions(self) -> Sequence[Any]:
        return (Stay(), Swap()) if self.phase == "choose" else ()

    def apply(self, action: Any) -> Step:
        if self.phase == "seat":
            if not isinstance(action, Deal):
                raise IllegalAction("chance deals the dice first")
            events: tuple[Event, ...] = (
                RoundStarted(round=1, starter=0),
                YourDie(player=0, die=action.dice[0]),
                YourDie(player=1, die=action.dice[1]),
            )
            state = msgspec.structs.replace(
                self, phase="choose", dice=action.dice, round=1, moves=self.moves + 1
            )
            return Step(state, events)
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r} is not allowed now: stay or swap")
        dice = self.dice[::-1] if isinstance(action, Swap) else self.dice
        a, b = dice
        winners = (0,) if a > b else (1,) if b > a else ()
        losers = (1,) if a > b else (0,) if b > a else ()
        over = GameOver(winners=winners, losers=losers, standings=(*winners, *losers))
        state = msgspec.structs.replace(
            self, phase="over", dice=dice, result=over, moves=self.moves + 1
        )
        return Step(state, (Decided(choice=str(action)), Shown(dice=(a, b)), over))

    def view(self, player: int | None) -> HighDieView:
        mine = self.dice[player] if player is not None and self.dice else None
        return HighDieView(
            player=player,
            state_id=self.moves,
            turn=self.current_player,
            my_die=mine,
            legal_actions=tuple(self.legal_actions()) if player == 0 else (),
            result=self.result,
        )

    def returns(self) -> tuple[float, ...]:
        if self.result is None or not self.result.winners:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.result.winners == (0,) else (-1.0, 1.0)

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        keys = list(self.dice)
        return Outcome(
            winners=self.result.winners,
            losers=self.result.losers,
            standings=self.result.standings or (0, 1),
            places=places_from(keys),
            left=(0, 0),
            score=tuple(keys),
            eliminated=(),
            rounds=1,
        )

    def default_action(self) -> Any:
        return Stay()


def parse_action(text: str) -> Any:
    words = text.split()
    if words == ["stay"]:
        return Stay()
    if words == ["swap"]:
        return Swap()
    if len(words) == 3 and words[0] == "deal":
        return Deal((int(words[1]), int(words[2])))
    raise ValueError(f"{text!r} is not a high-die action: stay or swap")


def new_game(rules: HighDieRules, players: int) -> HighDieState:
    if players != 2:
        raise IllegalAction("high die is a two-player game")
    return HighDieState(rules=rules, players=2)


SPEC = GameSpec(
    name="high-die",
    title="High die",
    aliases=(),
    rules_cls=HighDieRules,
    presets={},
    preset_docs={},
    new_game=new_game,
    parse_action=parse_action,
    min_players=2,
    max_players=2,
    summary="a toy game for the tests",
    wire_types=(Stay, Swap, Deal, YourDie, Shown, Decided, HighDieView),
)


@contextmanager
def registered() -> Iterator[GameSpec]:
    """The toy game is known while the block runs, and forgotten after it."""
    register(SPEC)
    try:
        yield SPEC
    finally:
        unregister(SPEC.name)
