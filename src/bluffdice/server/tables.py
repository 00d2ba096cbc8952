"""One table of the hall (`LiveTable`): its seats, its connections, and its game on the host.

Nothing here knows about HTTP. A running table is a `bluffdice.table.host.Host` over one
`Table`: the host asks the seat whose turn it is (a person through `BrowserSeat`, a house
bot through `HouseBot`, paced by `Hall.bot_delay`), applies or refuses the answer, keeps
the clock on the event loop's timers and tells the table's listeners each step: the
store first (`_write`), then the connections (`_tell`), each through the table's one
projection (`update_for`), encoded by the wire module. All of it runs on one event loop
without awaiting in between, so a table never sees two moves at once.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from bluffdice.bots import available_bots, load_bot
from bluffdice.games.base import BluffdiceError
from bluffdice.games.record import Record
from bluffdice.games.registry import game_of, parse_rules
from bluffdice.server.connections import MAX_MESSAGE, STRIKES, Connection, message
from bluffdice.server.hints import hint
from bluffdice.server.kinds import MessageKind
from bluffdice.server.limits import Limits
from bluffdice.server.refusals import HallError, clean_name, token_digest
from bluffdice.server.seats import BrowserSeat, HouseBot
from bluffdice.store.tables import StoredStep, TableStore
from bluffdice.table import (
    DiceSource,
    Entry,
    Prompt,
    Refused,
    Table,
    WireError,
    decode_move,
    encode,
    system,
)
from bluffdice.table.fair import (
    FairDice,
    FairnessError,
    FairRecord,
    check_client_seeds,
    commitment_of,
)
from bluffdice.table.host import Host, Seat, Timer, Timers
from bluffdice.table.replay import rebuild as rebuild_record


class TableHall(Protocol):
    """What a table needs of its hall (`server.hall.Hall`). A protocol of this module,
    not the hall's class: the hall imports this module, and a compiled dataclass must
    find its fields' types at run time."""

    store: TableStore | None
    limits: Limits
    dice: Callable[[], DiceSource]
    bot_delay: float
    tables: dict[str, LiveTable]

    def save(self, live: LiveTable, **values: Any) -> None: ...

    def write_step(self, table_id: str, n: int, actor: int, text: str) -> None: ...

    def finished(self, live: LiveTable) -> None: ...

    def guard(self, live: LiveTable, work: Callable[[], None]) -> None: ...

    def info_due(self, live: LiveTable) -> None: ...

    def open_table(
        self,
        rules: str,
        players: int,
        limit: float | None,
        seats: list[SeatSpec],
        fair: bool = False,
        listed: bool = False,
    ) -> LiveTable: ...


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

    hall: TableHall
    id: str
    rules: str
    players: int
    limit: float | None
    seats: list[SeatSpec]
    status: str = "open"
    rematch: str | None = None
    table: Table | None = None
    connections: set[Connection] = field(default_factory=set)
    runner: Host | None = None
    """The host that plays the game, once it has started."""
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
        for connection in self.connections:
            self._greet(connection)
        if to == "bot" and self.runner is not None:
            # the bot sits down with what its seat saw so far, and moves if it is its turn
            self.runner.replace(seat, self._seat(seat))

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
        table = self.table = rebuild(
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
        for n in range(len(steps or ()), len(table.log)):
            entry = table.log[n]
            self.hall.write_step(self.id, n, entry.actor, entry.text)
        runner = self.runner = Host(
            table,
            [self._seat(i) for i in range(self.players)],
            pace=self.hall.bot_delay,
            timers=self._timers(),
            listeners=[self._write, self._tell],
        )
        runner.turns.append(self._turn)
        runner.ended.append(self._ended)
        if self.status != "running":
            self.status = "running"
            self.hall.save(self, status="running")
        for connection in self.connections:
            self._greet(connection)
        runner.start()

    def _seat(self, index: int) -> Seat:
        """Seat `index` as the host drives it: a house bot, or a person's browser."""
        spec = self.seats[index]
        if spec.kind == "bot" and spec.bot is not None and self.table is not None:
            return HouseBot(load_bot(spec.bot, self.table.spec.name), self.id, index)
        return BrowserSeat(index, self.connections)

    def _timers(self) -> Timers:
        """The event loop's timers for the host, each run under the hall's guard (a
        failing store closes the table, as for a move that arrives)."""
        call_later = asyncio.get_running_loop().call_later
        guard = self.hall.guard

        def timer(delay: float, callback: Callable[[], None]) -> Timer:
            return call_later(delay, guard, self, callback)

        return timer

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

    def _turn(self, prompt: Prompt) -> None:
        """A seat's turn begins: everyone hears whose it is (the seat's own connections
        get the prompt from its `BrowserSeat`); a game this long is abandoned instead."""
        self.active = time.monotonic()
        table = self.table
        if table is not None and len(table.log) >= self.hall.limits.game_steps:
            self.abandon("long")
            return
        seat, state_id, left = prompt.seat, prompt.state_id, prompt.time_left
        turn = message("turn", seat=seat, state_id=state_id, time_left=left)
        for connection in self.connections:
            connection.send(turn)

    def _ended(self, runner: Host) -> None:
        self._finish()

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
        if self.runner is not None:
            self.runner.close()
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
        runner = self.runner
        if table is None or runner is None:
            connection.send(
                encode(Refused("not_your_turn", "the game starts when every seat is taken", 0))
            )
            return
        if self.status == "abandoned":
            connection.send(encode(Refused("game_over", "this game is over", state_id)))
            return
        refusal = runner.offer(connection.seat, move)
        if refusal is not None:
            connection.send(encode(refusal))

    def _hint(self, connection: Connection) -> None:
        if self.table is None or connection.seat is None:
            connection.send(message("error", code="no_hint", reason="no hint for you here"))
            return
        connection.send(message("hint", **hint(self.table.rules, self._view(connection.seat))))

    def _view(self, seat: int) -> Any:
        """The seat's own view now: its prompt's on its turn, else that of the last step
        as it saw it (the table works each view out once per state), else its welcome's."""
        table = self.table
        assert table is not None
        pending = table.pending()
        if pending is not None and pending.seat == seat:
            return pending.view
        if table.log:
            update = table.update_for(table.log[-1], seat)
            if update is not None:
                return update.view
        return table.welcome(seat).view

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
        if self.runner is not None:
            self.runner.close()
        for connection in self.connections:
            connection.drop("the table closed")


def game_name(rules: str) -> str:
    return game_of(parse_rules(rules)).name
