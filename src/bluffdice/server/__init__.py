"""`bluffdice serve`: play in the browser with friends (Starlette, websockets, the store).

`create_app(store)` is the web application; `Hall` holds the tables; the page itself is
plain HTML, CSS and JavaScript modules in `static/`, with no build step and no CDN.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bluffdice.server.app import create_app
    from bluffdice.server.connections import Connection
    from bluffdice.server.hall import Hall
    from bluffdice.server.refusals import HallError
    from bluffdice.server.tables import LiveTable

__all__ = ["Connection", "Hall", "HallError", "LiveTable", "create_app"]

_HOMES = {
    "create_app": "bluffdice.server.app",
    "Connection": "bluffdice.server.connections",
    "Hall": "bluffdice.server.hall",
    "HallError": "bluffdice.server.refusals",
    "LiveTable": "bluffdice.server.tables",
}


def __getattr__(name: str) -> Any:
    """The package's names load on first use, so that `bluffdice serve --help` (which
    reads `server.limits`) does not import Starlette."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bluffdice.server' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
