"""`bluffdice replay`: a stored game move by move, every die shown, or the list of games.

A replayed game is over, so its viewer is a spectator who may see everything: the dice
of each roll are shown as they fell, and each announcement says what was under the cup.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, escape, fail, open_store, out
from bluffdice.errors import BluffdiceError
from bluffdice.store import StoreError

if TYPE_CHECKING:  # the games, the table and the store load when the command runs
    from bluffdice.games.base import Event
    from bluffdice.store import Store, StoredGame, StoredTournament

REPLAY_HELP = (
    "Replay a stored game move by move with all dice revealed, or list what is stored.\n\n"
    "Tournaments store every game, by default in bluffdice.db in your data folder "
    "($BLUFFDICE_DB or --db choose another); --list says where the store is and shows the "
    "tournaments with the ids of their games and the games you played (bluffdice play), "
    "--list --tournament N that tournament's games.\n\n"
    "Example: bluffdice replay --list, then bluffdice replay 1"
)


@app.command(help=REPLAY_HELP, short_help="Replay a stored game, or list the stored games.")
def replay(
    game_id: Annotated[
        int | None,
        typer.Argument(
            metavar="GAME_ID", help="The stored game's id (see --list).", show_default=False
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLite file or SQLAlchemy URL the games are stored in; default: "
            "$BLUFFDICE_DB, else bluffdice.db in your data folder.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON (the moves and their events), nothing else.")
    ] = False,
    list_: Annotated[
        bool,
        typer.Option(
            "--list", help="List the stored tournaments and your games (or one tournament's)."
        ),
    ] = False,
    tournament: Annotated[
        int | None, typer.Option(help="With --list: the games of this tournament.")
    ] = None,
    limit: Annotated[
        int, typer.Option(help="With --list: at most this many games (of each kind).")
    ] = 20,
) -> None:
    """The `replay` command; its help text is REPLAY_HELP."""
    if game_id is None and not list_:
        raise fail("give a GAME_ID to replay, or --list to see the stored games")
    if limit < 1:
        raise fail(f"--limit must be at least 1, not {limit}")
    store = open_store(db, create=False)
    try:
        if list_:
            _list(store, tournament, limit, as_json)
        else:
            assert game_id is not None
            _replay(store.game(game_id), as_json)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    finally:
        store.close()


def _list(store: Store, tournament: int | None, limit: int, as_json: bool) -> None:
    if tournament is None:
        _list_all(store, limit, as_json)
    else:
        _list_tournament(store, tournament, limit, as_json)


def _list_all(store: Store, limit: int, as_json: bool) -> None:
    """Where the store is, its tournaments and the games a person played."""
    rows = store.tournaments()
    first = {t.id: store.first_game_id(t.id) for t in rows}
    played = store.played_games(limit)
    if as_json:
        out.print_json(json.dumps(_listed_json(rows, first, played)))
        return
    out.print(f"Database: {escape(store.location)}", soft_wrap=True, highlight=False)
    out.print(_tournaments_table(rows, first) if rows else "No tournaments stored yet.")
    out.print(_played_table(played) if played else "No games you played stored yet.")


def _listed_json(
    rows: list[StoredTournament], first: dict[int, int | None], played: list[StoredGame]
) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = [
        {
            "kind": "tournament",
            "id": t.id,
            "created": t.created.isoformat(timespec="seconds"),
            "game": t.game,
            "rules": t.rules,
            "bots": list(t.names),
            "seats": t.seats,
            "games": t.games,
            "stored": t.played,
            "first_game_id": first[t.id],
            "seed": t.seed,
        }
        for t in rows
    ]
    data += [
        {
            "kind": "played",
            "id": g.id,
            "game": g.record.game,
            "rules": g.record.rules,
            "bots": list(g.bots),
            "person_seat": g.person_seat,
            "result": g.result,
            "seed": g.seed if g.seed >= 0 else None,
        }
        for g in played
    ]
    return data


def _tournaments_table(rows: list[StoredTournament], first: dict[int, int | None]) -> Any:
    """The stored tournaments, each with the range of its games' ids."""
    from rich.table import Table

    table = Table(title="Tournaments", title_style="bold")
    for column in ("id", "created", "rules", "bots", "games", "game ids", "seed"):
        table.add_column(
            column,
            justify="right" if column in ("id", "games") else "left",
            no_wrap=column != "bots",
        )
    for t in rows:
        start = first[t.id]
        ids = f"{start}-{start + t.played - 1}" if start is not None and t.played else "-"
        table.add_row(
            str(t.id),
            t.created.strftime("%Y-%m-%d %H:%M"),
            escape(_rules_name(t.rules)),
            escape(", ".join(t.names)),
            f"{t.played}/{t.games}",
            ids,
            str(t.seed),
        )
    return table


