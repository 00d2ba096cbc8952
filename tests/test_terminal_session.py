"""The game-agnostic terminal session: authority over moves, hidden information, endings."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from rich.console import Console, RenderableType

from bluffdice.bots import Bot, available_bots, register_bot
from bluffdice.games import parse_rules, visible_to
from bluffdice.games.base import Event, GameState
from bluffdice.games.mia import Announce, MiaView
from bluffdice.table import Table, seeded
from bluffdice.terminal import presenter_for
from bluffdice.terminal.mia import MiaPresenter
from bluffdice.terminal.session import (
    EXIT_BOT_ERROR,
    EXIT_EOF,
    EXIT_INTERRUPT,
    Seat,
    Session,
    default_mix,
    make_seats,
    pick_opponents,
)

MOVES = ["roll", "mia", "challenge"]


def session(
    rules: str,
    seats: list[Seat],
    read: Callable[[str], str],
    presenter: Any = None,
    seed: int = 1,
) -> tuple[Session, io.StringIO, io.StringIO]:
    chosen = parse_rules(rules)
    stdout, stderr = io.StringIO(), io.StringIO()
    made = Session(
        table=Table(chosen, len(seats), dice=seeded(seed), names=[s.name for s in seats]),
        presenter=presenter or presenter_for(chosen),
        seats=seats,
        console=Console(file=stdout, width=120),
        errors=Console(file=stderr, width=120),
        read=read,
    )
    return made, stdout, stderr


def cycling_reader(script: Sequence[str]) -> Callable[[str], str]:
    moves = iter(list(script) + MOVES * 300)

    def read(prompt: str) -> str:
        return next(moves)

    return read


def test_a_refused_move_changes_nothing_and_the_person_is_asked_again() -> None:
    seen: list[tuple[int, str]] = []
    script = iter(["give-up", "54", "pass 11"] + MOVES * 300)
    table: list[Session] = []

    def read(prompt: str) -> str:
        text = next(script)
        seen.append((len(table[0].table.record.steps), text))
        return text

    seats = make_seats("mia", ["honest"], "Ada", seed=3)
    made, out, _ = session("mia(lives=1)", seats, read)
    table.append(made)
    assert made.run() == 0
    # The person opens round 1 (seed 3): three refusals, then `roll` is read at the same
    # point of the game and taken.
    assert seen[:4] == [(1, "give-up"), (1, "54"), (1, "pass 11"), (1, "roll")]
    assert seen[4][0] > 1
    text = out.getvalue()
    for reason in (
        "giving up is only the answer to a Mia announcement",
        "roll the dice first, then announce",
        "pass 11 is not allowed now; allowed: roll",
    ):
        assert f"Not allowed: {reason}" in text


class SpyPresenter(MiaPresenter):
    """Records every event and view the session hands to the presenter."""

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self.events: list[tuple[Event, int | None]] = []
        self.views: list[MiaView] = []

    def event(self, event: Event, names: Sequence[str], viewer: int | None) -> str | None:
        self.events.append((event, viewer))
        return super().event(event, names, viewer)

    def table(self, view: Any, names: Sequence[str]) -> RenderableType:
        self.views.append(view)
        return super().table(view, names)

    def hint(self, view: Any) -> str:
        self.views.append(view)
        return super().hint(view)

    def reveal(self, state: GameState, names: Sequence[str]) -> str | None:
        raise AssertionError("the hidden dice were about to be shown to a player")


def test_the_person_only_ever_sees_their_own_view_and_events() -> None:
    rules = parse_rules("mia(lives=2)")
    spy = SpyPresenter(rules)
    seats = make_seats("mia", ["honest", "bluffer", "liar"], "Ada", seed=9)
    made, _, _ = session("mia(lives=2)", seats, cycling_reader(["look"]), presenter=spy)
    assert made.run() == 0
    assert spy.views and all(v.player == 0 for v in spy.views)
    assert spy.events and all(viewer == 0 and visible_to(e, 0) for e, viewer in spy.events)
    # Bots' private looks happened, yet none reached the person's commentary.
    assert all(getattr(e, "player", 0) == 0 for e, _ in spy.events if type(e).__name__ == "Looked")


def test_watch_shows_the_cup_at_each_round_end_before_the_next_round_starts() -> None:
    seats = make_seats("mia", ["honest", "bluffer"], None, seed=2)

    def no_input(prompt: str) -> str:
        raise AssertionError("a bots-only game must not read input")

    made, out, _ = session("mia(lives=1)", seats, no_input)
    assert made.run() == 0
    text = out.getvalue()
    cup = text.index("Cup:")
    assert text.index("loses 1 life") < cup  # after the penalty of the round ...
    assert "Winner:" in text[cup:]  # ... and before the result


class IllegalBot(Bot):
    name = "illegal"

    def act(self, view: Any) -> Any:
        return Announce(21) if view.phase == "open" else view.legal_actions[0]


def test_a_bot_that_breaks_the_rules_stops_the_game_with_a_clear_error() -> None:
    seats = [Seat("Bad", IllegalBot()), Seat("Good", IllegalBot())]
    made, _, err = session("classic", seats, cycling_reader([]))
    assert made.run() == EXIT_BOT_ERROR
    assert "Bad (bot illegal) made an illegal move 21: roll the dice first" in err.getvalue()


def test_end_of_input_and_interrupts_end_without_a_traceback() -> None:
    def eof(prompt: str) -> str:
        raise EOFError

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    for read, code, message in (
        (eof, EXIT_EOF, "Input ended"),
        (interrupt, EXIT_INTERRUPT, "Interrupted"),
    ):
        made, _, err = session("classic", make_seats("mia", ["honest"], "Ada", 1), read)
        assert made.run() == code
        assert message in err.getvalue()


def test_help_hint_and_table_are_commands_not_moves() -> None:
    script = ["help", "hint", "table", "", "quit"]
    made, out, _ = session(
        "classic", make_seats("mia", ["honest"], "Ada", 1), cycling_reader(script)
    )
    assert made.run() == 0
    text = out.getvalue()
    assert "Other commands" in text and "challenge, liar, c" in text
    assert text.count("Player") >= 2  # the table was drawn again on request
    assert "You left the table" in text
    assert len(made.table.record.steps) < 10  # nothing but the opening was played


def test_opponents_fill_the_seats_from_the_wanted_list_or_the_registry() -> None:
    rng = random.Random(0)
    assert pick_opponents("mia", 5, ["honest", "liar"], rng) == [
        "honest",
        "liar",
        "honest",
        "liar",
        "honest",
    ]
    with pytest.raises(ValueError, match="3 opponents named for 2 bot seats"):
        pick_opponents("mia", 2, ["a", "b", "c"], rng)
    mix = default_mix("mia")
    assert set(mix) <= set(available_bots("mia"))
    picked = pick_opponents("mia", 2 * len(mix), [], rng)
    assert sorted(picked) == sorted(mix * 2)


def test_baselines_and_opted_out_bots_stay_out_of_the_default_mix() -> None:
    @register_bot
    class Shy(Bot):
        name = "shy"
        games = ("test-only-game",)
        in_default_mix = False

    @register_bot
    class Keen(Bot):
        name = "keen"
        games = ("test-only-game",)

    assert default_mix("test-only-game") == ["keen"]
    assert "random" not in default_mix("mia")
    with pytest.raises(ValueError, match="no bots are registered"):
        default_mix("no-such-game")


def test_seats_get_unique_names_and_seeded_bots() -> None:
    one = make_seats("mia", ["bluffer", "bluffer"], "Bluffer", seed=4)
    assert [s.name for s in one] == ["Bluffer", "Bluffer 2", "Bluffer 3"]
    two = make_seats("mia", ["bluffer", "bluffer"], "Bluffer", seed=4)
    assert [s.bot.rng.random() for s in one[1:] if s.bot] == [
        s.bot.rng.random() for s in two[1:] if s.bot
    ]
