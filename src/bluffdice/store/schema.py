"""The store's schema version, and the steps that bring an older store up to date.

A store keeps games for years, across bluffdice upgrades. Each change of the tables gets
a new `SCHEMA_VERSION` and a step in `STEPS` that turns the previous version into it, in
one transaction: opening an older store upgrades it in place, and a store written by a
newer bluffdice (a version above ours) is refused with a clear error instead of being
misread. Steps are plain SQL plus data rewrites that do not use today's models, so they
keep working after the models change again.

Versions:
1. bluffdice 0.1.0: `tournaments` and `games`, no version table; rules written as the
   options that differed from the defaults of the time.
2. `bluffdice_schema` (this version and who wrote it); `bluffdice_version` on tournaments
   and games; rules written with every option (defaults of version 1 filled in).
3. `web_tables` and `web_steps`: the tables played in the browser (`bluffdice serve`,
   `bluffdice.store.tables`), one row per table and one per step.
4. `person_seat` on games: the seat a person played (`bluffdice play`), None for games
   of bots only, so `bluffdice review last` finds the person's last game.
5. `web_fair`: the secret server seed and commitment of each browser table played with
   provably fair dice (`bluffdice serve`, docs/fairness.md).
6. `web_access`: whether the lobby lists a browser table and the digest of its creator's
   token (tables are private by default); older tables have no row and stay listed.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    select,
    text,
)
from sqlalchemy.orm import Session

from bluffdice import __version__
from bluffdice.games.base import BluffdiceError
from bluffdice.store import tables as _web_tables  # noqa: F401  (its rows join Base)
from bluffdice.store.errors import StoreError
from bluffdice.store.models import Base, SchemaRow

SCHEMA_VERSION = 6

V1_DEFAULTS = {
    "mia": (
        "mia(lives=6,doubles_ascending=off,little_mia=off,halbmeier=off,pips=off,joker32=off,"
        "pass=on,relaxed_raise=off,blind=on,mia_doubled=off,beat_mia=off,mia_end=receiver,"
        "mia_starter=loser,end=last_standing,mode=lives,rounds=10)"
    ),
    "liars-dice": (
        "liars-dice(dice=5,faces=6,wild=ones,raise=reset-face,ones_bids=off,calza=off,"
        "palifico=off,single_round=off,start=random)"
    ),
    "common-hand": "common-hand(lives=3,straights=on,reroll=on,start=random)",
}
"""Every option of each game as bluffdice 0.1.0 defaulted it: what a version-1 rule
string left out meant when it was written (frozen here, whatever the defaults are now)."""


class SchemaError(StoreError):
    """The store was written by a newer bluffdice, or cannot be upgraded."""


def prepare(engine: Engine, where: str) -> None:
    """Make the store at `engine` current: create a new one, upgrade an older one, refuse
    one from a newer bluffdice. `where` names the store in messages."""
    found, written_by = stored_version(engine)
    if found == 0:
        Base.metadata.create_all(engine)
        with Session(engine) as session:
            session.add(SchemaRow(id=1, version=SCHEMA_VERSION, written_by=__version__))
            session.commit()
        return
    if found > SCHEMA_VERSION:
        raise SchemaError(
            f"the database {where} was written by a newer bluffdice "
            f"({written_by or 'unknown version'}, store schema {found}); this bluffdice "
            f"{__version__} reads store schema {SCHEMA_VERSION} and older: upgrade bluffdice "
            "(pip install --upgrade bluffdice) or give another --db"
        )
    if found == SCHEMA_VERSION:
        return
    with engine.begin() as connection:
        for version in range(found, SCHEMA_VERSION):
            STEPS[version](connection)
        connection.execute(
            text("UPDATE bluffdice_schema SET version = :v, written_by = :w WHERE id = 1"),
            {"v": SCHEMA_VERSION, "w": __version__},
        )


def stored_version(engine: Engine) -> tuple[int, str | None]:
    """(schema version, bluffdice version that wrote it); (0, None) for an empty database."""
    tables = set(inspect(engine).get_table_names())
    if "bluffdice_schema" in tables:
        with Session(engine) as session:
            row = session.execute(select(SchemaRow.version, SchemaRow.written_by)).first()
        if row is None:
            raise SchemaError("the store's version table is empty: it is not a bluffdice store")
        return int(row[0]), row[1]
    if {"tournaments", "games"} <= tables:
        return 1, None
    if tables & {"tournaments", "games"}:
        raise SchemaError(
            f"the database holds only some of bluffdice's tables ({', '.join(sorted(tables))})"
        )
    return 0, None


def _v1_to_v2(connection: Connection) -> None:
    connection.execute(
        text(
            "CREATE TABLE bluffdice_schema (id INTEGER NOT NULL PRIMARY KEY, "
            "version INTEGER NOT NULL, written_by VARCHAR(40) NOT NULL)"
        )
    )
    connection.execute(
        text("INSERT INTO bluffdice_schema (id, version, written_by) VALUES (1, 1, '0.1.0')")
    )
    for table in ("tournaments", "games"):
        connection.execute(text(f"ALTER TABLE {table} ADD COLUMN bluffdice_version VARCHAR(40)"))
        pairs = connection.execute(text(f"SELECT DISTINCT game, rules FROM {table}")).all()
        for game, rules in pairs:
            full = _v1_full_rules(game, rules)
            if full != rules:
                connection.execute(
                    text(f"UPDATE {table} SET rules = :full WHERE game = :game AND rules = :old"),
                    {"full": full, "game": game, "old": rules},
                )


def _v1_full_rules(game: str, rules: str) -> str:
    """A version-1 rule string with every option written out, read against the defaults
    it was written under (V1_DEFAULTS); one that cannot be read stays as it was."""
    from bluffdice.games.registry import parse_rules, rules_string
    from bluffdice.games.rulestring import apply_options, split_rule_string

    base = V1_DEFAULTS.get(game)
    if base is None:
        return rules
    try:
        name, pairs = split_rule_string(rules)
        if name != game:
            return rules
        return rules_string(apply_options(game, parse_rules(base), pairs), full=True)
    except BluffdiceError:
        return rules


def _v2_to_v3(connection: Connection) -> None:
    """The browser tables, as version 3 defined them (frozen here, not today's models)."""
    meta = MetaData()
    Table(
        "web_tables",
        meta,
        Column("id", String(32), primary_key=True),
        Column("created", DateTime, nullable=False),
        Column("game", String(40), nullable=False),
        Column("rules", Text, nullable=False),
        Column("players", Integer, nullable=False),
        Column("limit", Float, nullable=True),
        Column("status", String(16), nullable=False),
        Column("seats", JSON, nullable=False),
        Column("rematch", String(32), nullable=True),
        Column("result", JSON, nullable=True),
    )
    Table(
        "web_steps",
        meta,
        Column(
            "table_id",
            String(32),
            ForeignKey("web_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("n", Integer, primary_key=True),
        Column("actor", Integer, nullable=False),
        Column("text", Text, nullable=False),
    )
    meta.create_all(connection)


def _v3_to_v4(connection: Connection) -> None:
    connection.execute(text("ALTER TABLE games ADD COLUMN person_seat INTEGER"))


def _v4_to_v5(connection: Connection) -> None:
    """The fair tables' seeds, as version 5 defined them."""
    meta = MetaData()
    Table("web_tables", meta, Column("id", String(32), primary_key=True))
    Table(
        "web_fair",
        meta,
        Column(
            "table_id",
            String(32),
            ForeignKey("web_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("server_seed", String(64), nullable=False),
        Column("commitment", String(64), nullable=False),
    )
    meta.tables["web_fair"].create(connection)


def _v5_to_v6(connection: Connection) -> None:
    """Who may do what at a browser table, as version 6 defined it."""
    meta = MetaData()
    Table("web_tables", meta, Column("id", String(32), primary_key=True))
    Table(
        "web_access",
        meta,
        Column(
            "table_id",
            String(32),
            ForeignKey("web_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("listed", Boolean, nullable=False),
        Column("host", String(64), nullable=True),
    )
    meta.tables["web_access"].create(connection)


STEPS: dict[int, Callable[[Connection], None]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
    5: _v5_to_v6,
}
"""STEPS[n] turns a version-n store into a version n+1 store."""