def _list_tournament(store: Store, tournament: int, limit: int, as_json: bool) -> None:
    """One tournament's games."""
    from rich.table import Table

    if tournament not in {t.id for t in store.tournaments()}:
        raise StoreError(f"no tournament {tournament} in {store.location} (see replay --list)")
    games = store.games(tournament, limit)
    if as_json:
        out.print_json(
            json.dumps(
                [
                    {"id": g.id, "index": g.index, "bots": list(g.bots), "result": g.result}
                    for g in games
                ]
            )
        )
        return
    table = Table(title=f"Games of tournament {tournament}", title_style="bold")
    for column in ("id", "game #", "seats", "winners", "rounds"):
        table.add_column(column)
    for g in games:
        table.add_row(
            str(g.id),
            str(g.index),
            escape(", ".join(g.bots)),
            escape(", ".join(g.bots[p] for p in g.result.get("winners", []))),
            str(g.result.get("rounds", "")),
        )
    out.print(table if games else f"No games stored for tournament {tournament}.")


def _played_table(games: list[StoredGame]) -> Any:
    """The games a person played (`bluffdice play`), newest first."""
    from rich.table import Table

    table = Table(title="Games you played (newest first)", title_style="bold")
    for column in ("id", "rules", "seats", "you", "result", "seed"):
        table.add_column(column, justify="right" if column == "id" else "left")
    for g in games:
        seat = g.person_seat if g.person_seat is not None else -1
        won = seat in g.result.get("winners", [])
        result = "left" if g.result.get("abandoned") else ("won" if won else "lost")
        table.add_row(
            str(g.id),
            escape(_rules_name(g.record.rules)),
            escape(", ".join(g.bots)),
            escape(g.bots[seat]) if 0 <= seat < len(g.bots) else "-",
            result,
            str(g.seed) if g.seed >= 0 else "-",
        )
    return table


def _rules_name(text: str) -> str:
    from bluffdice.games.registry import parse_rules, preset_name, rules_string

    try:  # stored rules name every option: show the preset, or only what differs
        return preset_name(parse_rules(text)) or rules_string(parse_rules(text))
    except BluffdiceError:
        return text


def _replay(stored: StoredGame, as_json: bool) -> None:
    from bluffdice.games.registry import get_game, parse_rules

    record = stored.record
    spec = get_game(record.game)
    names = list(stored.bots)
    rules = parse_rules(record.rules, game=spec.name)
    presenter = _presenter(rules)
    moves = _moves(stored, presenter)
    if as_json:
        out.print_json(json.dumps(_replay_json(stored, names, moves)))
        return
    viewer = stored.person_seat  # a game you played reads as you saw it: "You roll"
    out.print(_heading(stored, spec.title, names, viewer), highlight=False)
    _print_moves(presenter, moves, names, viewer)
    winners = ", ".join(
        escape(_subject(names, p, viewer)) for p in stored.result.get("winners", [])
    )
    places = stored.result.get("standings", [])
    order = " > ".join(escape(_subject(names, p, viewer)) for p in places)
    out.print(
        f"\n[bold]Winner: {winners or 'nobody'}[/]" + (f" · standings: {order}" if order else "")
    )


Move = tuple[int, str, str, list["Event"]]
"""A replayed step: who acted, what, what the cup held, the events."""


def _replay_json(stored: StoredGame, names: list[str], moves: list[Move]) -> dict[str, Any]:
    import msgspec

    record = stored.record
    return {
        "id": stored.id,
        "tournament": stored.tournament_id,
        "index": stored.index,
        "seed": stored.seed,
        "game": record.game,
        "rules": record.rules,
        "players": record.players,
        "bots": names,
        "person_seat": stored.person_seat,
        "result": stored.result,
        "steps": list(record.steps),
        "moves": [
            {
                "step": n,
                "player": player,
                "bot": names[player] if player >= 0 else None,
                "action": text,
                "hidden": hidden,
                "events": [msgspec.to_builtins(e) for e in events],
            }
            for n, (player, text, hidden, events) in enumerate(moves, start=1)
        ],
    }


