"""The tables: one row per tournament, one row per game with its full record, and the
schema version (see `bluffdice.store.schema` for how older stores are upgraded)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class SchemaRow(Base):
    """One row: the store's schema version and the bluffdice that last wrote it."""

    __tablename__ = "bluffdice_schema"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    written_by: Mapped[str] = mapped_column(String(40))


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    game: Mapped[str] = mapped_column(String(40))
    rules: Mapped[str] = mapped_column(Text)
    """Every option written out (`rules_string(..., full=True)`), defaults included."""
    bluffdice_version: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The bluffdice that ran it; None for tournaments stored before schema 2."""
    bots: Mapped[list[str]] = mapped_column(JSON)
    """Bot specs in tournament order (names, files or modules)."""
    names: Mapped[list[str]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(40))
    """Text: seeds may exceed what a database integer column holds."""
    played: Mapped[int] = mapped_column(Integer, default=0)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (Index("ix_games_tournament_index", "tournament_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=True
    )
    index: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(40))
    rules: Mapped[str] = mapped_column(Text)
    """Every option written out, so a later change of a default never changes the game."""
    bluffdice_version: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The bluffdice that played it; None for games stored before schema 2."""
    players: Mapped[int] = mapped_column(Integer)
    bots: Mapped[list[str]] = mapped_column(JSON)
    """The bot's display name in each seat."""
    steps: Mapped[list[str]] = mapped_column(JSON)
    """The record: every chance outcome (dice) and action as text, in order."""
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    person_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat a person played (a game of `bluffdice play`); None: bots only."""
