"""Keep tournaments and their games in a database: SQLite by default, any SQLAlchemy URL.

A stored game is its rules, who sat where, its full record (every die and every action,
as `bluffdice.games.record.Record` steps) and its result, so it can be replayed move by
move long after the tournament ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, func, insert, select
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session

from bluffdice.games.base import BluffdiceError
from bluffdice.games.record import Record
from bluffdice.store.models import Base, GameRow, TournamentRow

DEFAULT_DB = "bluffdice.db"


class StoreError(BluffdiceError):
    """The database cannot be opened, or holds no such game."""


def database_url(target: str) -> str:
    """A SQLAlchemy URL for `target`: a URL stays as it is, anything else is a SQLite file."""
    if "://" in target:
        return target
    return f"sqlite:///{Path(target).expanduser()}"


@dataclass(frozen=True)
class StoredGame:
    id: int
    tournament_id: int | None
    index: int
    seed: int
    record: Record
    bots: tuple[str, ...]
    result: dict[str, Any]


@dataclass(frozen=True)
class StoredTournament:
    id: int
    created: datetime
    game: str
    rules: str
    names: tuple[str, ...]
    seats: int
    games: int
    played: int
    seed: int
    summary: dict[str, Any] | None


class Store:
    """A connection to one database; creates the tables on first use."""

    def __init__(self, target: str = DEFAULT_DB, create: bool = True) -> None:
        self.url = database_url(target)
        if self.url.startswith("sqlite:///") and not create:
            path = Path(self.url.removeprefix("sqlite:///"))
            if not path.is_file():
                raise StoreError(f"no database at {path} (run a tournament first, or give --db)")
        try:
            self.engine: Engine = create_engine(self.url)
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", _sqlite_pragmas)
            Base.metadata.create_all(self.engine)
        except (ArgumentError, NoSuchModuleError) as exc:
            raise StoreError(f"cannot use database {target!r}: {exc}") from None
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot open database {target!r}: {exc.__class__.__name__}: "
                f"{exc.args[0] if exc.args else exc}"
            ) from None

    def close(self) -> None:
        self.engine.dispose()

    # --- writing ---------------------------------------------------------------------

    def start_tournament(
        self,
        *,
        game: str,
        rules: str,
        bots: Sequence[str],
        names: Sequence[str],
        seats: int,
        games: int,
        seed: int,
    ) -> int:
        with Session(self.engine) as session:
            row = TournamentRow(
                created=datetime.now(UTC).replace(tzinfo=None),
                game=game,
                rules=rules,
                bots=list(bots),
                names=list(names),
                seats=seats,
                games=games,
                seed=str(seed),
                played=0,
                summary=None,
            )
            session.add(row)
            session.commit()
            return row.id

    def add_games(self, tournament_id: int | None, games: Iterable[dict[str, Any]]) -> None:
        """Insert games in one transaction; each dict has index, seed, record, bots, result."""
        rows = [
            {
                "tournament_id": tournament_id,
                "index": g["index"],
                "seed": str(g["seed"]),
                "game": g["record"].game,
                "rules": g["record"].rules,
                "players": g["record"].players,
                "bots": list(g["bots"]),
                "steps": list(g["record"].steps),
                "result": g["result"],
            }
            for g in games
        ]
        if not rows:
            return
        with Session(self.engine) as session:
            session.execute(insert(GameRow), rows)
            if tournament_id is not None:
                t = session.get(TournamentRow, tournament_id)
                if t is not None:
                    t.played += len(rows)
            session.commit()

    def finish_tournament(self, tournament_id: int, summary: dict[str, Any]) -> None:
        with Session(self.engine) as session:
            t = session.get(TournamentRow, tournament_id)
            if t is None:
                raise StoreError(f"no tournament {tournament_id}")
            t.summary = summary
            session.commit()

    # --- reading ---------------------------------------------------------------------

    def game(self, game_id: int) -> StoredGame:
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                last = session.scalar(select(func.max(GameRow.id)))
                hint = f"stored games are 1 to {last}" if last else "no games are stored yet"
                raise StoreError(f"no game {game_id} in {self.url}: {hint}")
            return _stored_game(row)

    def games(self, tournament_id: int | None = None, limit: int = 20) -> list[StoredGame]:
        """The first `limit` games, of one tournament or of all."""
        with Session(self.engine) as session:
            query = select(GameRow).order_by(GameRow.id).limit(limit)
            if tournament_id is not None:
                query = query.where(GameRow.tournament_id == tournament_id)
            return [_stored_game(row) for row in session.scalars(query)]

    def tournaments(self) -> list[StoredTournament]:
        with Session(self.engine) as session:
            rows = session.scalars(select(TournamentRow).order_by(TournamentRow.id))
            return [
                StoredTournament(
                    id=t.id,
                    created=t.created,
                    game=t.game,
                    rules=t.rules,
                    names=tuple(t.names),
                    seats=t.seats,
                    games=t.games,
                    played=t.played,
                    seed=int(t.seed),
                    summary=t.summary,
                )
                for t in rows
            ]

    def first_game_id(self, tournament_id: int) -> int | None:
        with Session(self.engine) as session:
            return session.scalar(
                select(func.min(GameRow.id)).where(GameRow.tournament_id == tournament_id)
            )


def _stored_game(row: GameRow) -> StoredGame:
    return StoredGame(
        id=row.id,
        tournament_id=row.tournament_id,
        index=row.index,
        seed=int(row.seed),
        record=Record(game=row.game, rules=row.rules, players=row.players, steps=tuple(row.steps)),
        bots=tuple(row.bots),
        result=dict(row.result),
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets `replay` read while a tournament writes; foreign keys honour CASCADE."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()
