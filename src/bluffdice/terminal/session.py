"""One game at the terminal: a person (or nobody, under --watch) against bots.

The session is a thin front end over the host (`table.host`): the person is one seat
adapter (`_Person`: it reads moves from the keyboard and is told why a move was refused),
each bot another, and the host asks them, applies their moves to the table and paces the
bots. The session narrates each step as the viewer may see it (`Table.update_for`). All
that is game-specific (drawing the table, words for events, reading moves) goes through
the game's `Presenter`, so the session itself knows no game.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape

from bluffdice.bots import Bot, available_bots, load_bot
from bluffdice.bots.base import table_name
from bluffdice.games.base import Eliminated, GameState, IllegalAction
from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.limits import Limits
from bluffdice.protocol.process import BotFault
from bluffdice.protocol.seats import ProgramSeat
from bluffdice.protocol.specs import bot_command
from bluffdice.table import Entry, Move, Prompt, Refused, Table, Update, Welcome
from bluffdice.table.host import Hearing, Host, HostStopped, Policy
from bluffdice.table.host import Seat as HostSeat
from bluffdice.table.seats import BotSeat
from bluffdice.terminal.base import Presenter

EXIT_EOF = 1
EXIT_INTERRUPT = 130
EXIT_BOT_ERROR = 3


class SessionError(Exception):
    """The session cannot go on (a bot broke the rules); the message says why."""


class LeaveTable(Exception):
    """The person typed `quit`."""


@dataclass
class Seat:
    """A place at the table: a bot, or the person at the keyboard (`bot` is None)."""

    name: str
    bot: Bot | ProgramSeat | None = None

    @property
    def program(self) -> bool:
        """Whether a bot program (outside this process) plays this seat."""
        return isinstance(self.bot, ProgramSeat)


def pick_opponents(game: str, count: int, wanted: Sequence[str], rng: random.Random) -> list[str]:
    """The bots to seat: `wanted` repeated to fill `count` seats, or else a shuffled mix of
    every bot registered for the game (so new characters join without code changes)."""
    if len(wanted) > count:
        raise ValueError(f"{len(wanted)} opponents named for {count} bot seats")
    pool = list(wanted) or default_mix(game)
    if not wanted:
        rng.shuffle(pool)
    return list(itertools.islice(itertools.cycle(pool), count))


BASELINES = frozenset({"random"})
"""Bots left out of the default mix: a uniformly random player is a yardstick, not an
opponent. A bot class can also leave the mix with `in_default_mix = False`."""


def default_mix(game: str) -> list[str]:
    """Every registered bot of the game that makes a sensible opponent, by name."""
    bots = available_bots(game)
    if not bots:
        raise ValueError(f"no bots are registered for {game}")
    mix = [
        name
        for name, cls in sorted(bots.items())
        if name not in BASELINES and getattr(cls, "in_default_mix", True)
    ]
    return mix or sorted(bots)


def make_seats(
    game: str,
    bots: Sequence[str],
    human: str | None,
    seed: int | None,
    isolation: str = "sandbox",
    rules: Any = None,
) -> list[Seat]:
    """The person first (if playing), then the bots, each with its own seeded random source
    and a unique display name (`Honest`, `Honest 2`) that says what it plays at a table
    of `rules`: `Cfr (odds)` where another bot plays in its place (`Bot.stand_in`)."""
    players = len(bots) + (human is not None)
    seats = [Seat(human)] if human is not None else []
    used = {human.lower()} if human is not None else set()
    for index, spec in enumerate(bots):
        rng = random.Random(f"{seed}:bot:{index}") if seed is not None else random.Random()
        command = bot_command(spec, game)
        bot: Bot | ProgramSeat
        if command:  # a bot file or program: its own process, its own messages only
            try:
                program = ProcessBot(command, Limits(isolation=isolation))
                bot = ProgramSeat(program, rng.getrandbits(63), Policy.STOP)
            except BotFault as fault:
                raise ValueError(f"bot {spec!r} did not start ({fault.kind}): {fault}") from None
            if game not in bot.games:
                bot.close()
                raise ValueError(f"bot {spec!r} ({bot.name}) does not play {game}")
        else:
            bot = load_bot(spec, game, rng)
        shown = bot.name.replace("_", " ").title()
        if rules is not None and isinstance(bot, Bot):
            shown = table_name(shown, type(bot), rules, players)
        seats.append(Seat(unique_name(shown, used), bot))
    return seats


def unique_name(base: str, used: set[str]) -> str:
    name, number = base, 1
    while name.lower() in used:
        number += 1
        name = f"{base} {number}"
    used.add(name.lower())
    return name


def console_reader(console: Console) -> Callable[[str], str]:
    """Read one line after a Rich prompt; EOFError at the end of input."""

    def read(prompt: str) -> str:
        return console.input(prompt)

    return read


OUT_PAUSE = 0.1
"""Seconds after each bot move once the person is out of the game (the rest goes fast)."""


@dataclass
class Session:
    """Plays one game to the end, narrating it to `console` from one seat's point of view
    (the person's, or a spectator's under --watch)."""

    table: Table
    presenter: Presenter
    seats: list[Seat]
    console: Console
    errors: Console
    read: Callable[[str], str]
    pause: float = 0.0
    _table_due: bool = field(default=True, init=False)
    _seen: GameState | None = field(default=None, init=False)
    _host: Host | None = field(default=None, init=False)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def human(self) -> int | None:
        """The person's seat; None when only bots play."""
        for index, seat in enumerate(self.seats):
            if seat.bot is None:
                return index
        return None

    def run(self) -> int:
        """Play to the end and show the result; the exit status for the command."""
        self._seen = self.table.initial
        players: list[HostSeat | None] = []
        for seat in self.seats:
            if seat.bot is None:
                players.append(_Person(self))
            elif isinstance(seat.bot, ProgramSeat):
                players.append(seat.bot)
            else:
                players.append(BotSeat(seat.bot, Policy.STOP, guard=True))
        pace = [0.0 if seat.bot is None else self.pause for seat in self.seats]
        host = self._host = Host(self.table, players, pace=pace, listeners=[self._narrate])
        try:
            for entry in self.table.log:  # what happened before the first move (the seat draw)
                self._narrate(entry)
            host.run()
        except HostStopped as stop:
            self.errors.print(f"[bold red]error:[/] {escape(self._stopped(stop))}")
            return EXIT_BOT_ERROR
        except EOFError:
            self.errors.print(
                "\nInput ended: the game is abandoned (bluffdice play --watch lets the bots "
                "play without you)."
            )
            return EXIT_EOF
        except KeyboardInterrupt:
            self.errors.print("\nInterrupted: the game is abandoned.")
            return EXIT_INTERRUPT
        except LeaveTable:
            self.say("You left the table; the game is abandoned.")
            return 0
        finally:
            for seat in self.seats:
                if isinstance(seat.bot, ProgramSeat):
                    seat.bot.close()
        final = self.table.state.view(self.human)
        self.show(self.presenter.result(final, self.names))
        return 0

    def _stopped(self, stop: HostStopped) -> str:
        """Why a bot stopped the game, in one line."""
        seat = self.seats[stop.fault.seat]
        bot = seat.bot
        name = bot.name if bot is not None else "?"
        if stop.refusal is not None:
            reason = stop.refusal.reason
            return f"{seat.name} (bot {name}) made an illegal move {stop.action}: {reason}"
        return f"{seat.name} (bot {name}) failed: {stop.fault.message}"

    # --- the person's move ------------------------------------------------------------

    def ask_person(self, prompt: Prompt, again: bool) -> Move:
        """Read until a move parses (the host refuses an illegal one, `again` then);
        words that are not moves are answered here."""
        view = prompt.view
        if not again:
            if self._table_due:
                self.console.print()
                self.show(self.presenter.table(view, self.names))
                self._table_due = False
            self.say(f"You can: {self.presenter.hint(view)} [dim](or help)[/]")
        while True:
            text = self.read("[bold cyan]>[/] ").strip()
            if self._command(text, view):
                continue
            try:
                return Move(prompt.state_id, self.presenter.parse(text, view))
            except IllegalAction as exc:
                self.say(f"[red]Not allowed:[/] {escape(exc.reason)}")
            except ValueError as exc:
                self.say(f"[red]Not understood:[/] {escape(str(exc))}")

    def _command(self, text: str, view: Any) -> bool:
        """Handle the words that are not moves; True if `text` was one of them."""
        word = text.lower()
        if word in ("", "hint", "?"):
            self.say(f"You can: {self.presenter.hint(view)}")
        elif word in ("help", "h"):
            self.show(self._help(view))
        elif word in ("table", "t"):
            self.show(self.presenter.table(view, self.names))
            self.say(f"You can: {self.presenter.hint(view)}")
        elif word in ("quit", "exit", "q"):
            raise LeaveTable
        else:
            return False
        return True

    def _help(self, view: Any) -> str:
        others = [
            ("hint (or Enter)", "what you can do right now"),
            ("table", "show the table again"),
            ("help", "this list"),
            ("quit", "leave the game"),
        ]
        lines = ["[bold]Moves[/]", self.presenter.commands(), "[bold]Other commands[/]"]
        lines.extend(f"  [bold]{cmd:<22}[/] {what}" for cmd, what in others)
        lines.append(f"Now you can: {self.presenter.hint(view)}")
        return "\n".join(lines)

    # --- commentary ---------------------------------------------------------------------

    def say(self, line: str) -> None:
        """One line of commentary, never broken by Rich (the terminal wraps it, and
        piped output keeps one line per event for scripts)."""
        self.console.print(line, soft_wrap=True, highlight=False)

    def show(self, thing: RenderableType) -> None:
        """A table or screen, in the presenter's colours only (no number highlighting)."""
        self.console.print(thing, highlight=False)

    def _narrate(self, entry: Entry) -> None:
        """Say what the viewer may see of one logged step (the table's projection for
        the viewer, `Table.update_for`)."""
        before = self._seen
        self._seen = entry.state
        viewer = self.human
        if entry.actor >= 0 and entry.actor != viewer:
            self._table_due = True  # a bot moved: show the table before the person's turn
        update = self.table.update_for(entry, viewer, views=False)
        events = update.events if update is not None else ()
        cut = self.presenter.round_break(events)
        if cut is not None:
            self._table_due = True
        for index, event in enumerate(events):
            if index == cut:
                self._round_end(before)
            line = self.presenter.event(event, self.names, viewer)
            if line:
                self.say(line)
        if cut is not None and cut >= len(events):
            self._round_end(before)
        out = any(isinstance(e, Eliminated) and e.player == viewer for e in events)
        if out and viewer is not None and not self.table.state.is_terminal:
            self._out_of_the_game()

    def _out_of_the_game(self) -> None:
        """The person is out: say they may leave, and let the bots finish quickly."""
        if self.pause > OUT_PAUSE:
            self.pause = OUT_PAUSE
            if self._host is not None:
                self._host.pace = [min(p, OUT_PAUSE) for p in self._host.pace]
        self.say(
            "[bold]You are out of the game.[/] The bots play on to the end (faster now); "
            "press Ctrl-C to leave, the game is kept."
        )

    def _round_end(self, before: GameState | None) -> None:
        """Under --watch, show the hidden dice; then the standings (unless the game is
        over: the result screen follows)."""
        if self.human is None and before is not None:
            shown = self.presenter.reveal(before, self.names)
            if shown:
                self.say(f"  {shown}")
        state = self.table.state
        if not state.is_terminal:
            self.say(f"  {self.presenter.scoreline(state.view(self.human), self.names)}")


class _Person:
    """The person at the keyboard as a seat of the host: asked again after a refusal."""

    hears: Hearing = "nothing"  # the session narrates every step to the person itself
    policy = Policy.RETRY

    def __init__(self, session: Session) -> None:
        self.session = session
        self._again = False

    def sit(self, welcome: Welcome) -> None:
        return None

    def tell(self, update: Update) -> None:
        return None

    def move(self, prompt: Prompt) -> Move:
        again, self._again = self._again, False
        return self.session.ask_person(prompt, again)

    def refused(self, refusal: Refused) -> None:
        self._again = True
        self.session.say(f"[red]Not allowed:[/] {escape(refusal.reason)}")
