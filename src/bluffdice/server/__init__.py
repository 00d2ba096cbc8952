"""`bluffdice serve`: play in the browser with friends (Starlette, websockets, the store).

`create_app(store)` is the web application; `Hall` holds the tables; the page itself is
plain HTML, CSS and JavaScript modules in `static/`, with no build step and no CDN.
"""

from bluffdice.server.app import create_app
from bluffdice.server.connections import Connection
from bluffdice.server.hall import Hall
from bluffdice.server.refusals import HallError
from bluffdice.server.tables import LiveTable

__all__ = ["Connection", "Hall", "HallError", "LiveTable", "create_app"]
