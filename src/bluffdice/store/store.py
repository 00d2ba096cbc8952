"""Keep tournaments and their games in a database: SQLite by default, any SQLAlchemy URL.

A stored game is its rules, who sat where, its full record (every die and every action,
as `bluffdice.games.record.Record` steps) and its result, so it can be replayed move by
move long after the tournament ended. The rules are stored with every option written
out and the bluffdice version that played the game, and the schema is versioned
(`bluffdice.store.schema`), so a store outlives upgrades of bluffdice.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, func, insert, select
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session

from bluffdice import __version__
from bluffdice.games.base import BluffdiceError
from bluffdice.games.record import Record
from bluffdice.store.errors import StoreError
from bluffdice.store.location import (
    database_url,
    default_database,
    is_default_location,
    sqlite_path,
)
from bluffdice.store.models import GameRow, TournamentRow
from bluffdice.store.schema import prepare
from bluffdice.store.tables import sqlite_pragmas

MAX_ID = 2**63 - 1
"""The largest id (and LIMIT) a database integer holds; larger ones simply match nothing."""


@dataclass(frozen=True)
class StoredGame:
    id: int
    tournament_id: int | None
    index: int
    seed: int
    record: Record
    bots: tuple[str, ...]
    result: dict[str, Any]
    bluffdice_version: str | None = None
    """The bluffdice that played it (None: stored before versions were recorded)."""
    person_seat: int | None = None
    """The seat a person played (`bluffdice play`); None for games of bots only."""


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
    bluffdice_version: str | None = None


def _private_file(path: Path, default: bool) -> None:
    """A new SQLite file is readable by its owner only (0600), and the per-user data
    folder by its owner only (0700): the store holds every die of every game, and a fair
    table's secret seed until its game ends."""
    try:
        if default:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(path.parent, 0o700)
        if not path.exists() and path.parent.is_dir():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        if default and path.exists():
            os.chmod(path, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise StoreError(f"cannot create {path}: {exc.strerror or exc}") from None


class Store:
    """A connection to one database; creates the tables on first use and upgrades an
    older store (see `bluffdice.store.schema`).

    `target` is a SQLite file or a SQLAlchemy URL; None means the default database
    ($BLUFFDICE_DB, else `bluffdice.db` in the per-user data folder)."""

    def __init__(self, target: str | None = None, create: bool = True) -> None:
        target = target if target is not None else default_database()
        self.target = target
        self.url = database_url(target)
        path = sqlite_path(target)
        if path is not None and not create and not path.is_file():
            raise StoreError(f"no database at {path} (run a tournament first, or give --db)")
        if path is not None and create and str(path) != ":memory:":
            _private_file(path, is_default_location(str(path)))
        try:
            self.engine: Engine = create_engine(self.url)
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", _sqlite_pragmas)
            self.location = str(path) if path is not None else _shown_url(self.engine)
            prepare(self.engine, self.location)
        except (ArgumentError, NoSuchModuleError) as exc:
            raise StoreError(f"cannot use database {target!r}: {exc}") from None
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot open database {target!r}: {_reason(exc)}") from None

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self, doing: str) -> Iterator[Session]:
        """A session whose database failures (a file made read-only, a full disk, a
        vanished server) are a StoreError naming the database, not a driver traceback."""
        try:
            with Session(self.engine) as session:
                yield session
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot {doing} database {self.location}: {_reason(exc)}") from None

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
        with self._session("write to") as session:
            row = TournamentRow(
                created=datetime.now(UTC).replace(tzinfo=None),
                game=game,
                rules=full_rules(rules, game),
                bluffdice_version=__version__,
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
        expanded: dict[tuple[str, str], str] = {}
        rows = [
            {
                "tournament_id": tournament_id,
                "index": g["index"],
                "seed": str(g["seed"]),
                "game": g["record"].game,
                "rules": _cached_full_rules(expanded, g["record"].rules, g["record"].game),
                "bluffdice_version": __version__,
                "players": g["record"].players,
                "bots": list(g["bots"]),
                "steps": list(g["record"].steps),
                "result": g["result"],
            }
            for g in games
        ]
        if not rows:
            return
        with self._session("write to") as session:
            session.execute(insert(GameRow), rows)
            if tournament_id is not None:
                t = session.get(TournamentRow, tournament_id)
                if t is not None:
                    t.played += len(rows)
            session.commit()

    def add_played_game(
        self,
        record: Record,
        names: Sequence[str],
        person_seat: int,
        seed: int | None,
        result: dict[str, Any],
    ) -> int:
        """Keep a game a person played (finished or abandoned): a game of no tournament,
        with the person's seat, so that `bluffdice review last` finds it. Returns its id."""
        with self._session("write to") as session:
            row = GameRow(
                tournament_id=None,
                index=0,
                seed=str(seed if seed is not None else -1),
                game=record.game,
                rules=full_rules(record.rules, record.game),
                bluffdice_version=__version__,
                players=record.players,
                bots=list(names),
                steps=list(record.steps),
                result=result,
                person_seat=person_seat,
            )
            session.add(row)
            session.commit()
            return row.id

    def last_played(self) -> StoredGame:
        """The last game a person played; a StoreError when there is none."""
        with self._session("read") as session:
            row = session.scalars(
                select(GameRow)
                .where(GameRow.person_seat.is_not(None))
                .order_by(GameRow.id.desc())
                .limit(1)
            ).first()
            if row is None:
                raise StoreError(
                    f"no played game in {self.location} yet: play one with `bluffdice play`"
                )
            return _stored_game(row)

    def finish_tournament(self, tournament_id: int, summary: dict[str, Any]) -> None:
        with self._session("write to") as session:
            t = session.get(TournamentRow, tournament_id)
            if t is None:
                raise StoreError(f"no tournament {tournament_id}")
            t.summary = summary
            session.commit()

    # --- reading ---------------------------------------------------------------------

    def game(self, game_id: int) -> StoredGame:
        with self._session("read") as session:
            row = session.get(GameRow, game_id) if 1 <= game_id <= MAX_ID else None
            if row is None:
                last = session.scalar(select(func.max(GameRow.id)))
                hint = f"stored games are 1 to {last}" if last else "no games are stored yet"
                raise StoreError(f"no game {_short_number(game_id)} in {self.location}: {hint}")
            return _stored_game(row)

    def games(self, tournament_id: int | None = None, limit: int = 20) -> list[StoredGame]:
        """The first `limit` games, of one tournament or of all."""
        if tournament_id is not None and not 1 <= tournament_id <= MAX_ID:
            return []
        with self._session("read") as session:
            query = select(GameRow).order_by(GameRow.id).limit(min(limit, MAX_ID))
            if tournament_id is not None:
                query = query.where(GameRow.tournament_id == tournament_id)
            return [_stored_game(row) for row in session.scalars(query)]

    def played_games(self, limit: int = 20) -> list[StoredGame]:
        """The last `limit` games a person played (`bluffdice play`), newest first."""
        with self._session("read") as session:
            query = (
                select(GameRow)
                .where(GameRow.person_seat.is_not(None))
                .order_by(GameRow.id.desc())
                .limit(min(limit, MAX_ID))
            )
            return [_stored_game(row) for row in session.scalars(query)]

    def tournaments(self) -> list[StoredTournament]:
        with self._session("read") as session:
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
                    bluffdice_version=t.bluffdice_version,
                )
                for t in rows
            ]

    def first_game_id(self, tournament_id: int) -> int | None:
        with self._session("read") as session:
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
        bluffdice_version=row.bluffdice_version,
        person_seat=row.person_seat,
    )


def full_rules(rules: str, game: str | None = None) -> str:
    """`rules` with every option written out; text that does not parse stays as it is
    (the store keeps what it is given)."""
    from bluffdice.games.registry import parse_rules, rules_string

    try:
        return rules_string(parse_rules(rules, game=game), full=True)
    except BluffdiceError:
        return rules


def _cached_full_rules(cache: dict[tuple[str, str], str], rules: str, game: str) -> str:
    key = (rules, game)
    if key not in cache:
        cache[key] = full_rules(rules, game)
    return cache[key]


def _short_number(number: int) -> str:
    """A number for a message: a huge one is not printed in full."""
    text = str(number)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


def _reason(exc: SQLAlchemyError) -> str:
    """The driver's own words (e.g. 'database or disk is full'), without SQLAlchemy's SQL."""
    original = getattr(exc, "orig", None)
    if original is not None and str(original):
        return str(original)
    return f"{exc.__class__.__name__}: {exc.args[0] if exc.args else exc}"


def _shown_url(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


_sqlite_pragmas = sqlite_pragmas("PRAGMA foreign_keys=ON", "PRAGMA journal_mode=WAL")
"""WAL lets `replay` read while a tournament writes; foreign keys honour CASCADE."""
