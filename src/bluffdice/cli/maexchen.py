"""`bluffdice maexchen`: host a Mäxchen bot contest over UDP; `... standings` ranks it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, err, fail, open_store, out, plot_target, rules_option

if TYPE_CHECKING:  # the server, Rich tables and the store load when a command runs
    from rich.table import Table as RichTable

MAEXCHEN_HELP = (
    "Host a Mäxchen (Mia) bot contest: the UDP text protocol the coding-dojo bots speak, "
    "on port 9000 by default.\n\n"
    "Bots register with REGISTER;name (or REGISTER;name;secret, so that nobody else can "
    "take the name) and play round after round until you stop the server (Ctrl-C). Every "
    "round is stored; a live scoreboard shows scores and openskill ratings. --house-bots "
    "adds built-in bots as players, over UDP like everyone else.\n\n"
    "Example: bluffdice maexchen --house-bots odds,cfr,adaptive\n\n"
    "Running a contest step by step: bluffdice docs maexchen"
)

maexchen_app = typer.Typer(
    help=MAEXCHEN_HELP,
    short_help="Host a Mäxchen bot contest over UDP (the coding-dojo protocol).",
    no_args_is_help=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(maexchen_app, name="maexchen")

DB_HELP = (
    "SQLite file or SQLAlchemy URL for the rounds; default: $BLUFFDICE_DB, else "
    "bluffdice.db in your data folder."
)

REQUIRED = {"blind": False, "pass_allowed": False, "mia_end": "instant", "mode": "score"}
"""What the protocol fixes: every roll is seen, no pass, Mia shown at once, scored."""


@maexchen_app.callback(invoke_without_command=True)
def maexchen(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every one).")] = (
        "0.0.0.0"
    ),
    port: Annotated[int, typer.Option(help="UDP port (0: any free port, shown).")] = 9000,
    timeout: Annotated[
        float, typer.Option(help="Seconds a bot has to answer (join, turn, announce).")
    ] = 0.25,
    early_start: Annotated[
        bool,
        typer.Option(
            "--early-start/--full-window",
            help="Start a round as soon as every player joined, or always wait out the "
            "join window (the classic servers).",
        ),
    ] = True,
    rounds: Annotated[
        int | None, typer.Option(help="Stop after this many rounds (default: Ctrl-C).")
    ] = None,
    duration: Annotated[
        float | None, typer.Option(help="Stop after this many seconds.", metavar="SECONDS")
    ] = None,
    house_bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated built-in bots to add as players (odds,cfr,adaptive,...)."
        ),
    ] = None,
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            "-r",
            help="Mia rules of a round: the maexchen preset, or a rule string keeping its "
            "blind=off, pass=off, mia_end=instant, mode=score.",
        ),
    ] = "maexchen",
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed for dice and seat shuffles (reproducible test contests); default: the "
            "operating system's cryptographic generator."
        ),
    ] = None,
    dice: Annotated[
        str,
        typer.Option(
            help="system (the operating system's generator; seeded with --seed) or fair: "
            "every round's dice come from a commit-reveal stream; the round's commitment is "
            "stored (and shown on the web scoreboard) before its first die, its seed after "
            "it, and `bluffdice verify maexchen:CONTEST:ROUND` checks it.",
        ),
    ] = "system",
    max_datagram: Annotated[
        int, typer.Option(help="Longer datagrams are dropped unread (bytes).")
    ] = 512,
    rate: Annotated[
        float, typer.Option(help="Datagrams per second one address may send.")
    ] = 5000.0,
    require_secret: Annotated[
        bool,
        typer.Option(
            "--require-secret",
            help="Register players only with a secret (REGISTER;name;secret), so no other "
            "process can take a name over, not even from the same host.",
        ),
    ] = False,
    table_size: Annotated[
        int | None,
        typer.Option(
            min=2,
            max=200,
            help="At most this many players a round, a fair random sample of those "
            "registered; default: every registered player plays every round, as the "
            "canonical contest server seats them.",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict/--canonical",
            help="Read datagrams strictly (exactly a command's fields, one digit per die, "
            "a trailing line end stripped), or as the canonical contest server reads them "
            "(extra fields ignored, dice read as numbers, a line end kept).",
        ),
    ] = False,
    spin: Annotated[
        int,
        typer.Option(
            help="Microseconds the server keeps reading for an awaited answer before it "
            "sleeps (0: sleep at once). Bots on the same machine answer within it and the "
            "server need not be woken for each answer; it gives the CPU to any other "
            "process that wants it meanwhile.",
            metavar="MICROSECONDS",
        ),
    ] = 500,
    db: Annotated[str | None, typer.Option(help=DB_HELP, show_default=False)] = None,
    store: Annotated[bool, typer.Option("--store/--no-store", help="Store every round.")] = True,
    live: Annotated[
        bool,
        typer.Option(
            "--live/--no-live", help="Show the live scoreboard (on stderr, when it is a terminal)."
        ),
    ] = True,
    as_json: Annotated[
        bool, typer.Option("--json", help="At the end, print the results as JSON only.")
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(help="At the end, draw the ratings to this .png or .svg.", metavar="FILE"),
    ] = None,
) -> None:
    """Run the contest server (see MAEXCHEN_HELP)."""
    import signal

    if ctx.invoked_subcommand is not None:
        return
    # Ctrl-C from here on stops the contest cleanly, even while the bots still load
    # (some libraries swallow KeyboardInterrupt while they are imported).
    interrupted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: interrupted.append(number))
    import asyncio

    from bluffdice.maexchen.server import Options, loop_factory

    parsed = rules_option(rules, "mia")
    wrong = [k for k, v in REQUIRED.items() if getattr(parsed, k) != v]
    if wrong:
        raise fail(
            f"the Mäxchen protocol needs {', '.join(wrong)} as in the maexchen preset "
            "(blind=off, pass=off, mia_end=instant, mode=score)"
        )
    if not 0 < timeout <= 60:
        raise fail(f"--timeout must be between 0 and 60 seconds, not {timeout}")
    if not 0 <= port <= 65535:
        raise fail(f"--port must be between 0 and 65535, not {port}")
    if rounds is not None and rounds < 1:
        raise fail(f"--rounds must be at least 1, not {rounds}")
    if not 64 <= max_datagram <= 65507:
        raise fail(f"--max-datagram must be between 64 and 65507, not {max_datagram}")
    if rate <= 0:
        raise fail(f"--rate must be positive, not {rate}")
    if not 0 <= spin <= 100_000:
        raise fail(f"--spin must be between 0 and 100000 microseconds, not {spin}")
    if dice not in ("system", "fair"):
        raise fail(f"--dice must be system or fair, not {dice!r}")
    specs = house_bot_specs(house_bots)
    plot = plot_target(plot)
    options = Options(
        host=host,
        port=port,
        timeout=timeout,
        early_start=early_start,
        max_datagram=max_datagram,
        rate=rate,
        strict=strict,
        require_secret=require_secret,
        table_size=table_size,
        burst=max(rate / 10, 50.0),
        rounds=rounds,
        spin=spin / 1e6,
    )
    if interrupted:
        signal.signal(signal.SIGINT, previous)
        raise fail("interrupted before the contest started", 130)
    database = open_store(db) if store else None
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            summary = runner.run(
                _serve(
                    options,
                    parsed,
                    seed,
                    specs,
                    database,
                    duration,
                    # Rich draws a live table on a terminal only; elsewhere (a log file)
                    # it would print the last frame next to the final table, unended.
                    live and not as_json and err.is_terminal,
                    interrupted,
                    fair=dice == "fair",
                )
            )
    finally:
        signal.signal(signal.SIGINT, previous)
    if database is not None:
        database.close()
    if plot is not None:
        _plot(summary["standings"], plot, f"Mäxchen contest {summary.get('contest') or ''}")
    if as_json:
        out.print_json(json.dumps(summary))
        return
    out.print(_scoreboard(summary["standings"], summary))


def house_bot_specs(text: str | None) -> list[str]:
    """--house-bots as a list of bot specs, each checked to load (else a clean error)."""
    specs = [s.strip() for s in text.split(",") if s.strip()] if text else []
    if specs:
        from bluffdice.bots.base import load_bot
        from bluffdice.errors import BluffdiceError

        for spec in specs:
            try:
                load_bot(spec, "mia")
            except BluffdiceError as exc:
                raise fail(str(exc)) from None
    return specs


async def _serve(
    options: Any,
    rules: Any,
    seed: int | None,
    specs: list[str],
    database: Any,
    duration: float | None,
    live: bool,
    interrupted: list[int],
    fair: bool = False,
) -> dict[str, Any]:
    import asyncio
    import contextlib
    import signal

    from rich.live import Live

    from bluffdice.maexchen.contest import Contest

    contest = Contest(options, rules, seed, specs, database, fair=fair)
    try:
        address = await contest.start()
    except OSError as exc:
        raise fail(
            f"cannot listen on {options.host}:{options.port}: {exc.strerror or exc}"
        ) from None
    except (RuntimeError, TimeoutError) as exc:
        raise fail(f"house bots: {exc}") from None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, contest.stop)
    err.print(
        f"Mäxchen server on udp {address[0]}:{address[1]}"
        + (f", contest {contest.number} in {contest.location}" if contest.number else "")
        + ". Ctrl-C stops it.",
        highlight=False,
    )
    if interrupted:
        contest.stop()
    display = Live(console=err, refresh_per_second=4, transient=False) if live else None

    def show() -> None:
        if display is not None:
            now = contest.summary()
            display.update(_scoreboard(now["standings"], now))

    try:
        if display is not None:
            display.start()
        await contest.run(duration, show)
    finally:
        if display is not None:
            display.stop()
        result = await contest.close()
    return result


def _scoreboard(lines: list[dict[str, Any]], summary: dict[str, Any]) -> RichTable:
    from rich.table import Table as RichTable

    title = f"Mäxchen contest {summary.get('contest') or ''}".strip()
    speed = summary.get("rounds_per_second")
    caption = (
        f"{summary['rounds']} rounds"
        + (f", {speed} rounds/s, udp {summary['address']}" if speed is not None else "")
        + "; lost %: rounds lost, Wilson interval; mu: openskill rating (each round: "
        "losers last), mu ± 1.96 sigma"
    )
    table = RichTable(title=title, caption=caption)
    for column in ("player", "score", "rounds", "lost %", "95 % CI", "mu", "95 %"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for line in lines:
        table.add_row(
            line["name"],
            str(line["score"]),
            str(line["rounds"]),
            f"{100 * line['loss_rate']:.1f}",
            f"{100 * line['loss_low']:.1f}-{100 * line['loss_high']:.1f}",
            f"{line['mu']:.1f}",
            f"{line['low']:.1f}-{line['high']:.1f}",
        )
    return table


def _plot(lines: list[dict[str, Any]], path: Path, title: str) -> None:
    from matplotlib.figure import Figure

    from bluffdice.cli.app import write_plot

    names = [line["name"] for line in lines]
    rows = list(range(len(names)))[::-1]
    fig = Figure(figsize=(8, 1.2 + 0.45 * max(1, len(names))), layout="constrained")
    axes = fig.subplots()
    mus = [line["mu"] for line in lines]
    spread = [line["high"] - line["mu"] for line in lines]
    axes.errorbar(mus, rows, xerr=spread, fmt="o", capsize=4, color="tab:blue")
    axes.set_yticks(rows, names)
    axes.set_xlabel("openskill rating: mu, 95 % interval")
    axes.grid(axis="x", alpha=0.3)
    fig.suptitle(title)
    write_plot(fig, path)


@maexchen_app.command(
    help="The standings of a stored contest (default: the latest): scores, rounds lost with a "
    "95 % Wilson interval, and openskill ratings with 95 % intervals, recomputed from the "
    "stored rounds, during the contest or long after.",
    short_help="The standings of a stored contest.",
)
def standings(
    contest: Annotated[
        int | None, typer.Option(help="Contest number (default: the latest).")
    ] = None,
    db: Annotated[str | None, typer.Option(help=DB_HELP, show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw the ratings to this .png or .svg.", metavar="FILE"),
    ] = None,
) -> None:
    """Scores, losses and ratings recomputed from the stored rounds."""
    import msgspec

    from bluffdice.errors import BluffdiceError
    from bluffdice.maexchen.standings import ContestStandings
    from bluffdice.store.maexchen import ContestStore

    plot = plot_target(plot)
    database = open_store(db, create=False)
    try:
        contests = ContestStore(database)
        number = contest if contest is not None else contests.latest()
        if number is None:
            raise fail(f"no Mäxchen contest in {database.location}")
        try:
            played = contests.rounds(number)
        except BluffdiceError as exc:
            raise fail(str(exc)) from None
    finally:
        database.close()
    table = ContestStandings()
    for r in played:
        table.add(r, r.reason)
    lines = [msgspec.to_builtins(line) for line in table.lines()]
    summary = {
        "contest": number,
        "rounds": table.rounds,
        "reasons": dict(sorted(table.reasons.items())),
        "standings": lines,
    }
    if plot is not None:
        _plot(lines, plot, f"Mäxchen contest {number}")
    if as_json:
        out.print_json(json.dumps(summary))
        return
    out.print(_scoreboard(lines, summary))


def stored_fair_round(source: str, db: str | None) -> bytes:
    """`maexchen:ROUND` or `maexchen:CONTEST:ROUND` as the stored fair record `bluffdice
    verify` checks; bad input or a round without fair dice is a FairnessError."""
    import msgspec

    from bluffdice.store import Store, StoreError
    from bluffdice.store.location import default_database
    from bluffdice.store.maexchen import ContestStore
    from bluffdice.table.fair import FairnessError

    parts = source.split(":")[1:]
    if not 1 <= len(parts) <= 2 or not all(p.isdigit() for p in parts):
        raise FairnessError(
            "a stored Mäxchen round is maexchen:ROUND or maexchen:CONTEST:ROUND (numbers)"
        )
    contest = int(parts[0]) if len(parts) == 2 else None
    number = int(parts[-1])
    try:
        store = Store(db if db is not None else default_database(), create=False)
        try:
            fair = ContestStore(store).fair_round(contest, number)
        finally:
            store.close()
    except StoreError as exc:
        raise FairnessError(str(exc)) from None
    return msgspec.json.encode(fair)
