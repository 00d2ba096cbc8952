"""Where the games are stored when nobody says: light enough for the CLI to import at start.

The default database is a file in the per-user data folder (`platformdirs`), so a
tournament run from any folder adds to the same store and `replay` finds it from any
other. `BLUFFDICE_DB` (a path or a SQLAlchemy URL) overrides it, and `--db` overrides both.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "BLUFFDICE_DB"
FILE_NAME = "bluffdice.db"


def default_database() -> str:
    """The database used without --db: $BLUFFDICE_DB, else the per-user data file."""
    chosen = os.environ.get(ENV_VAR, "").strip()
    if chosen:
        return chosen
    return str(user_data_file())


def user_data_file() -> Path:
    """`bluffdice.db` in the per-user data folder (e.g. ~/.local/share/bluffdice)."""
    from platformdirs import user_data_path  # costs ~20 ms: only when a store is opened

    return user_data_path("bluffdice", appauthor=False) / FILE_NAME


def is_default_location(target: str) -> bool:
    """Whether `target` is the per-user data file (its folder may be created for it)."""
    return Path(target).expanduser() == user_data_file()


def database_url(target: str) -> str:
    """A SQLAlchemy URL for `target`: a URL stays as it is, anything else is a SQLite file."""
    if "://" in target:
        return target
    return f"sqlite:///{Path(target).expanduser()}"


def sqlite_path(target: str) -> Path | None:
    """The file behind `target` when it is a SQLite file, else None."""
    url = database_url(target)
    if not url.startswith("sqlite:///"):
        return None
    return Path(url.removeprefix("sqlite:///"))
