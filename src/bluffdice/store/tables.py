"""Tables played in the browser (`bluffdice serve`): who sits where, and every step.

Each accepted step is its own row, written before anyone is told about it, so a server
killed at any moment restarts with every table exactly where its players last saw it.
Seat tokens are kept only as SHA-256 digests: the database alone cannot act for a seat.
The rows share the store's metadata (`bluffdice.store.models.Base`) and its versions
(`bluffdice.store.schema`, versions 3, 5 and 6): a `Store` creates or upgrades them with
the rest. A table with provably fair dice keeps its secret server seed in `web_fair`, which
no page reads before the game is over. `web_access` keeps who may do what at a table:
whether the lobby lists it and the digest of its creator's token.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any, Final

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from bluffdice.store.models import Base

log = logging.getLogger(__name__)


class WebTableRow(Base):
    __tablename__ = "web_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    game: Mapped[str] = mapped_column(String(40))
    rules: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    limit: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds per move, or None for no clock."""
    status: Mapped[str] = mapped_column(String(16))
    """open (seats to fill), running, finished."""
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """Per seat: kind (human or bot), name, bot (character), token (SHA-256 hex)."""
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class WebStepRow(Base):
    __tablename__ = "web_steps"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[int] = mapped_column(Integer)
    """The seat that moved, -1 for chance, -3 for a default move after a timeout."""
    text: Mapped[str] = mapped_column(Text)


class WebFairRow(Base):
    __tablename__ = "web_fair"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True
    )
    server_seed: Mapped[str] = mapped_column(String(64))
    """The table's secret (hex), revealed only when its game is over."""
    commitment: Mapped[str] = mapped_column(String(64))


class WebAccessRow(Base):
    __tablename__ = "web_access"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True
    )
    listed: Mapped[bool] = mapped_column(Boolean)
    """Shown in the lobby; otherwise reached by its link only."""
    host: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 hex digest of the creator's token (it hands seats over)."""


@dataclass(frozen=True)
class StoredTable:
    id: str
    created: datetime
    game: str
    rules: str
    players: int
    limit: float | None
    status: str
    seats: list[dict[str, Any]]
    rematch: str | None
    result: dict[str, Any] | None


@dataclass(frozen=True)
class StoredStep:
    actor: int
    text: str


