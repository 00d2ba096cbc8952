"""`bluffdice serve`: one command starts the web server for playing with friends.

Starlette, uvicorn and SQLAlchemy are imported inside the command, so `bluffdice --help`
stays quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, err, fail, open_store

if TYPE_CHECKING:  # loads with --maexchen only
    from bluffdice.server.scoreboard import Scoreboard

SERVE_HELP = (
    "Play in the browser with friends: start the server and open the link it prints.\n\n"
    "No sign-up: each player picks a name; the browser keeps its seat, so a reload returns "
    "to the same seat. Create a table in the lobby (game, house rules, bots for empty "
    "seats, a turn time limit) and send the table's link to your friends. Every move is "
    "stored in --db before anyone sees it, so a restarted server resumes every unfinished "
    "table. Use --host 0.0.0.0 to let other machines on your network in.\n\n"
    "The server is ready for strangers: every limit below has a default meant for the open "
    "internet; change one with --limit NAME=VALUE (repeatable), or drop them all with "
    "--no-limits on a network you trust."
)


def limits_help() -> str:
    """The --limit option's help: every limit with its default and meaning (from the
    one table of them, `server.limits.Limits`), without importing the server."""
    from bluffdice.server.limits import described

    lines = [f"{name} ({default}): {meaning.rstrip('.')}" for name, default, meaning in described()]
    return "Change a limit, NAME=VALUE, repeatable. The limits, with their defaults: " + "; ".join(
        lines
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
    bot_tables: Annotated[
        int,
        typer.Option(
            min=0,
            max=10_000,
            help="Tables of bots only (no person seated) that may run at once; 0, the "
            "default, refuses them, since on the internet they only cost CPU.",
        ),
    ] = 0,
    limit: Annotated[
        list[str] | None,
        typer.Option("--limit", metavar="NAME=VALUE", help=limits_help()),
    ] = None,
    no_limits: Annotated[
        bool,
        typer.Option(
            "--no-limits",
            help="No limit at all (a trusted network, a benchmark): anybody who reaches the "
            "server can then fill it with tables and connections.",
        ),
    ] = False,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another origin allowed to open table websockets (e.g. a proxy's "
            "https://dice.example.org); the page's own address is always allowed."
        ),
    ] = None,
    maexchen: Annotated[
        bool,
        typer.Option(
            "--maexchen",
            help="Also host a Mäxchen bot contest (UDP, on --host) with its live scoreboard "
            "at /scoreboard; see bluffdice maexchen --help.",
        ),
    ] = False,
    maexchen_port: Annotated[
        int, typer.Option(help="With --maexchen: the contest's UDP port.", min=0, max=65535)
    ] = 9000,
    maexchen_house_bots: Annotated[
        str | None,
        typer.Option(help="With --maexchen: built-in bots to add as players (odds,cfr,...)."),
    ] = None,
    maexchen_dice: Annotated[
        str,
        typer.Option(help="With --maexchen: system or fair (each round verifiable)."),
    ] = "system",
) -> None:
    """The `serve` command; its help text is SERVE_HELP."""
    import uvicorn

    from bluffdice.server import Hall, create_app
    from bluffdice.server.limits import Limits, parse_settings
    from bluffdice.store.tables import TableStore

    try:
        settings = parse_settings(limit or [])
    except ValueError as exc:
        raise fail(str(exc)) from None
    limits = Limits.unlimited() if no_limits else Limits(bot_tables=bot_tables)
    limits = limits.changed(**settings)
    _check_tcp_port(host, port)
    store = open_store(db)
    tables = TableStore(store.engine)
    board = (
        _contest_board(host, maexchen_port, maexchen_house_bots, maexchen_dice, store)
        if maexchen
        else None
    )
    application = create_app(
        tables,
        Hall(tables, bot_delay=bot_delay, limits=limits),
        origins=origin or (),
        scoreboard=board,
    )
    shown = host
    if host in ("0.0.0.0", "::"):
        shown = lan_address() or "localhost"
    elif ":" in host:
        shown = f"[{host}]"
    err.print(f"bluffdice serve: database {store.location}")
    typer.echo(f"Open http://{shown}:{port}/ in a browser and send the link to your friends.")
    if board is not None:
        board.address = f"{shown}:{maexchen_port}"
        typer.echo(
            f"Mäxchen contest: bots send to udp {board.address}; the scoreboard is "
            f"http://{shown}:{port}/scoreboard"
        )
    try:
        uvicorn.run(
            application,
            host=host,
            port=port,
            # The sans-I/O implementation of `websockets`, by uvicorn's public name for it
            # (the legacy one and wsproto cost as much or more per frame).
            ws="websockets-sansio",
            ws_max_size=64 * 1024,
            # Moves and updates are small JSON: compressing them costs more than it saves.
            ws_per_message_deflate=False,
            log_level="warning",
        )
    except (OSError, SystemExit) as exc:
        raise fail(f"cannot serve on {host}:{port}: {exc}") from None


def _contest_board(
    host: str, port: int, house_bots: str | None, dice: str, store: Any
) -> Scoreboard:
    """With --maexchen: the contest (checked before anything starts) and its board."""
    from bluffdice.cli.maexchen import house_bot_specs
    from bluffdice.maexchen.contest import Contest
    from bluffdice.maexchen.server import Options
    from bluffdice.server.scoreboard import Scoreboard

    if dice not in ("system", "fair"):
        raise fail(f"--maexchen-dice must be system or fair, not {dice!r}")
    specs = house_bot_specs(house_bots)
    _check_udp_port(host, port)
    # spin=0: the contest shares its event loop with the web tables, whose moves must
    # not wait while the contest reads its socket for a bot's answer.
    contest = Contest(
        Options(host=host, port=port, spin=0.0),
        house_bots=specs,
        database=store,
        fair=dice == "fair",
    )
    return Scoreboard(contest)


def _bind_error(host: str, port: int, kind: int) -> OSError | None:
    """Why `host:port` cannot be bound for `kind` (SOCK_STREAM or SOCK_DGRAM), or None:
    checked before anything starts, so a taken port is one clear line, not an error from
    inside the running server."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=kind)
        with socket.socket(infos[0][0], kind) as probe:
            if kind == socket.SOCK_STREAM:  # as uvicorn binds it
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(infos[0][4])
    except OSError as exc:
        return exc
    return None


def _check_tcp_port(host: str, port: int) -> None:
    """Fail before the link is printed if the port is taken (uvicorn would say so only
    after the "Open http://..." line, and by its errno alone)."""
    import socket

    exc = _bind_error(host, port, socket.SOCK_STREAM)
    if exc is not None:
        raise fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")


def _check_udp_port(host: str, port: int) -> None:
    """Fail now if the contest's UDP port cannot be bound (the contest itself starts
    inside the web server, where the error would be obscure)."""
    import socket

    exc = _bind_error(host, port, socket.SOCK_DGRAM)
    if exc is not None:
        raise fail(f"cannot listen for the Mäxchen contest on udp {host}:{port}: {exc}")
