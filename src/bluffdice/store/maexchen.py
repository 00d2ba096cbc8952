"""Mäxchen contests in the store: one row per contest, one row per round played.

A round row holds the play order, the engine's record of the round (every die, every
move: it replays with `Record.replay`), who lost and why, and the points it gave; when
the server ended the round itself (a timeout, SEE before any announcement, a losing
announcement), `ruling` says so. Scores and ratings are recomputed from the rounds, so
`bluffdice maexchen standings` works during a contest and long after it.

A round played with fair dice (`--dice fair`) also gets a row in `maexchen_fair_rounds`:
its commitment and its fair record with the server seed revealed, which `bluffdice
verify maexchen:CONTEST:ROUND` checks.

The tables live on their own metadata, created on first use, so they sit next to the
tournament tables without changing them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text, func, insert
from sqlalchemy import select as select_rows
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from bluffdice import __version__
from bluffdice.games.record import Record
from bluffdice.store.errors import StoreError
from bluffdice.store.store import Store


class ContestBase(DeclarativeBase):
    pass


class ContestRow(ContestBase):
    __tablename__ = "maexchen_contests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    rules: Mapped[str] = mapped_column(Text)
    """The rules of one round (the engine's rule string)."""
    bluffdice_version: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class RoundRow(ContestBase):
    __tablename__ = "maexchen_rounds"
    __table_args__ = (Index("ix_maexchen_rounds_contest_number", "contest_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    contest_id: Mapped[int] = mapped_column(ForeignKey("maexchen_contests.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    order: Mapped[list[str]] = mapped_column(JSON)
    seats: Mapped[list[str]] = mapped_column(JSON)
    steps: Mapped[list[str]] = mapped_column(JSON)
    losers: Mapped[list[str]] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(String(40))
    ruling: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    points: Mapped[dict[str, int]] = mapped_column(JSON)


class FairRoundRow(ContestBase):
    """What proves a fair round's dice: its record with the server seed revealed (the
    JSON `bluffdice verify` reads), kept apart from the round row so that contests
    without fair dice, and stores made before fair rounds existed, are unchanged."""

    __tablename__ = "maexchen_fair_rounds"

    contest_id: Mapped[int] = mapped_column(
        ForeignKey("maexchen_contests.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    commitment: Mapped[str] = mapped_column(String(64))
    fair: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass(frozen=True)
class StoredRound:
    contest_id: int
    number: int
    order: tuple[str, ...]
    seats: tuple[str, ...]
    record: Record
    losers: tuple[str, ...]
    reason: str
    ruling: dict[str, Any] | None
    points: dict[str, int]


@dataclass(frozen=True)
class StoredContest:
    id: int
    created: datetime
    rules: str
    options: dict[str, Any]
    seed: int | None
    rounds: int
    summary: dict[str, Any] | None


class ContestStore:
    """The contest tables of one `Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store._session("create the contest tables of"):
            ContestBase.metadata.create_all(store.engine)

    def start(self, rules: str, options: dict[str, Any], seed: int | None) -> int:
        with self.store._session("use") as session:
            row = ContestRow(
                created=datetime.now(UTC).replace(tzinfo=None),
                rules=rules,
                bluffdice_version=__version__,
                options=options,
                seed=None if seed is None else str(seed),
                rounds=0,
            )
            session.add(row)
            session.commit()
            return row.id

    def add_rounds(self, contest_id: int, rounds: Sequence[Any]) -> int:
        """Insert played rounds (`PlayedRound`s) in one transaction; returns how many."""
        rows = [
            {
                "contest_id": contest_id,
                "number": r.number,
                "order": list(r.order),
                "seats": list(r.seats),
                "steps": list(r.record.steps),
                "losers": list(r.losers),
                "reason": r.reason,
                "ruling": r.ruling,
                "points": dict(r.points),
            }
            for r in rounds
        ]
        if not rows:
            return 0
        proofs = [
            {
                "contest_id": contest_id,
                "number": r.number,
                "commitment": r.fair.commitment,
                "fair": msgspec.to_builtins(r.fair),
            }
            for r in rounds
            if getattr(r, "fair", None) is not None
        ]
        with self.store._session("use") as session:
            session.execute(insert(RoundRow), rows)
            if proofs:
                session.execute(insert(FairRoundRow), proofs)
            contest = session.get(ContestRow, contest_id)
            if contest is not None:
                contest.rounds += len(rows)
            session.commit()
        return len(rows)

    def finish(self, contest_id: int, summary: dict[str, Any]) -> None:
        with self.store._session("use") as session:
            contest = session.get(ContestRow, contest_id)
            if contest is None:
                raise StoreError(f"no contest {contest_id}")
            contest.summary = summary
            session.commit()

    def contests(self) -> list[StoredContest]:
        with self.store._session("use") as session:
            rows = session.scalars(select_rows(ContestRow).order_by(ContestRow.id))
            return [
                StoredContest(
                    id=c.id,
                    created=c.created,
                    rules=c.rules,
                    options=dict(c.options),
                    seed=None if c.seed is None else int(c.seed),
                    rounds=c.rounds,
                    summary=c.summary,
                )
                for c in rows
            ]

    def latest(self) -> int | None:
        with self.store._session("use") as session:
            return session.scalar(select_rows(func.max(ContestRow.id)))

    def rounds(self, contest_id: int) -> list[StoredRound]:
        """Every round of a contest, in the order played."""
        with self.store._session("use") as session:
            contest = session.get(ContestRow, contest_id)
            if contest is None:
                raise StoreError(f"no Mäxchen contest {contest_id} in {self.store.location}")
            rules = contest.rules
            query = (
                select_rows(RoundRow)
                .where(RoundRow.contest_id == contest_id)
                .order_by(RoundRow.number, RoundRow.id)
            )
            return [
                StoredRound(
                    contest_id=contest_id,
                    number=row.number,
                    order=tuple(row.order),
                    seats=tuple(row.seats),
                    record=Record(
                        game="mia", rules=rules, players=len(row.seats), steps=tuple(row.steps)
                    ),
                    losers=tuple(row.losers),
                    reason=row.reason,
                    ruling=row.ruling,
                    points=dict(row.points),
                )
                for row in session.scalars(query)
            ]

    def fair_round(self, contest_id: int | None, number: int) -> dict[str, Any]:
        """The fair record of round `number` (of the latest contest if None), as stored."""
        with self.store._session("use") as session:
            if contest_id is None:
                contest_id = session.scalar(select_rows(func.max(ContestRow.id)))
                if contest_id is None:
                    raise StoreError(f"no Mäxchen contest in {self.store.location}")
            if session.get(ContestRow, contest_id) is None:
                raise StoreError(f"no Mäxchen contest {contest_id} in {self.store.location}")
            row = session.get(FairRoundRow, (contest_id, number))
            if row is None:
                raise StoreError(
                    f"round {number} of Mäxchen contest {contest_id} was not played with fair "
                    "dice (or not played): nothing to verify (bluffdice maexchen --dice fair "
                    "keeps what verify needs)"
                )
            return dict(row.fair)