class TableStore:
    """The browser tables of one database (the engine of an opened `bluffdice.store.Store`,
    which has made the schema current)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        if engine.dialect.name == "sqlite":
            # WAL with synchronous=NORMAL: a commit survives the server being killed
            # (kill -9) without waiting for the disk on every step; only a power cut can
            # lose the last steps. Connections opened before this are replaced.
            event.listen(engine, "connect", _sqlite_normal_sync)
            engine.dispose()
        compiled = _insert_step.compile(dialect=engine.dialect, column_keys=list(STEP_KEYS))
        self._insert_sql: tuple[str, tuple[str, ...] | None] = (
            str(compiled),
            tuple(compiled.positiontup or ()) if compiled.positional else None,
        )
        """The step insert in the driver's own SQL and parameter style."""
        self._checkpoints: _Checkpoints | None = None
        Base.metadata.create_all(
            engine,
            tables=[
                WebTableRow.__table__,  # type: ignore[list-item]
                WebStepRow.__table__,  # type: ignore[list-item]
                WebFairRow.__table__,  # type: ignore[list-item]
                WebAccessRow.__table__,  # type: ignore[list-item]
            ],
        )

    def checkpoint_in_background(self, every: float = 0.5) -> bool:
        """For a long-running server on a SQLite file: copy the write-ahead log back
        into the database in a thread of its own, every `every` seconds, instead of
        inside whichever commit fills the log. At 500 busy tables that copy made every
        fifth commit take 7 ms more on the event loop (and the moves of that turn wait
        for it); in the thread it runs while SQLite has released the GIL. Returns
        whether it started (not for other databases, nor twice)."""
        database = self.engine.url.database
        if (
            self.engine.dialect.name != "sqlite"
            or database in (None, "", ":memory:")
            or self._checkpoints is not None
        ):
            return False
        event.listen(self.engine, "connect", _sqlite_no_autocheckpoint)
        self.engine.dispose()  # pooled connections still checkpoint by themselves
        self._checkpoints = _Checkpoints(self.engine, every)
        self._checkpoints.start()
        return True

    def stop_checkpoints(self) -> None:
        """Stop the background checkpoints after a last one; connections opened later
        checkpoint by themselves again."""
        checkpoints, self._checkpoints = self._checkpoints, None
        if checkpoints is None:
            return
        checkpoints.stop()
        event.remove(self.engine, "connect", _sqlite_no_autocheckpoint)
        self.engine.dispose()

    @property
    def checkpoints_done(self) -> int:
        """Background checkpoints run so far (0 when none run)."""
        return 0 if self._checkpoints is None else self._checkpoints.done

    def create(
        self,
        *,
        id: str,
        game: str,
        rules: str,
        players: int,
        limit: float | None,
        seats: list[dict[str, Any]],
        status: str,
    ) -> None:
        with Session(self.engine) as session:
            session.add(
                WebTableRow(
                    id=id,
                    created=datetime.now(UTC).replace(tzinfo=None),
                    game=game,
                    rules=rules,
                    players=players,
                    limit=limit,
                    status=status,
                    seats=seats,
                    rematch=None,
                    result=None,
                )
            )
            session.commit()

    def change(self, table_id: str, **values: Any) -> None:
        """Set columns of one table (status, seats, rematch, result)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(WebTableRow).where(WebTableRow.id == table_id).values(**values)
            )

    def append(self, table_id: str, n: int, actor: int, text: str) -> None:
        """Write one step; committed when this returns."""
        self.append_many([{"table_id": table_id, "n": n, "actor": actor, "text": text}])

    def append_many(self, steps: list[dict[str, Any]]) -> None:
        """Write steps of any tables (dicts of table_id, n, actor, text) in one
        transaction; all are committed when this returns, or none is. One commit for
        every step a busy server accepted in one turn of its event loop is what keeps
        the store off the critical path (a commit costs far more than a row)."""
        if not steps:
            return
        # Straight to the driver (one executemany, one commit): SQLAlchemy's connection
        # and transaction around it cost about three times the write of a small batch.
        sql, keys = self._insert_sql
        rows: list[Any] = steps if keys is None else list(map(itemgetter(*keys), steps))
        connection = self.engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                cursor.executemany(sql, rows)
            finally:
                cursor.close()
            connection.commit()
        except BaseException:
            connection.rollback()
            raise
        finally:
            connection.close()  # back to the pool

    def keep_fair(self, table_id: str, server_seed: str, commitment: str) -> None:
        """The server seed of a table with fair dice, kept before its commitment is shown."""
        with self.engine.begin() as connection:
            connection.execute(
                insert(WebFairRow),
                {"table_id": table_id, "server_seed": server_seed, "commitment": commitment},
            )

    def fair(self, table_id: str) -> tuple[str, str] | None:
        """(server seed, commitment) of a table with fair dice; None for other tables."""
        with Session(self.engine) as session:
            row = session.get(WebFairRow, table_id)
            return None if row is None else (row.server_seed, row.commitment)

    def keep_access(self, table_id: str, *, listed: bool, host: str | None) -> None:
        """Whether the lobby lists a table, and its creator's token digest."""
        with self.engine.begin() as connection:
            connection.execute(
                insert(WebAccessRow), {"table_id": table_id, "listed": listed, "host": host}
            )

    def access(self, table_id: str) -> tuple[bool, str | None] | None:
        """(listed, creator's token digest) of a table; None for a table from before
        tables were private (schema 5 and older), which is listed and has no creator."""
        with Session(self.engine) as session:
            row = session.get(WebAccessRow, table_id)
            return None if row is None else (row.listed, row.host)

    def abandon_open_before(self, before: datetime) -> int:
        """Close as abandoned every open table created before `before` (naive UTC);
        returns how many."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(WebTableRow)
                .where(WebTableRow.status == "open", WebTableRow.created < before)
                .values(status="abandoned", result={"abandoned": "expired"})
            )
            return int(done.rowcount or 0)

    def get(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(WebTableRow, table_id)
            return None if row is None else _stored(row)

    def steps(self, table_id: str) -> list[StoredStep]:
        with Session(self.engine) as session:
            rows = session.scalars(
                select(WebStepRow).where(WebStepRow.table_id == table_id).order_by(WebStepRow.n)
            )
            return [StoredStep(row.actor, row.text) for row in rows]

    def tables(
        self,
        statuses: tuple[str, ...] | None = None,
        limit: int = 200,
        listed_only: bool = False,
    ) -> list[StoredTable]:
        """The newest tables first (of some statuses only, with `statuses`; with
        `listed_only`, those the lobby lists, and those from before tables were private)."""
        with Session(self.engine) as session:
            query = select(WebTableRow).order_by(WebTableRow.created.desc()).limit(limit)
            if statuses is not None:
                query = query.where(WebTableRow.status.in_(statuses))
            if listed_only:
                query = query.outerjoin(
                    WebAccessRow, WebAccessRow.table_id == WebTableRow.id
                ).where((WebAccessRow.listed.is_(True)) | (WebAccessRow.table_id.is_(None)))
            return [_stored(row) for row in session.scalars(query)]

    def remove(self, table_id: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(WebStepRow).where(WebStepRow.table_id == table_id))
            connection.execute(delete(WebFairRow).where(WebFairRow.table_id == table_id))
            connection.execute(delete(WebAccessRow).where(WebAccessRow.table_id == table_id))
            connection.execute(delete(WebTableRow).where(WebTableRow.id == table_id))


_insert_step = insert(WebStepRow.__table__)  # type: ignore[arg-type]
"""Core insert, compiled once per engine for its driver (`TableStore._insert_sql`)."""
STEP_KEYS: Final = ("table_id", "n", "actor", "text")


def sqlite_pragmas(*statements: str) -> Callable[[Any, Any], None]:
    """A "connect" listener that runs these PRAGMAs on every new SQLite connection (kept
    at module level by its callers, so that `event.remove` finds the same function)."""

    def run(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for statement in statements:
            cursor.execute(statement)
        cursor.close()

    return run


_sqlite_normal_sync = sqlite_pragmas("PRAGMA synchronous=NORMAL")
_sqlite_no_autocheckpoint = sqlite_pragmas("PRAGMA wal_autocheckpoint=0")


class _Checkpoints(threading.Thread):
    """`TableStore.checkpoint_in_background`'s thread: a PASSIVE checkpoint (it never
    waits for readers or writers) every few tenths of a second, and one at the end."""

    def __init__(self, engine: Engine, every: float) -> None:
        super().__init__(name="bluffdice-checkpoints", daemon=True)
        self.engine = engine
        self.every = every
        self.done = 0
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.wait(self.every):
            self._checkpoint()
        self._checkpoint()

    def stop(self) -> None:
        self._stopping.set()
        self.join(10)

    def _checkpoint(self) -> None:
        try:
            connection = self.engine.raw_connection()
            try:
                cursor = connection.cursor()
                cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
                cursor.fetchall()
                cursor.close()
            finally:
                connection.close()
            self.done += 1
        except Exception:  # a checkpoint that fails is tried again at the next tick
            log.exception("background checkpoint failed")


def _stored(row: WebTableRow) -> StoredTable:
    return StoredTable(
        id=row.id,
        created=row.created,
        game=row.game,
        rules=row.rules,
        players=row.players,
        limit=row.limit,
        status=row.status,
        seats=[dict(seat) for seat in row.seats],
        rematch=row.rematch,
        result=None if row.result is None else dict(row.result),
    )
