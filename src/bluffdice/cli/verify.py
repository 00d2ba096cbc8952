"""`bluffdice verify`: check a fair game's record; nobody has to be trusted about the dice.

The check recomputes every die from the revealed server seed and the players' seeds,
compares the seed with the commitment published before the first roll, and replays
every move through the rules (the scheme: `bluffdice docs fairness`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bluffdice.cli.app import app as cli
from bluffdice.cli.app import escape, fail, out

if TYPE_CHECKING:  # the rules engine loads when the command runs, not when the CLI starts
    from bluffdice.table.fair import Verdict

VERIFY_HELP = (
    "Check a provably fair game: the revealed server seed against the commitment shown "
    "before the first roll, every die recomputed from the seeds, every move replayed "
    "through the rules.\n\n"
    "Prints 'verified' and exits 0, or names the first roll or move that does not match "
    "and exits 1. Compare the commitment and digest it prints with the ones the table "
    "showed at the start and at the end of the game, or pass them as --commitment and "
    "--digest.\n\n"
    "The scheme, byte for byte, with test vectors: bluffdice docs fairness.\n\n"
    "Example: bluffdice verify game.json --commitment 9822581721ac... --digest c5acabeb9fd9..."
)


@cli.command(
    name="verify", help=VERIFY_HELP, short_help="Check the dice and moves of a provably fair game."
)
def verify_command(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD",
            help="A fair game record (JSON file), - to read it from standard input, the "
            "id of a stored game played with fair dice (tournament --dice fair), the URL "
            "of a browser table's record (bluffdice serve: the result screen's 'verify "
            "this game' link, or the table's own link), or maexchen:ROUND / "
            "maexchen:CONTEST:ROUND for a round of a Mäxchen contest run with --dice fair "
            "(default contest: the latest).",
            show_default=False,
        ),
    ],
    commitment: Annotated[
        str | None,
        typer.Option(help="The commitment the table showed before the first roll (hex)."),
    ] = None,
    digest: Annotated[
        str | None,
        typer.Option(help="The digest the table showed when the game ended (hex)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the verdict as JSON, nothing else.")
    ] = False,
    db: Annotated[
        str | None,
        typer.Option(
            help="With a game id: the store (SQLite file or SQLAlchemy URL); default: "
            "$BLUFFDICE_DB, else bluffdice.db in your data folder.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The `verify` command; its help text is VERIFY_HELP."""
    from bluffdice.table.fair import FairnessError, load_fair_record, verify

    try:
        fair = load_fair_record(_read(record, db))
    except FairnessError as exc:
        raise fail(f"{record}: {exc}") from None
    shown = {
        "commitment": _hex_option("--commitment", commitment),
        "digest": _hex_option("--digest", digest),
    }
    verdict = verify(fair)
    problem = verdict.problem
    for what, value in shown.items():
        recorded = getattr(verdict, what)
        if problem is None and value is not None and value != recorded:
            problem = f"the record's {what} {recorded} is not the one the table showed ({value})"
    if as_json:
        _print_json(verdict, problem)
    else:
        _print_text(verdict, problem)
    if problem is not None:
        raise typer.Exit(1)


def _hex_option(flag: str, value: str | None) -> str | None:
    """A commitment or digest as typed (any case, spaces around): 64 hex digits."""
    if value is None:
        return None
    text = value.strip().lower()
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise fail(f"{flag} takes the 64 hex digits the table showed, not {value!r}")
    return text


def _read(source: str, db: str | None = None) -> bytes:
    from bluffdice.table.fair import FairnessError

    if source == "-":
        return sys.stdin.buffer.read()
    if source.startswith(("http://", "https://")):
        return _fetch(source)
    path = Path(source)
    if source.isdigit() and not path.exists():
        return _stored(int(source), db)
    if source.startswith("maexchen:") and not path.exists():
        from bluffdice.cli.maexchen import stored_fair_round

        return stored_fair_round(source, db)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FairnessError("no such file") from None
    except IsADirectoryError:
        raise FairnessError("it is a folder, not a record file") from None
    except OSError as exc:
        raise FairnessError(f"cannot read it: {exc.strerror}") from None


URL_SECONDS = 15.0


def _fetch(url: str) -> bytes:
    """A fair record from a `bluffdice serve` (its export URL, or a table or replay page,
    which name the same game)."""
    import json
    import re
    import urllib.error
    import urllib.request
    from urllib.parse import urlsplit, urlunsplit

    from bluffdice.table.fair import FairnessError

    parts = urlsplit(url)
    page = re.fullmatch(r"/(?:t|replay)/([\w-]+)/?", parts.path)
    if page is not None:
        url = urlunsplit((parts.scheme, parts.netloc, f"/api/tables/{page[1]}/fair", "", ""))
    try:
        with urllib.request.urlopen(url, timeout=URL_SECONDS) as response:
            data: bytes = response.read(16 * 1024 * 1024)
            return data
    except urllib.error.HTTPError as exc:
        try:
            reason = json.loads(exc.read(4096))["error"]
        except (ValueError, KeyError, TypeError):
            reason = exc.reason
        raise FairnessError(f"the server answered {exc.code}: {reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        why = getattr(exc, "reason", None) or exc
        raise FairnessError(f"cannot reach {url}: {why}") from None


def _stored(game_id: int, db: str | None) -> bytes:
    """A stored game's fair record (tournaments with --dice fair keep it with the result)."""
    import msgspec

    from bluffdice.store import Store, StoreError
    from bluffdice.store.location import default_database
    from bluffdice.table.fair import FairnessError

    try:
        store = Store(db if db is not None else default_database(), create=False)
        try:
            stored = store.game(game_id)
        finally:
            store.close()
    except StoreError as exc:
        raise FairnessError(str(exc)) from None
    fair = stored.result.get("fair")
    if fair is None:
        raise FairnessError(
            f"game {game_id} was not played with fair dice: nothing to verify "
            "(tournament --dice fair keeps what verify needs)"
        )
    return msgspec.json.encode(fair)


def _rules_name(text: str) -> str:
    from bluffdice.games.registry import parse_rules, preset_name

    try:
        return preset_name(parse_rules(text)) or text
    except ValueError:
        return text


def _print_text(verdict: Verdict, problem: str | None) -> None:
    game = f"{verdict.game} game ({escape(_rules_name(verdict.rules))}), {verdict.players} players"
    if problem is None:
        over = "" if verdict.finished else " (the game is not over)"
        out.print(
            f"[bold green]verified[/]: {game}{over}: {verdict.rolls} rolls and "
            f"{verdict.steps} steps match",
            highlight=False,
            soft_wrap=True,
        )
    else:
        out.print(
            f"[bold red]not verified[/]: {game}: {escape(problem)}",
            highlight=False,
            soft_wrap=True,
        )
    out.print(f"commitment: {verdict.commitment}\ndigest:     {verdict.digest}", highlight=False)


def _print_json(verdict: Verdict, problem: str | None) -> None:
    import json

    data = {
        "verified": problem is None,
        "problem": problem,
        "game": verdict.game,
        "rules": verdict.rules,
        "players": verdict.players,
        "rolls": verdict.rolls,
        "steps": verdict.steps,
        "finished": verdict.finished,
        "commitment": verdict.commitment,
        "digest": verdict.digest,
    }
    typer.echo(json.dumps(data, indent=2))
