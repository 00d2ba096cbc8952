"""`bluffdice serve`: one command starts the web server for playing with friends.

Starlette, uvicorn and SQLAlchemy are imported inside the command, so `bluffdice --help`
stays quick.
"""

from __future__ import annotations

from typing import Annotated

import typer

from bluffdice.cli.app import app, err, fail, open_store

SERVE_HELP = (
    "Play in the browser with friends: start the server and open the link it prints.\n\n"
    "No sign-up: each player picks a name; the browser keeps its seat, so a reload returns "
    "to the same seat. Create a table in the lobby (game, house rules, bots for empty "
    "seats, a turn time limit) and send the table's link to your friends. Every move is "
    "stored in --db before anyone sees it, so a restarted server resumes every unfinished "
    "table. Use --host 0.0.0.0 to let other machines on your network in."
)


def lan_address() -> str | None:
    """This machine's address on the local network, for the link friends open."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: only picks the route
            address: str = probe.getsockname()[0]
            return address
    except OSError:
        return None


@app.command(help=SERVE_HELP, short_help="Play in the browser with friends: start the web server.")
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: every network interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLite file or SQLAlchemy URL (postgresql+psycopg://...); default: "
            "$BLUFFDICE_DB, else bluffdice.db in the user data folder."
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(help="Seconds a bot waits before it moves, so people can follow.", min=0),
    ] = 0.8,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another origin allowed to open table websockets (e.g. a proxy's "
            "https://dice.example.org); the page's own address is always allowed."
        ),
    ] = None,
) -> None:
    """The `serve` command; its help text is SERVE_HELP."""
    import uvicorn

    from bluffdice.server import Hall, create_app
    from bluffdice.store.tables import TableStore

    store = open_store(db)
    tables = TableStore(store.engine)
    application = create_app(tables, Hall(tables, bot_delay=bot_delay), origins=origin or ())
    shown = host
    if host in ("0.0.0.0", "::"):
        shown = lan_address() or "localhost"
    elif ":" in host:
        shown = f"[{host}]"
    err.print(f"bluffdice serve: database {store.location}")
    typer.echo(f"Open http://{shown}:{port}/ in a browser and send the link to your friends.")
    try:
        uvicorn.run(
            application,
            host=host,
            port=port,
            ws_max_size=64 * 1024,
            # Moves and updates are small JSON: compressing them costs more than it saves.
            ws_per_message_deflate=False,
            log_level="warning",
        )
    except (OSError, SystemExit) as exc:
        raise fail(f"cannot serve on {host}:{port}: {exc}") from None
