"""The hall's persistence: every step stored before anyone hears of it, and tables
brought back from the store after a restart.

Steps are written by group commit: every step accepted in one turn of the event loop
joins one transaction at the end of the turn (`end_turn`), and every message to a
connection waits for that end, so no one hears of a step the store might lose. The
`Persistence` part of `Hall` keeps that turn; `resume` and `resume_lazily` bring stored
open and running tables back into memory (a running one replays its record and plays
on).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final, cast

from bluffdice.server.connections import Connection
from bluffdice.server.limits import Limits
from bluffdice.server.tables import LiveTable, SeatSpec
from bluffdice.store.tables import StoredTable, TableStore

if TYPE_CHECKING:
    from bluffdice.server.hall import Hall

log = logging.getLogger("bluffdice.server")

KEEP_FINISHED: Final = 100
"""Finished tables kept in memory (for their late viewers), and reviews worked out;
older ones live in the store."""


class HallPart:
    """A part of `Hall` (its persistence, its lobby), never made on its own: the
    attributes annotated here are the hall's, set in `Hall.__init__`."""

    store: TableStore | None
    limits: Limits
    tables: dict[str, LiveTable]

    def hall(self) -> Hall:
        """The hall this is part of (for the tables it makes)."""
        return cast("Hall", self)


class Persistence(HallPart):
    """The store side of `Hall`: group commit at the end of each turn, and resuming."""

    def _start_persistence(self) -> None:
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
        self._finished: deque[str] = deque()
        """The finished tables in memory, oldest first (`finished`)."""

    def finished(self, live: LiveTable) -> None:
        """Keep the last KEEP_FINISHED finished tables in memory."""
        self._finished.append(live.id)
        while len(self._finished) > KEEP_FINISHED:
            old = self.tables.get(self._finished.popleft())
            if old is not None and not old.connections:
                del self.tables[old.id]

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

    def _load(self, stored: StoredTable) -> LiveTable | None:
        """A stored table back in memory: a running one replays its record and plays on,
        a finished one is rebuilt to show its result; None if its record does not replay."""
        assert self.store is not None
        live = LiveTable(
            self.hall(),
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
        """A table in memory, or one loaded from the store: every link keeps working after
        a restart, also one to an open or running table older than the newest
        `limits.tables` that the restart resumed (its player came back for it)."""
        live = self.tables.get(table_id)
        if live is None and table_id in self._unloaded:
            return self._load(self._unloaded.pop(table_id))
        if live is None and self.store is not None and len(table_id) <= 32:
            stored = self.store.get(table_id)
            if stored is not None and stored.status in ("open", "running", "finished"):
                live = self._load(stored)
        return live
