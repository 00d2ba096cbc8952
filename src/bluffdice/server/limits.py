"""What an anonymous visitor may make the server do: every limit of `bluffdice serve`,
each a setting with a default meant for a server on the open internet. `bluffdice serve
--limit NAME=VALUE` changes one (`--help` lists them all, with these words);
docs/server.md, "Limits", has the table, which a test keeps equal to this class.

The hall enforces the limits on tables, games, reviews and seats; the web application
enforces those on request bodies and connections.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Limits:
    tables_per_address: int = field(
        default=10,
        metadata={"help": "Open and running tables one address may have created at once."},
    )
    tables: int = field(default=1000, metadata={"help": "Open and running tables in all."})
    open_seconds: float = field(
        default=3600.0,
        metadata={
            "help": "An open table whose seats are not all taken by then is closed as abandoned."
        },
    )
    idle_seconds: float = field(
        default=6 * 3600.0,
        metadata={"help": "A running table with no step for this long is closed as abandoned."},
    )
    bot_tables: int = field(
        default=0, metadata={"help": "Tables of bots only, running at once (0: refused)."}
    )
    game_steps: int = field(
        default=2000,
        metadata={
            "help": "Steps (moves and rolls) of one game; a game that reaches it is abandoned."
        },
    )
    reviews: int = field(
        default=1,
        metadata={"help": "Reviews rated at once, each in a worker process of its own."},
    )
    review_queue: int = field(
        default=8,
        metadata={
            "help": "Reviews waiting for a worker; one asked beyond that is refused as busy."
        },
    )
    review_steps: int = field(
        default=600, metadata={"help": "The longest game (in steps) the server reviews."}
    )
    body_bytes: int = field(
        default=64 * 1024,
        metadata={
            "help": "The largest request body (413 beyond it, by Content-Length or streamed)."
        },
    )
    connections_per_address: int = field(
        default=50, metadata={"help": "Websockets open at once from one address."}
    )
    connections_per_table: int = field(
        default=100,
        metadata={"help": "Websockets open at once to one table (players and spectators)."},
    )
    away_seconds: float = field(
        default=120.0,
        metadata={
            "help": "A seated player offline this long may be replaced by the table's creator."
        },
    )
    resume_batch: int = field(
        default=50,
        metadata={
            "help": "Stored tables loaded per turn of the event loop after a restart (lazy resume)."
        },
    )

    @classmethod
    def unlimited(cls) -> Limits:
        """Limits no test or benchmark reaches: the server as it ran before them."""
        big = 10**9
        return cls(**{f.name: big for f in fields(cls)})

    def changed(self, **values: Any) -> Limits:
        """These limits with some changed (None leaves a value as it is)."""
        now = {f.name: getattr(self, f.name) for f in fields(self)}
        now.update({name: value for name, value in values.items() if value is not None})
        return Limits(**now)


def described() -> list[tuple[str, str, str]]:
    """Each limit's name, default (as typed on the command line) and meaning."""
    default = Limits()
    return [(f.name, f"{getattr(default, f.name):g}", f.metadata["help"]) for f in fields(Limits)]


def parse_settings(settings: list[str]) -> dict[str, int | float]:
    """`["tables=50", "idle_seconds=600"]` as limit values; ValueError says what is wrong."""
    kinds = {f.name: f.type for f in fields(Limits)}
    values: dict[str, int | float] = {}
    for setting in settings:
        name, equals, text = setting.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or name not in kinds:
            known = ", ".join(kinds)
            raise ValueError(f"--limit {setting!r}: write NAME=VALUE with a NAME of {known}")
        try:
            value: int | float = int(text) if kinds[name] in (int, "int") else float(text)
        except ValueError:
            kind = "a whole number" if kinds[name] in (int, "int") else "a number"
            raise ValueError(f"--limit {name}: {text!r} is not {kind}") from None
        if not value >= 0 or value == float("inf"):
            raise ValueError(f"--limit {name}: {text!r} must be 0 or more (and finite)")
        values[name] = value
    return values