def _heading(stored: StoredGame, title: str, names: list[str], viewer: int | None) -> str:
    """Which game, where it came from, its rules and seats."""
    seats = ", ".join(f"{p}: {escape(n)}" for p, n in enumerate(names))
    if viewer is not None:  # a game of `bluffdice play`
        seeded = f", seed {stored.seed}" if stored.seed >= 0 else ""
        person = names[viewer]
        by = "you" if person.strip().lower() == "you" else f"you ({escape(person)})"
        origin = f"played by {by}{seeded}"
    else:
        origin = f"tournament {stored.tournament_id}, game #{stored.index}, seed {stored.seed}"
    return (
        f"[bold]{title} game {stored.id}[/] ({origin})\nrules: "
        f"{escape(_rules_name(stored.record.rules))} · seats: {seats}"
    )


def _print_moves(presenter: Any, moves: list[Move], names: list[str], viewer: int | None) -> None:
    """Every step as the viewer read it; a roll and the dice it gave read as one line."""
    from bluffdice.games.base import CHANCE

    skip = False
    for n, (player, text, hidden, events) in enumerate(moves):
        if skip:
            skip = False
            continue
        lines = [said for e in events if (said := _describe(presenter, e, names, viewer))]
        if player == CHANCE:
            lines = lines or [f"[dim]chance: {escape(text)}[/]"]
        elif not lines:
            lines = [f"{escape(_subject(names, player, viewer))}: {escape(text)}"]
        nxt = moves[n + 1] if n + 1 < len(moves) else None
        if player != CHANCE and nxt is not None and nxt[0] == CHANCE and not nxt[3]:
            # A roll and its dice read as one line: "liar rolls: dice 43".
            lines[-1] = f"{lines[-1].rstrip('.')}: [bold]{escape(nxt[1])}[/]"
            skip = True
        if hidden:
            lines[0] += f" [dim]({escape(hidden)})[/]"
        for line in lines:
            out.print(f"  {line.strip()}" if not line.startswith("\n") else line, highlight=False)


def _moves(stored: StoredGame, presenter: Any) -> list[Move]:
    """The game rebuilt at a table: (who acted, what, what the cup held, events) per step."""
    from bluffdice.table import TABLE, TimedOut
    from bluffdice.table.replay import rebuild

    table = rebuild(stored.record, names=stored.bots)
    moves = []
    before: Any = table.initial
    for entry in table.log:
        truth = presenter.truth(before, entry.action) if presenter is not None else None
        actor = entry.actor
        if actor == TABLE:  # a default move after a timeout: the TimedOut event names whose
            actor = next(e.player for e in entry.events if isinstance(e, TimedOut))
        moves.append((actor, entry.text, truth or "", list(entry.events)))
        before = entry.state
    return moves


def _presenter(rules: Any) -> Any:
    try:
        from bluffdice.terminal import presenter_for

        return presenter_for(rules)
    except BluffdiceError:
        return None


def _subject(names: Sequence[str], player: int, viewer: int | None) -> str:
    """A seat as a replay names it: "You" for the person who played, a name that reads
    as a pronoun marked with its seat."""
    from bluffdice.narration.words import shown_name

    return "You" if player == viewer else shown_name(names, player)


def _describe(presenter: Any, event: Event, names: Sequence[str], viewer: int | None) -> str | None:
    """Public events as the viewer read them (the person who played, or a spectator); a
    private one (someone's own dice) as well, told in the third person and marked as
    seen by its owner only: the game is over, nothing is secret."""
    import msgspec

    from bluffdice.games.base import PrivateEvent

    if presenter is not None:
        said = presenter.event(event, names, viewer)
        if not said:
            return None
        if isinstance(event, PrivateEvent) and event.player != viewer:
            owner = escape(_subject(names, event.player, viewer))
            return f"{said} [dim](only {owner} saw this)[/]"
        return str(said)
    fields = msgspec.to_builtins(event)
    return escape(json.dumps(fields))
