"""A fourth game that exists only in the tests: "high die", added by the checklist alone.

Two players each get one hidden die; the first says `stay` or `swap` (swap cups with the
other player, unseen); the higher die wins, a tie is a draw. It is small on purpose: it
shows that a game registered from outside `bluffdice.games` runs at a table, in the
terminal, in a tournament, in the browser hall and in a review without touching any of
that code.

The checklist, as this module follows it (a real game splits the parts into one module
per layer: the rules under `games/`, the words under `narration/`, and so on):
1. the rules, state, actions and events, and `new_game`/`parse_action` (the game);
2. its words (`HighDieWords`), review rater (`HighDieRater`), terminal presenter
   (`HighDiePresenter`) and bots (`Keeper`, `Coin`), each where its layer wants it;
3. one `GameSpec` naming all of them by dotted path, and one `register(SPEC)`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import msgspec
from rich.markup import escape

from bluffdice.bots import Bot, register_bot
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
from bluffdice.narration import Line, Words, line
from bluffdice.review import Rater, Rating
from bluffdice.terminal.narration import render


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
    faces: int
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
            faces=self.rules.faces,
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


# --- the plug-ins: words, rater, presenter, bots -------------------------------------------


class HighDieWords(Words):
    """What happens at a high-die table, in words every front end shows."""

    def __init__(self, rules: HighDieRules) -> None:
        self.rules = rules

    def describe(self, event: Event, names: Sequence[str], viewer: int | None) -> Line | None:
        if isinstance(event, YourDie):
            return line(
                self.says(event.player, names, viewer, "look", "looks"), f" at a {event.die}."
            )
        if isinstance(event, Decided):
            return line(self.says(0, names, viewer, event.choice, event.choice + "s"), ".")
        if isinstance(event, Shown):
            return line(f"The cups are lifted: {event.dice[0]} against {event.dice[1]}.")
        return None


def stay_value(die: int, faces: int) -> float:
    """Seat 0's expected result (+1 a win, -1 a loss) of keeping `die`: the other die is
    lower (d - 1 ways) or higher (faces - d ways). Swapping gives the opposite."""
    return (2 * die - 1 - faces) / faces


class HighDieRater(Rater):
    """Rates the one decision of the game against its exact expected result."""

    def __init__(self, rules: HighDieRules, players: int) -> None:
        super().__init__(rules, players)
        self.models = {"exact": "the other die is uniform over its faces"}

    def rate(self, number: int, step: int, before: Any, seat: int, action: Any) -> Rating | None:
        if not isinstance(action, Stay | Swap):
            return None
        die = before.dice[seat]
        keep = stay_value(die, before.rules.faces)
        options = {"stay": round(-keep, 4), "swap": round(keep, 4)}
        best = min(options, key=lambda k: options[k])
        return Rating(
            number=number,
            step=step,
            round=1,
            kind="decision",
            situation=f"your die shows {die}",
            choice=str(action),
            knew=f"your die {die}",
            options=options,
            best=best,
            cost=round(options[str(action)] - options[best], 4),
            model="exact",
        )

    def truth(self, before: Any, rating: Rating, events: Sequence[Any]) -> None:
        for event in events:
            if isinstance(event, Shown):
                rating.truth = f"{event.dice[0]} against {event.dice[1]}"


class HighDiePresenter:
    """High die in the terminal."""

    game = "high-die"

    def __init__(self, rules: HighDieRules) -> None:
        self.rules = rules
        self.words = HighDieWords(rules)

    def table(self, view: Any, names: Sequence[str]) -> str:
        mine = f"your die: [bold]{view.my_die}[/]" if view.my_die is not None else "no die yet"
        return f"[bold]High die[/] (d{view.faces}) · {mine}"

    def event(self, event: Event, names: Sequence[str], viewer: int | None) -> str | None:
        return render(self.words.describe(event, names, viewer))

    def hint(self, view: Any) -> str:
        return "[bold]stay[/] or [bold]swap[/]" if view.legal_actions else "wait for your turn"

    def parse(self, text: str, view: Any) -> Any:
        action = parse_action(text.strip().lower())
        if isinstance(action, Deal):
            raise ValueError("the dealer deals the dice; type stay or swap")
        return action

    def reveal(self, state: Any, names: Sequence[str]) -> str | None:
        if not state.dice:
            return None
        return f"Cups: {state.dice[0]} and {state.dice[1]}"

    def truth(self, state: Any, action: Any) -> str | None:
        return None

    def round_break(self, events: Sequence[Event]) -> int | None:
        return len(events) if any(isinstance(e, GameOver) for e in events) else None

    def scoreline(self, view: Any, names: Sequence[str]) -> str:
        return "one round, one decision"

    def commands(self) -> str:
        return "stay: keep your die\nswap: take the other cup, unseen"

    def result(self, view: Any, names: Sequence[str]) -> str:
        winners = view.result.winners if view.result is not None else ()
        if not winners:
            return "[bold]A draw[/]"
        return f"[bold]Winner: {escape(names[winners[0]])}[/]"


@register_bot
class Keeper(Bot):
    """Keeps a die above the middle, swaps one below it: the best play."""

    name = "keeper"
    games = ("high-die",)
    description = "stays on a high die, swaps a low one"

    def act(self, view: Any) -> Any:
        return Stay() if 2 * view.my_die > view.faces else Swap()


@register_bot
class Coin(Bot):
    """Tosses a coin."""

    name = "coin"
    games = ("high-die",)
    description = "stays or swaps at random"

    def act(self, view: Any) -> Any:
        return self.rng.choice(view.legal_actions)


# --- the one registration ------------------------------------------------------------------

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
    narration="tests.toy_game:HighDieWords",
    rater="tests.toy_game:HighDieRater",
    presenter="tests.toy_game:HighDiePresenter",
    bots=("tests.toy_game",),
)


@contextmanager
def registered() -> Iterator[GameSpec]:
    """The toy game is known while the block runs, and forgotten after it."""
    register(SPEC)
    try:
        yield SPEC
    finally:
        unregister(SPEC.name)
