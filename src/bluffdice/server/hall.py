"""The hall: every table of a running server, with its seats, connections, bots and clock.

Nothing here knows about HTTP. A `LiveTable` wraps one `bluffdice.table.Table` and drives
it on the event loop: moves arrive from connections (`receive`), bots move after a short
pause, the clock makes default moves. Every accepted step goes to the store first (the
first table listener) and only then to the connections, each through the table's one
projection (`update_for`, `welcome`, `prompt`), encoded by the wire module. All of it runs
on one event loop without awaiting in between, so a table never sees two moves at once.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import msgspec

from bluffdice.bots import available_bots, load_bot
from bluffdice.bots.base import Bot
from bluffdice.errors import WordedError
from bluffdice.games.base import BluffdiceError, RuleError
from bluffdice.games.record import Record
from bluffdice.games.registry import game_of, get_game, parse_rules, rules_string
from bluffdice.server.hints import hint
from bluffdice.server.kinds import MessageKind
from bluffdice.server.limits import Limits
from bluffdice.store.tables import StoredStep, StoredTable, TableStore
from bluffdice.table import (
    DiceSource,
    Entry,
    Refused,
    Table,
    WireError,
    decode_move,
    encode,
    system,
    tell_agents,
)
from bluffdice.table.fair import (
    FairDice,
    FairnessError,
    FairRecord,
    check_client_seeds,
    commitment_of,
    new_server_seed,
)
from bluffdice.table.replay import rebuild as rebuild_record

log = logging.getLogger("bluffdice.server")

MAX_MESSAGE: Final = 4096
"""Bytes: the longest message a browser may send (a move is under 200)."""
QUEUE_SIZE: Final = 512
"""Frames (each one turn's messages) waiting for one connection; a client this far
behind is dropped."""
RATE: Final = 10.0
"""Messages per second a connection may send, on average..."""
BURST: Final = 20.0
"""...and in one burst."""
STRIKES: Final = 50
"""Messages over the rate before the connection is closed."""
NAME_LENGTH: Final = 24
MIN_LIMIT, MAX_LIMIT = 1.0, 3600.0
KEEP_FINISHED: Final = 100
"""Finished tables kept in memory (for their late viewers); older ones live in the store."""


REFUSALS: Final[dict[str, str]] = {
    "err.nameNotText": "a name is text",
    "err.noName": "pick a name to play under",
    "err.noReplay": "the stored game does not replay: {reason}",
    "err.full": "this table has no free seat",
    "err.seatTaken": "seat {seat} is not free",
    "err.seatNumber": "a seat is a number",
    "err.notFair": "this table does not use fair dice",
    "err.seedObject": "send the token and the seed as a JSON object",
    "err.seedNotSeated": "only a seated player gives a seed",
    "err.seedsClosed": "the seeds closed when the game started",
    "err.fairAtEnd": "the dice are shown to be fair when the game is over",
    "err.tableObject": "send the table as a JSON object",
    "err.noSeats": "say who sits in each seat",
    "err.players": "{game} is played by {low} to {high} players",
    "err.noBot": "no {game} bot {bot}; bots: {bots}",
    "err.seatKind": "each seat is 'human' or 'bot'",
    "err.limitNumber": "the time limit is a number of seconds",
    "err.limitRange": "the time limit is {low} to {high} seconds",
    "err.dice": "the dice are 'system' (the default) or 'fair'",
    "err.noTable": "no such table (it may have finished long ago)",
    "err.noGame": "no such game",
    "err.notOver": "this game is not over yet: its replay opens when it ends",
    "err.tooManyTables": "this server has {count} tables open or playing, its most: "
    "try again later",
    "err.tooManyYours": "you have {count} tables open or playing, the most one address "
    "may have: finish or leave one first",
    "err.botTables": "tables of bots only are switched off on this server",
    "err.tooManyBotTables": "this server runs {count} tables of bots only, its most: "
    "try again later",
    "err.listed": "listed is true or false",
    "err.reviewLong": "this game has {steps} steps: the server reviews games of up to "
    "{most} steps (bluffdice review reviews any game on your own machine)",
    "err.reviewBusy": "the server is reviewing other games: try again in a minute",
    "err.notHost": "only the table's creator hands a seat over",
    "err.seatNotHuman": "seat {seat} is not a person's seat",
    "err.seatHere": "seat {seat}'s player is here: a seat is handed over when its "
    "player has left or has been away for {seconds} seconds",
    "err.handTo": "a seat is handed to 'bot' (with its bot) or 'player' (a free seat)",
    "err.notSeated": "this token holds no seat at this table",
    "err.over": "this game is over",
}
"""What the hall refuses, in English; the page shows the catalogue's text of the same key
(static/i18n; tests/test_web_i18n.py keeps the two equal in English)."""


class HallError(WordedError):
    """A request the hall refuses (bad rules, a full table, an unknown table): the text
    is shown to the person who asked. Made by `said`, it also carries its catalogue key
    and parameters, so the page can show it in its own language."""

    @classmethod
    def said(cls, key: str, **params: Any) -> HallError:
        shown = {name: str(value) for name, value in params.items()}
        return cls(REFUSALS[key].format(**shown), key, shown)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any) -> str:
    """A player's name as shown: printable, single-spaced, at most NAME_LENGTH characters.
    (Pages show names as text, never as markup; this only keeps them tidy.)"""
    if not isinstance(name, str):
        raise HallError.said("err.nameNotText")
    text = " ".join(re.sub(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e]", " ", name).split())
    if not text:
        raise HallError.said("err.noName")
    return text[:NAME_LENGTH]


@dataclass
class SeatSpec:
    """Who sits in one seat: a person (once someone claimed it with a name) or a bot."""

    kind: str
    name: str | None = None
    bot: str | None = None
    token: str | None = None
    """SHA-256 hex digest of the seat's token; the token itself only its browser knows."""
    seed: str | None = None
    """The player's own seed at a table with fair dice (None: not given yet; bots give "")."""
    left: bool = False
    """The player left a game in play: the seat waits for the creator to hand it over."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token is not None or self.left

    def stored(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token": self.token,
            "seed": self.seed,
            "left": self.left,
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatSpec:
        return cls(
            data["kind"],
            data.get("name"),
            data.get("bot"),
            data.get("token"),
            data.get("seed"),
            bool(data.get("left", False)),
        )


class Connection:
    """One client connection: its seat (None for a spectator), a bounded send queue and
    a budget of messages per second. The server's writer task drains `queue` (`get`);
    None in the queue means: close.

    Everything sent to a connection during one turn of the event loop goes out as one
    websocket frame, a JSON array of the messages in order (`send` collects them in
    `outbox`; the hall's end of the turn, `Hall.end_turn`, commits the turn's steps and
    only then frames each outbox). A move costs one frame per recipient, not one per
    message. Without a hall each message is framed at once."""

    def __init__(
        self,
        seat: int | None = None,
        queue_size: int = QUEUE_SIZE,
        hall: Hall | None = None,
        address: str = "",
    ) -> None:
        self.seat = seat
        self.address = address
        """The client's address (connections per address are capped)."""
        self.queue: deque[bytes | None] = deque()
        self.queue_size = queue_size
        self.hall = hall
        self.outbox: list[bytes] = []
        """This turn's messages, framed together at its end."""
        self.dropped = False
        self.reason = ""
        self.strikes = 0
        self._allowance = BURST
        self._last = time.monotonic()
        self._waiter: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        """The writer's loop, asked for once: on Python 3.11 every `get_running_loop`
        is a `getpid` system call, and a writer waits once per frame."""

    def send(self, data: bytes) -> None:
        """Add one encoded message to this turn's frame."""
        if self.dropped:
            return
        self.outbox.append(data)
        if len(self.outbox) == 1:
            if self.hall is not None:
                self.hall.outgoing(self)
            else:
                self.flush()

    def flush(self) -> None:
        """Queue this turn's messages as one frame."""
        frame = self.take_frame()
        if frame is not None:
            self.put(frame)

    def take_frame(self) -> bytes | None:
        """This turn's messages as one frame (None if there are none); the outbox starts
        again empty."""
        messages, self.outbox = self.outbox, []
        return b"[" + b",".join(messages) + b"]" if messages else None

    def put(self, frame: bytes) -> None:
        """Queue a frame now (`send` gathers messages into one frame per turn)."""
        if self.dropped:
            return
        if len(self.queue) >= self.queue_size:
            self.drop("too slow: messages piled up")
            return
        self.queue.append(frame)
        self._wake()

    def drop(self, reason: str) -> None:
        """Stop sending and close; the queued messages are thrown away."""
        if self.dropped:
            return
        self.dropped = True
        self.reason = reason
        self.outbox.clear()
        self.queue.clear()
        self.queue.append(None)
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> bytes | None:
        """The next frame to send (None: close); waits only when the queue is empty,
        so a writer drains a burst without a task switch per frame."""
        while not self.queue:
            if self._loop is None:
                self._loop = asyncio.get_running_loop()
            self._waiter = self._loop.create_future()
            await self._waiter
        return self.queue.popleft()

    def allow(self) -> bool:
        """Token bucket: RATE messages per second, BURST at once."""
        now = time.monotonic()
        self._allowance = min(BURST, self._allowance + (now - self._last) * RATE)
        self._last = now
        if self._allowance < 1.0:
            return False
        self._allowance -= 1.0
        return True


def message(kind: str, **fields: Any) -> bytes:
    """A server message that is not a table message (table info, turn, hint, error)."""
    return msgspec.json.encode({"type": kind, **fields, "v": 1})


def rebuild(
    rules: str,
    players: int,
    limit: float | None,
    steps: Sequence[StoredStep],
    dice: DiceSource,
    names: list[str],
    redraw: bool = False,
) -> Table:
    """The table of a stored record at its last step, rolling on with `dice` (the clock
    of the seat to move starts afresh): `bluffdice.table.replay.rebuild`, which replays
    and reviews use too. With `redraw`, `dice` (fair dice) rolls the stored dice again
    and each must match. A step that does not replay raises HallError."""
    record = Record(game_name(rules), rules, players, tuple(step.text for step in steps))
    try:
        return rebuild_record(
            record,
            names,
            actors=[step.actor for step in steps],
            then=dice,
            redraw=redraw,
            limits=limit,
        )
    except (BluffdiceError, ValueError) as exc:
        raise HallError.said("err.noReplay", reason=exc) from None


@dataclass
class LiveTable:
    """One table of the hall, from its open seats to its result."""

    hall: Hall
    id: str
    rules: str
    players: int
    limit: float | None
    seats: list[SeatSpec]
    status: str = "open"
    rematch: str | None = None
    table: Table | None = None
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    server_seed: bytes | None = None
    """Fair dice: the secret the commitment is made of; never sent before the game is over."""
    fair_dice: FairDice | None = None
    listed: bool = False
    """Shown in the lobby (the creator's choice); otherwise reached by its link only."""
    host: str | None = None
    """SHA-256 digest of the creator's token, which hands seats over."""
    address: str = ""
    """The address that created it (tables per address are capped)."""
    active: float = field(default_factory=time.monotonic)
    """When the table last changed (open and idle tables expire)."""
    away: dict[int, float] = field(default_factory=dict)
    """Seated people not connected: since when (seats are handed over after a while)."""
    _fair_digest: str | None = None
    _timer: asyncio.TimerHandle | None = None
    _bot_timer: asyncio.TimerHandle | None = None

    def names(self) -> list[str]:
        """The names at the table: people's own, bots' characters (numbered when two
        bots share one: honest, honest 2)."""
        names: list[str] = []
        for i, seat in enumerate(self.seats):
            if seat.kind == "human":
                names.append(seat.name or f"seat {i + 1}")
                continue
            same = sum(1 for s in self.seats[:i] if s.kind == "bot" and s.bot == seat.bot)
            names.append(f"{seat.bot} {same + 1}" if same else f"{seat.bot}")
        return names

    @property
    def fair(self) -> bool:
        return self.server_seed is not None

    def info(self, seat: int | None = None) -> dict[str, Any]:
        """What the lobby and the table page show about this table (nothing secret)."""
        connected = {c.seat for c in self.connections if not c.dropped}
        names = self.names()
        fair: dict[str, Any] | None = None
        if self.server_seed is not None:
            fair = {
                "commitment": commitment_of(self.server_seed),
                "seed": None if seat is None else self.seats[seat].seed,
                "waiting": [i for i, s in enumerate(self.seats) if s.taken and s.seed is None],
                "digest": self._digest() if self.status == "finished" else None,
            }
        return {
            "id": self.id,
            "game": game_name(self.rules),
            "rules": self.rules,
            "players": self.players,
            "limit": self.limit,
            "status": self.status,
            "rematch": self.rematch,
            "you": seat,
            "seats": [
                {
                    "kind": s.kind,
                    "name": s.name if s.kind == "human" else names[i],
                    "taken": s.taken,
                    "online": s.kind == "bot" or i in connected,
                    "left": s.left,
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": sum(1 for c in self.connections if c.seat is None and not c.dropped),
            "fair": fair,
            "listed": self.listed,
        }

    # --- seats -------------------------------------------------------------------------

    def claim(self, name: Any, seat: int | None = None) -> tuple[int, str]:
        """Seat a person: the first free seat (or `seat`); returns the seat and its token.
        The last free seat taken starts the game."""
        if self.status not in ("open", "running"):
            raise HallError.said("err.full")
        free = [i for i, s in enumerate(self.seats) if not s.taken]
        if seat is None:
            if not free:
                raise HallError.said("err.full")
            seat = free[0]
        elif seat not in free:
            raise HallError.said("err.seatTaken", seat=seat + 1)
        token = secrets.token_urlsafe(24)
        self.seats[seat].name = clean_name(name)
        self.seats[seat].token = token_digest(token)
        self.hall.save(self, seats=[s.stored() for s in self.seats])
        self.active = time.monotonic()
        if self.table is not None:  # a seat handed to a new player in a game in play
            self.table.names = tuple(self.names())
            self.broadcast_info()
        else:
            self.start_when_ready()
        return seat, token

    def leave(self, token: Any) -> int:
        """A seated person leaves: before the game starts the seat is free again; in a
        game in play it waits for the creator to hand it to a bot or a new player (with
        a clock, the clock moves for it meanwhile). Returns the seat."""
        seat = self.seat_of(token) if isinstance(token, str) else None
        if seat is None:
            raise HallError.said("err.notSeated")
        if self.status not in ("open", "running"):
            raise HallError.said("err.over")
        spec = self.seats[seat]
        spec.token = None
        if self.status == "open":
            spec.name = None
            if self.server_seed is not None:
                spec.seed = None
        else:
            spec.left = True
        self.hall.save(self, seats=[s.stored() for s in self.seats])
        for connection in self.connections:
            if connection.seat == seat:
                connection.seat = None  # watches on as a spectator
                self._greet(connection)
        self.broadcast_info()
        return seat

    def hand_over(self, host: Any, seat: Any, to: Any, bot: Any) -> None:
        """The creator hands a person's seat that was left, or has been away for
        `away_seconds`, to a bot (`to` "bot", with `bot`) or to a new player ("player":
        the seat is free to claim with the table's link)."""
        if not isinstance(host, str) or self.host is None:
            raise HallError.said("err.notHost")
        if not secrets.compare_digest(self.host, token_digest(host)):
            raise HallError.said("err.notHost")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise HallError.said("err.seatNumber")
        if self.status not in ("open", "running"):
            raise HallError.said("err.over")
        spec = self.seats[seat]
        if spec.kind != "human":
            raise HallError.said("err.seatNotHuman", seat=seat + 1)
        wait = self.hall.limits.away_seconds
        away = self.away.get(seat)
        gone = spec.left or (
            spec.token is not None and away is not None and time.monotonic() - away >= wait
        )
        if spec.token is not None and not gone:
            raise HallError.said("err.seatHere", seat=seat + 1, seconds=f"{wait:g}")
        if to == "bot":
            game = game_name(self.rules)
            bots = available_bots(game)
            if not isinstance(bot, str) or bot not in bots:
                raise HallError.said("err.noBot", game=game, bot=repr(bot), bots=", ".join(bots))
            self.seats[seat] = SeatSpec("bot", bot=bot, seed=spec.seed if spec.seed else "")
        elif to == "player":
            self.seats[seat] = SeatSpec("human", seed=spec.seed)
        else:
            raise HallError.said("err.handTo")
        self.away.pop(seat, None)
        for connection in self.connections:
            if connection.seat == seat:
                connection.seat = None
        self.hall.save(self, seats=[s.stored() for s in self.seats])
        self.active = time.monotonic()
        table = self.table
        if table is None:
            self.start_when_ready()
            return
        table.names = tuple(self.names())
        if to == "bot":
            new = load_bot(str(bot), table.spec.name)
            self.bots[seat] = new
            agents: list[Bot | None] = [None] * self.players
            agents[seat] = new
            listener = tell_agents(table, agents)
            for entry in table.log:  # what the bot's seat saw before it sat down
                listener(entry)
            table.listeners.append(listener)
        for connection in self.connections:
            self._greet(connection)
        self.after_change()

    def give_seed(self, token: Any, seed: Any) -> None:
        """A player's own seed for fair dice. Seeds close when the game starts: when every
        seat is taken and every person has given one (the page sends one by itself)."""
        if self.server_seed is None:
            raise HallError.said("err.notFair")
        seat = self.seat_of(token) if isinstance(token, str) else None
        if seat is None:
            raise HallError.said("err.seedNotSeated")
        if self.status != "open":
            raise HallError.said("err.seedsClosed")
        try:
            self.seats[seat].seed = check_client_seeds([seed])[0]
        except FairnessError as exc:
            raise HallError(str(exc)) from None
        self.hall.save(self, seats=[s.stored() for s in self.seats])
        self.start_when_ready()

    def start_when_ready(self) -> None:
        """Start once every seat is taken (and, with fair dice, every seed is in)."""
        ready = all(s.taken for s in self.seats)
        if self.server_seed is not None:
            ready = ready and all(s.seed is not None for s in self.seats)
        if ready and self.status == "open":
            self.start()
        else:
            self.broadcast_info()

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_digest(token)
        for i, s in enumerate(self.seats):
            if s.token is not None and secrets.compare_digest(s.token, digest):
                return i
        return None

    # --- running -----------------------------------------------------------------------

    def start(self, steps: list[StoredStep] | None = None) -> None:
        """Sit everyone down and play; with `steps`, first replay a stored record."""
        dice = self.hall.dice() if self.server_seed is None else self._fair_dice()
        self.table = rebuild(
            self.rules,
            self.players,
            self.limit,
            steps or [],
            dice,
            self.names(),
            redraw=self.server_seed is not None,
        )
        # Chance steps drawn while the table was built (the seat draw, or dice the
        # record did not reach) are stored now, before anyone sees them.
        for n in range(len(steps or ()), len(self.table.log)):
            entry = self.table.log[n]
            self.hall.write_step(self.id, n, entry.actor, entry.text)
        game = self.table.spec.name
        for i, s in enumerate(self.seats):
            if s.kind == "bot" and s.bot is not None:
                self.bots[i] = load_bot(s.bot, game)
        self.table.listeners.append(self._write)
        self.table.listeners.append(
            tell_agents(self.table, [self.bots.get(i) for i in range(self.players)])
        )
        self.table.listeners.append(self._tell)
        if self.status != "running":
            self.status = "running"
            self.hall.save(self, status="running")
        for connection in self.connections:
            self._greet(connection)
        self.after_change()

    def _fair_dice(self) -> FairDice:
        """The table's fair dice, fresh: a rebuild rolls the stored dice with them again."""
        assert self.server_seed is not None
        seeds = [s.seed or "" for s in self.seats]
        self.fair_dice = FairDice(self.server_seed, seeds)
        return self.fair_dice

    def rebuilt(self, steps: Sequence[StoredStep]) -> Table:
        """A finished game back at a table (its fair dice rolled again, to export them)."""
        fair = self.server_seed is not None
        dice = self._fair_dice() if fair else system()
        return rebuild(self.rules, self.players, None, steps, dice, self.names(), redraw=fair)

    def fair_record(self) -> FairRecord:
        """The game's fair record, server seed revealed: only once the game is over."""
        if self.fair_dice is None or self.table is None or not self.table.over:
            raise HallError.said("err.fairAtEnd")
        return self.fair_dice.fair_record(self.table.record)

    def _digest(self) -> str:
        """The finished fair record's digest (shown at the end), worked out once."""
        if self._fair_digest is None:
            self._fair_digest = self.fair_record().digest
        return self._fair_digest

    def _write(self, entry: Entry) -> None:
        """First listener: the step is committed before anyone hears of it."""
        assert self.table is not None
        self.hall.write_step(self.id, len(self.table.log) - 1, entry.actor, entry.text)

    def _tell(self, entry: Entry) -> None:
        assert self.table is not None
        encoded: dict[int | None, bytes | None] = {}
        for connection in self.connections:
            if connection.seat not in encoded:
                update = self.table.update_for(entry, connection.seat)
                encoded[connection.seat] = None if update is None else encode(update)
            data = encoded[connection.seat]
            if data is not None:
                connection.send(data)

    def after_change(self) -> None:
        """After any step: prompt the seat to move, start its clock or its bot, or end."""
        self._cancel_timers()
        table = self.table
        if table is None:
            return
        self.active = time.monotonic()
        pending = table.pending()
        if pending is None:
            self._finish()
            return
        if len(table.log) >= self.hall.limits.game_steps:
            self.abandon("long")
            return
        prompt = table.prompt()
        assert prompt is not None
        turn = message(
            "turn", seat=pending.seat, state_id=pending.state_id, time_left=prompt.time_left
        )
        prompt_data = encode(prompt)
        for connection in self.connections:
            connection.send(turn)
            if connection.seat == pending.seat:
                connection.send(prompt_data)
        if pending.deadline is not None:
            left = table.time_left() or 0.0
            self._timer = asyncio.get_running_loop().call_later(left + 0.01, self._on_clock)
        if pending.seat in self.bots:
            delay = self.hall.bot_delay
            self._bot_timer = asyncio.get_running_loop().call_later(delay, self._on_bot)

    def _cancel_timers(self) -> None:
        for timer in (self._timer, self._bot_timer):
            if timer is not None:
                timer.cancel()
        self._timer = self._bot_timer = None

    def _on_clock(self) -> None:
        self._timer = None
        if self.table is None:
            return
        self.hall.guard(self, self._expire)

    def _expire(self) -> None:
        assert self.table is not None
        if self.table.expire() is not None or not self.table.over:
            self.after_change()

    def _on_bot(self) -> None:
        self._bot_timer = None
        self.hall.guard(self, self._bot_move)

    def _bot_move(self) -> None:
        table = self.table
        assert table is not None
        pending = table.pending()
        if pending is None or pending.seat not in self.bots:
            return
        try:
            action = self.bots[pending.seat].act(pending.view)
            result = table.submit(pending.seat, pending.state_id, action)
        except BluffdiceError as exc:
            log.warning("table %s: bot %s failed: %s", self.id, pending.seat, exc)
            result = Refused(code="illegal", reason=str(exc), state_id=table.state_id)
        if isinstance(result, Refused) and table.pending() is pending:
            table.force_default()
        self.after_change()

    def _finish(self) -> None:
        assert self.table is not None
        if self.status == "finished":
            return
        self.status = "finished"
        outcome = self.table.outcome()
        result = None if outcome is None else msgspec.to_builtins(outcome)
        self.hall.save(self, status="finished", result=result)
        self.broadcast_info()
        self.hall.finished(self)

    # --- connections -------------------------------------------------------------------

    def connect(self, connection: Connection) -> None:
        self.connections.add(connection)
        if connection.seat is not None:
            self.away.pop(connection.seat, None)
        self._greet(connection)
        self.broadcast_info()

    def disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        seat = connection.seat
        if seat is not None and not any(c.seat == seat for c in self.connections):
            self.away[seat] = time.monotonic()
        self.broadcast_info()

    def _greet(self, connection: Connection) -> None:
        """Everything a connection needs to draw the table now (also after a reload)."""
        connection.send(message("table", **self.info(connection.seat)))
        table = self.table
        if table is None:
            return
        connection.send(encode(table.welcome(connection.seat)))
        pending = table.pending()
        prompt = table.prompt()
        if pending is not None and prompt is not None:
            connection.send(
                message(
                    "turn", seat=pending.seat, state_id=pending.state_id, time_left=prompt.time_left
                )
            )
            if connection.seat == pending.seat:
                connection.send(encode(prompt))

    def broadcast_info(self) -> None:
        """Everyone hears the table's info (who sits, who is online) at the end of this
        turn: a burst of joins and leaves makes one message per connection, not one per
        join (`send_info`)."""
        self.hall.info_due(self)

    def send_info(self) -> None:
        """The table's info to every connection, built once per seat: spectators share
        one encoded message."""
        built: dict[int | None, bytes] = {}
        for connection in self.connections:
            seat = connection.seat
            data = built.get(seat)
            if data is None:
                data = built[seat] = message("table", **self.info(seat))
            connection.send(data)

    def abandon(self, reason: str) -> None:
        """Close the table unfinished (expired, too long, or its game cannot go on):
        stored as abandoned with the reason, its viewers told, and out of memory."""
        if self.status in ("finished", "abandoned"):
            return
        self._cancel_timers()
        self.status = "abandoned"
        self.hall.save(self, status="abandoned", result={"abandoned": reason})
        data = message("table", **self.info(None), abandoned=reason)
        for connection in self.connections:
            connection.send(data)
        self.hall.tables.pop(self.id, None)

    def receive(self, connection: Connection, data: bytes | str) -> None:
        """One message from a connection: a move, a hint request or a rematch request.
        Anything else is answered with an error and changes nothing."""
        raw = data.encode() if isinstance(data, str) else data
        state_id = self.table.state_id if self.table is not None else 0
        if len(raw) > MAX_MESSAGE:
            connection.send(encode(Refused("malformed", "message too long", state_id)))
            return
        if not connection.allow():
            connection.strikes += 1
            connection.send(message("error", code="rate_limited", reason="too many messages"))
            if connection.strikes > STRIKES:
                connection.drop("too many messages")
            return
        try:
            kind = msgspec.json.decode(raw, type=MessageKind).type
        except msgspec.DecodeError as exc:
            connection.send(encode(Refused("malformed", str(exc)[:300], state_id)))
            return
        if kind == "hint":
            self._hint(connection)
        elif kind == "rematch":
            self._rematch(connection)
        elif kind == "hello":
            connection.send(message("table", **self.info(connection.seat)))
        else:
            self._move(connection, raw)

    def _move(self, connection: Connection, raw: bytes) -> None:
        table = self.table
        state_id = table.state_id if table is not None else 0
        try:
            move = decode_move(raw, None if table is None else table.spec.name)
        except WireError as exc:
            connection.send(encode(Refused("malformed", str(exc), state_id)))
            return
        if connection.seat is None:
            connection.send(encode(Refused("not_your_seat", "spectators watch", state_id)))
            return
        if table is None:
            connection.send(
                encode(Refused("not_your_turn", "the game starts when every seat is taken", 0))
            )
            return
        before = len(table.log)
        result = table.submit(connection.seat, move.state_id, move.action)
        if isinstance(result, Refused):
            connection.send(encode(result))
        if len(table.log) != before:
            self.after_change()

    def _hint(self, connection: Connection) -> None:
        if self.table is None or connection.seat is None:
            connection.send(message("error", code="no_hint", reason="no hint for you here"))
            return
        view = self.table.state.view(connection.seat)
        connection.send(message("hint", **hint(self.table.rules, view)))

    def _rematch(self, connection: Connection) -> None:
        if self.status != "finished" or connection.seat is None:
            connection.send(message("error", code="no_rematch", reason="no rematch yet"))
            return
        if self.rematch is None:
            seats = [
                SeatSpec(s.kind, s.name, s.bot, s.token, "" if s.kind == "bot" else None)
                for s in self.seats
            ]
            new = self.hall.open_table(
                self.rules, self.players, self.limit, seats, self.fair, listed=self.listed
            )
            new.host, new.address = self.host, self.address
            if self.hall.store is not None and self.host is not None:
                self.hall.store.keep_access(new.id, listed=new.listed, host=self.host)
            self.rematch = new.id
            self.hall.save(self, rematch=new.id)
            new.start_when_ready()
        self.broadcast_info()

    def close(self) -> None:
        self._cancel_timers()
        for connection in self.connections:
            connection.drop("the table closed")


def game_name(rules: str) -> str:
    return game_of(parse_rules(rules)).name


class Hall:
    """Every table of one server, backed by a `TableStore` (None: nothing survives)."""

    def __init__(
        self,
        store: TableStore | None,
        dice: Callable[[], DiceSource] = system,
        bot_delay: float = 0.8,
        server_seed: Callable[[], bytes] = new_server_seed,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits if limits is not None else Limits()
        self.dice = dice
        self.server_seed = server_seed
        """Makes the secret of each table with fair dice (tests pass a known one)."""
        self.bot_delay = bot_delay
        self.tables: dict[str, LiveTable] = {}
        self._reviews: dict[str, dict[str, Any]] = {}
        self._finished: deque[str] = deque()
        self.unwritten: list[dict[str, Any]] = []
        """Accepted steps waiting for the end of the turn's commit (see `write_step`)."""
        self.outgoing_now: list[Connection] = []
        """Connections with messages this turn: framed after the commit (`end_turn`)."""
        self.committed: list[tuple[Connection, bytes]] = []
        """Frames whose steps are stored, written at the start of the next turn."""
        self._turn_end: asyncio.Handle | None = None
        self._info_due: dict[str, LiveTable] = {}
        """Tables whose info changed this turn: sent once each at its end (`info_due`)."""
        self._unloaded: dict[str, StoredTable] = {}
        """Stored open and running tables not loaded yet after a restart (`resume_lazily`)."""

    # --- persistence ---------------------------------------------------------------------

    def save(self, live: LiveTable, **values: Any) -> None:
        if self.store is not None:
            self.commit()  # the table's steps before its new status, as they happened
            self.store.change(live.id, **values)

    def write_step(self, table_id: str, n: int, actor: int, text: str) -> None:
        """Group commit: the step joins every other step accepted in this turn of the
        event loop, and all are written in one transaction at the end of the turn
        (`end_turn`). Every message to a connection waits for that end too, so no one
        hears of a step before it is stored, and a busy server pays for one commit per
        turn instead of one per move."""
        if self.store is None:
            return
        self.unwritten.append({"table_id": table_id, "n": n, "actor": actor, "text": text})
        self._end_turn_soon()

    def info_due(self, live: LiveTable) -> None:
        """`live`'s info changed: send it at the end of this turn (`LiveTable.send_info`)."""
        self._info_due[live.id] = live
        self._end_turn_soon()

    def outgoing(self, connection: Connection) -> None:
        """`connection` has messages this turn: frame them at its end (`end_turn`)."""
        self.outgoing_now.append(connection)
        self._end_turn_soon()

    def _end_turn_soon(self) -> None:
        if self._turn_end is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop (a script, a test): now
                self.end_turn()
                return
            self._turn_end = loop.call_soon(self.end_turn)

    def end_turn(self) -> None:
        """One turn of the hall, run once per turn of the event loop that has work:
        first write the frames the previous turn stored, then commit the steps this turn
        made and frame each connection's messages.

        The frames of a turn go out at the start of the next turn, right after the event
        loop polled its sockets, not at the end of this one: under load a turn then
        writes, handles the moves that came in while it wrote, and commits, and the
        clients have the whole turn to answer before the next poll. Writing at the end
        instead made the answers to the last frames of a turn just miss the poll and
        wait a whole turn, which doubled the slowest moves' latency."""
        if self._turn_end is not None:
            self._turn_end.cancel()
            self._turn_end = None
        self._write_committed()
        due, self._info_due = self._info_due, {}
        for live in due.values():
            live.send_info()
        self.commit()
        connections, self.outgoing_now = self.outgoing_now, []
        committed = self.committed
        for connection in connections:
            frame = connection.take_frame()  # a dropped connection has none
            if frame is not None:
                committed.append((connection, frame))
        if committed:
            self._end_turn_soon()

    def _write_committed(self) -> None:
        committed, self.committed = self.committed, []
        for connection, frame in committed:
            connection.put(frame)

    def commit(self) -> None:
        """Write the unwritten steps in one transaction. If the store fails, every table
        with a step in it leaves memory unannounced (it resumes from the store, which
        has every step its players saw)."""
        steps, self.unwritten = self.unwritten, []
        if steps and self.store is not None:
            try:
                self.store.append_many(steps)
            except Exception:
                log.exception("store failed; writing table by table")
                self._commit_each(steps)

    def _commit_each(self, steps: list[dict[str, Any]]) -> None:
        """After a failed group commit: each table's steps in a transaction of their
        own, so one table's bad write does not close every table of that turn."""
        assert self.store is not None
        by_table: dict[str, list[dict[str, Any]]] = {}
        for step in steps:
            by_table.setdefault(step["table_id"], []).append(step)
        for table_id, own in by_table.items():
            try:
                self.store.append_many(own)
            except Exception:
                log.exception("table %s failed to store; closed, it resumes on restart", table_id)
                live = self.tables.pop(table_id, None)
                if live is not None:
                    live.close()

    def guard(self, live: LiveTable, work: Callable[[], None]) -> None:
        """Run a table's work; if the store fails, the table leaves memory unannounced
        (it is resumed from the store, where every step its players saw is kept)."""
        try:
            work()
        except Exception:
            log.exception("table %s failed; it is closed and resumes on restart", live.id)
            live.close()
            self.tables.pop(live.id, None)

    def resume(self) -> int:
        """Load every open and running table from the store now; running ones replay
        their record and play on. Returns how many running tables resumed."""
        resumed = 0
        for stored in self._to_resume():
            if self._load(stored) and stored.status == "running":
                resumed += 1
        return resumed

    def resume_lazily(self) -> int:
        """After a restart: serve at once, and load the stored open and running tables a
        few at a time (`limits.resume_batch` per turn of the event loop); one asked for
        before its turn (its link opened) is loaded right then. Returns how many wait."""
        for stored in self._to_resume():
            self._unloaded[stored.id] = stored
        if self._unloaded:
            asyncio.get_running_loop().call_soon(self._resume_some)
        return len(self._unloaded)

    def _to_resume(self) -> list[StoredTable]:
        """The stored tables to play on: the newest `limits.tables` open and running ones;
        open ones older than `limits.open_seconds` are closed as abandoned instead."""
        if self.store is None:
            return []
        stale = datetime.now(UTC).replace(tzinfo=None) - timedelta(
            seconds=min(self.limits.open_seconds, 10**7)
        )
        self.store.abandon_open_before(stale)
        return self.store.tables(("open", "running"), limit=min(self.limits.tables, 10**6))

    def _resume_some(self) -> None:
        for _ in range(self.limits.resume_batch):
            if not self._unloaded:
                return
            _, stored = self._unloaded.popitem()
            self._load(stored)
        if self._unloaded:
            asyncio.get_running_loop().call_later(0.001, self._resume_some)

    def sweep(self) -> int:
        """Close as abandoned the open tables unfilled for `limits.open_seconds` and the
        running ones without a step for `limits.idle_seconds`. Returns how many."""
        now = time.monotonic()
        limits = self.limits
        stale = [
            live
            for live in self.tables.values()
            if (live.status == "open" and now - live.active >= limits.open_seconds)
            or (live.status == "running" and now - live.active >= limits.idle_seconds)
        ]
        for live in stale:
            self.guard(live, functools.partial(live.abandon, "expired"))
        return len(stale)

    def _load(self, stored: StoredTable) -> LiveTable | None:
        """A stored table back in memory: a running one replays its record and plays on,
        a finished one is rebuilt to show its result; None if its record does not replay."""
        assert self.store is not None
        live = LiveTable(
            self,
            stored.id,
            stored.rules,
            stored.players,
            stored.limit,
            [SeatSpec.from_stored(s) for s in stored.seats],
            stored.status,
            stored.rematch,
        )
        try:
            fair = self.store.fair(stored.id)
            if fair is not None:
                live.server_seed = bytes.fromhex(fair[0])
            if stored.status == "running":
                live.start(self.store.steps(stored.id))
            elif stored.status == "finished":
                live.table = live.rebuilt(self.store.steps(stored.id))
            access = self.store.access(stored.id)
            # a table from before tables were private was listed, and had no creator
            live.listed, live.host = access if access is not None else (True, None)
        except Exception:
            log.exception("table %s cannot be loaded", stored.id)
            return None
        self.tables[live.id] = live
        if stored.status == "finished":
            self.finished(live)
        return live

    def find(self, table_id: str) -> LiveTable | None:
        """A table in memory, or a finished one loaded from the store (old links work)."""
        live = self.tables.get(table_id)
        if live is None and table_id in self._unloaded:
            return self._load(self._unloaded.pop(table_id))
        if live is None and self.store is not None and len(table_id) <= 32:
            stored = self.store.get(table_id)
            if stored is not None and stored.status == "finished":
                live = self._load(stored)
        return live

    # --- tables --------------------------------------------------------------------------

    def open_table(
        self,
        rules: str,
        players: int,
        limit: float | None,
        seats: list[SeatSpec],
        fair: bool = False,
        listed: bool = False,
    ) -> LiveTable:
        table_id = secrets.token_urlsafe(12)  # 96 bits: the link is the invitation
        live = LiveTable(self, table_id, rules, players, limit, seats, listed=listed)
        if fair:
            live.server_seed = self.server_seed()
        if self.store is not None:
            self.store.create(
                id=table_id,
                game=game_name(rules),
                rules=rules,
                players=players,
                limit=limit,
                seats=[s.stored() for s in seats],
                status="open",
            )
            if live.server_seed is not None:
                seed = live.server_seed
                self.store.keep_fair(table_id, seed.hex(), commitment_of(seed))
        self.tables[table_id] = live
        return live

    def active_tables(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.status in ("open", "running")]

    def _check_room(self, address: str, bots_only: bool) -> None:
        """Refuse a new table over the limits: in all, per address, of bots only."""
        limits = self.limits
        active = self.active_tables()
        if len(active) + len(self._unloaded) >= limits.tables:
            raise HallError.said("err.tooManyTables", count=limits.tables)
        if address and sum(t.address == address for t in active) >= limits.tables_per_address:
            raise HallError.said("err.tooManyYours", count=limits.tables_per_address)
        if bots_only:
            if limits.bot_tables <= 0:
                raise HallError.said("err.botTables")
            running = sum(all(s.kind == "bot" for s in t.seats) for t in active)
            if running >= limits.bot_tables:
                raise HallError.said("err.tooManyBotTables", count=limits.bot_tables)

    def create(self, request: Any, address: str = "") -> dict[str, Any]:
        """A new table from the lobby's form: {"rules", "seats": [{"kind", "bot"}...],
        "limit", "name", "dice", "listed"}. The person creating it takes the first
        person's seat. With "dice": "fair" the table commits to its secret now and starts
        when every person has also given a seed (`give_seed`); the default is the OS's
        generator. The table is private (reached by its link) unless "listed" is true.
        The answer's "host" token lets its creator hand seats over (`hand_over`)."""
        if not isinstance(request, dict):
            raise HallError.said("err.tableObject")
        try:
            rules_obj = parse_rules(str(request.get("rules", "")))
        except RuleError as exc:  # the page words it from its catalogue's rule.* keys
            raise HallError(str(exc), exc.key, exc.params) from None
        except BluffdiceError as exc:
            raise HallError(str(exc)) from None
        rules = rules_string(rules_obj)
        game = game_name(rules)
        spec = get_game(game)
        seats_in = request.get("seats")
        if not isinstance(seats_in, list):
            raise HallError.said("err.noSeats")
        if not spec.min_players <= len(seats_in) <= spec.max_players:
            refusal = HallError.said(
                "err.players", game=spec.title, low=spec.min_players, high=spec.max_players
            )
            # the page says the game's title in its own language
            refusal.params["game"] = {"key": f"game.{spec.name}", "params": {}}
            raise refusal
        bots = available_bots(game)
        seats: list[SeatSpec] = []
        for item in seats_in:
            kind = item.get("kind") if isinstance(item, dict) else None
            if kind == "bot":
                bot = str(item.get("bot", ""))
                if bot not in bots:
                    raise HallError.said(
                        "err.noBot", game=game, bot=repr(bot), bots=", ".join(bots)
                    )
                seats.append(SeatSpec("bot", bot=bot, seed=""))
            elif kind == "human":
                seats.append(SeatSpec("human"))
            else:
                raise HallError.said("err.seatKind")
        limit = request.get("limit")
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int | float):
                raise HallError.said("err.limitNumber")
            if not MIN_LIMIT <= limit <= MAX_LIMIT:
                raise HallError.said("err.limitRange", low=f"{MIN_LIMIT:g}", high=f"{MAX_LIMIT:g}")
            limit = float(limit)
        dice = request.get("dice", "system")
        if dice not in ("system", "fair"):
            raise HallError.said("err.dice")
        listed = request.get("listed", False)
        if not isinstance(listed, bool):
            raise HallError.said("err.listed")
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        name = clean_name(request.get("name")) if humans else None
        self._check_room(address, not humans)
        live = self.open_table(rules, len(seats), limit, seats, fair=dice == "fair", listed=listed)
        host = secrets.token_urlsafe(24)
        live.host, live.address = token_digest(host), address
        if self.store is not None:
            self.store.keep_access(live.id, listed=listed, host=live.host)
        answer: dict[str, Any] = {"id": live.id, "seat": None, "token": None, "host": host}
        if name is not None:
            seat, token = live.claim(name, humans[0])
            answer.update(seat=seat, token=token)
        else:
            live.start()
        return answer

    def get(self, table_id: str) -> LiveTable:
        live = self.find(table_id)
        if live is None:
            raise HallError.said("err.noTable")
        return live

    def finished(self, live: LiveTable) -> None:
        """Keep the last KEEP_FINISHED finished tables in memory."""
        self._finished.append(live.id)
        while len(self._finished) > KEEP_FINISHED:
            old = self.tables.get(self._finished.popleft())
            if old is not None and not old.connections:
                del self.tables[old.id]

    def listing(self, offset: int = 0, limit: int = 20) -> dict[str, Any]:
        """The listed open and running tables (a page of them: `limit` from `offset`,
        newest first; their count is "total"), and the latest listed finished games,
        for the lobby. A table is listed only when its creator chose so."""
        listed = [t for t in self.active_tables() if t.listed]
        listed.reverse()  # newest first
        offset = max(0, offset)
        limit = max(1, min(limit, 50))
        live = [t.info() for t in listed[offset : offset + limit]]
        done: list[dict[str, Any]] = []
        if self.store is not None:
            for stored in self.store.tables(("finished",), limit=20, listed_only=True):
                done.append(
                    {
                        "id": stored.id,
                        "game": stored.game,
                        "rules": stored.rules,
                        "names": [s.get("name") or s.get("bot") for s in stored.seats],
                        "winners": (stored.result or {}).get("winners", []),
                    }
                )
        return {
            "tables": live,
            "total": len(listed),
            "offset": offset,
            "limit": limit,
            "finished": done,
        }

    def replay(self, table_id: str) -> dict[str, Any]:
        """A finished game step by step, everything revealed: for the replay page."""
        table = self._finished_table(table_id)
        return {
            "id": table_id,
            "game": table.spec.name,
            "rules": rules_string(table.rules),
            "names": list(table.names),
            "outcome": table.outcome(),
            "steps": [
                {"actor": e.actor, "text": e.text, "update": table.update_for(e, None, True)}
                for e in table.log
            ],
        }

    def review(self, table_id: str) -> dict[str, Any]:
        """Every decision of every player of a finished game rated as `bluffdice review`
        rates it (`bluffdice.review.review_game`, from each player's own seat), with the
        models that rated them: for the replay page, beside each move."""
        cached = self.cached_review(table_id)
        if cached is not None:
            return cached
        from bluffdice.review import review_game
        from bluffdice.review.words import Phrase, game

        table = self._finished_table(table_id)
        self.check_review(table)
        ratings: list[dict[str, Any]] = []
        models: dict[str, str] = {}
        models_said: dict[str, Any] = {}
        reason = None
        try:
            for seat in range(table.players):
                reviewed = review_game(table.record, seat, table.names).to_json()
                models.update(reviewed["models"])
                models_said.update(reviewed["models_said"])
                for row in reviewed["ratings"]:
                    ratings.append({"seat": seat, **row})
        except (NotImplementedError, BluffdiceError, ValueError) as exc:
            ratings, models, models_said = [], {}, {}
            title = game(table.spec)  # the page says the game's name in its language
            reason = (
                Phrase("rv.none.why", game=title, reason=exc)
                if str(exc)
                else Phrase("rv.none", game=title)
            )
        ratings.sort(key=lambda row: row["step"])
        answer = {
            "id": table_id,
            "ratings": ratings,
            "models": models,
            "models_said": models_said,
            "reason": None if reason is None else str(reason),
            "reason_said": None if reason is None else reason.to_json(),
        }
        self._reviews[table_id] = answer
        while len(self._reviews) > KEEP_FINISHED:
            self._reviews.pop(next(iter(self._reviews)))
        return answer

    def cached_review(self, table_id: str) -> dict[str, Any] | None:
        """A review already worked out (kept for the last KEEP_FINISHED reviewed games)."""
        return self._reviews.get(table_id)

    def check_review(self, table: Table) -> None:
        """Refuse to review a game longer than `limits.review_steps`."""
        if len(table.log) > self.limits.review_steps:
            raise HallError.said(
                "err.reviewLong", steps=len(table.log), most=self.limits.review_steps
            )

    def _finished_table(self, table_id: str) -> Table:
        """A finished game at a table: the one in memory, or rebuilt from the store."""
        live = self.tables.get(table_id)
        table = live.table if live is not None else None
        stored = self.store.get(table_id) if self.store is not None else None
        if table is None:
            if stored is None or self.store is None:
                raise HallError.said("err.noGame")
            seats = [SeatSpec.from_stored(s) for s in stored.seats]
            gone = LiveTable(self, stored.id, stored.rules, stored.players, None, seats)
            table = gone.rebuilt(self.store.steps(table_id))
        if not table.over:
            raise HallError.said("err.notOver")
        return table

    def close(self) -> None:
        self.end_turn()
        self._write_committed()
        for live in self.tables.values():
            live.close()
