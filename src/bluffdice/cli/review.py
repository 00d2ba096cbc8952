"""`bluffdice review`: every decision of a game you played, rated against the odds and,
where a solved policy covers the spot, the equilibrium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, err, escape, fail, out, plot_target, write_plot

if TYPE_CHECKING:
    from bluffdice.review import Review

REVIEW_HELP = (
    "Walk a game you played move by move from your seat (only what you knew at the time, "
    "then what was revealed) and rate each of your decisions: the chance a challenge "
    "would have won, how likely an announcement was to be believed, the binomial chance "
    "a bid holds, the chance a common-hand claim or reroll stands, the expected lives or "
    "dice each choice cost against the best one (? and "
    "?? mark costly ones), and what the solved equilibrium does there when a shipped "
    "policy covers the game (heads-up Mia rounds). Every rating names the model behind it.\n\n"
    "GAME is `last` (your last game of `bluffdice play`), a stored game id, or a record "
    "file (JSON with game, rules, players and steps, e.g. from `bluffdice replay --json`)."
)


@app.command(help=REVIEW_HELP, short_help="Rate every decision of a game you played.")
def review(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="last, a stored game id, or a record file.")
    ] = "last",
    seat: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="The seat to review, from 0 (default: the seat the person played, else 0).",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="The store: a SQLite file or SQLAlchemy URL (default $BLUFFDICE_DB, "
            "else bluffdice.db in your data folder)."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON, nothing else.")
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Also draw the expected cost of each decision to this file (.png or .svg).",
            metavar="FILE",
        ),
    ] = None,
) -> None:
    """The `review` command; its help text is REVIEW_HELP."""
    from bluffdice.errors import BluffdiceError
    from bluffdice.review import review_game

    target = plot_target(plot)
    try:
        record, names, stored_seat, label = load_game(game, db)
        chosen = seat if seat is not None else (stored_seat if stored_seat is not None else 0)
        result = review_game(record, chosen, names)
    except (BluffdiceError, ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    data = result.to_json()
    data["source"] = label
    if as_json:
        out.print_json(json.dumps(data))
    else:
        show(result, label)
    if target is not None:
        from bluffdice.review.plot import cost_figure

        write_plot(cost_figure(result), target)
        err.print(f"plot: {target}", highlight=False, soft_wrap=True)  # whole, to be copied


def load_game(game: str, db: str | None) -> tuple[Any, list[str] | None, int | None, str]:
    """(record, names, the person's seat, a label) for `last`, an id or a record file."""
    from bluffdice.games.record import Record
    from bluffdice.store import Store, StoreError

    text = game.strip()
    if text == "last" or text.isdigit():
        try:
            store = Store(db, create=False)
        except StoreError as exc:
            if text == "last" and str(exc).startswith("no database at"):
                raise StoreError(
                    f"no played game yet ({exc.args[0].split(' (')[0]}): "
                    "play one with `bluffdice play`"
                ) from None
            raise
        try:
            stored = store.last_played() if text == "last" else store.game(int(text))
        finally:
            store.close()
        return stored.record, list(stored.bots), stored.person_seat, f"game {stored.id}"
    path = Path(text)
    if not path.is_file():
        raise ValueError(f"{text!r} is neither `last`, a game id nor a record file")
    try:
        data = json.loads(path.read_text())
        record = Record(
            game=str(data["game"]),
            rules=str(data["rules"]),
            players=int(data["players"]),
            steps=tuple(str(s) for s in data["steps"]),
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(
            f"{path} is not a game record (game, rules, players, steps): {exc}"
        ) from None
    names = data.get("names") or data.get("bots")
    seat = data.get("person_seat")
    return (
        record,
        [str(n) for n in names] if names else None,
        seat if isinstance(seat, int) else None,
        str(path),
    )


def show(review: Review, label: str) -> None:
    """The review as Rich text: one block per decision, then the summary."""
    from rich.table import Table

    from bluffdice.cli.replay import _rules_name

    me = review.names[review.seat]
    out.print(
        f"[bold]Review of {escape(label)}[/]: {escape(review.game)} "
        f"({escape(_rules_name(review.rules))}), "
        f"{escape(', '.join(review.names))}; {escape(review.result)}. "
        f"Decisions of {escape(me)} (seat {review.seat}).",
        soft_wrap=True,
        highlight=False,
    )
    for rating in review.ratings:
        mark = f" [bold red]{rating.mark}[/]" if rating.mark else ""
        out.print(
            f"\n[bold]{rating.number}.[/] round {rating.round}: {escape(rating.situation)} "
            f"→ [bold]{escape(rating.choice)}[/]{mark}",
            soft_wrap=True,
            highlight=False,
        )
        for line in rating_lines(rating):
            out.print(f"   {line}", soft_wrap=True, highlight=False)
    s = review.summary
    out.print()
    table = Table(title="Summary", show_header=False)
    table.add_row("decisions (rated by a model)", f"{s['decisions']} ({s['rated']})")
    table.add_row("expected cost against the best choices", f"{s['expected_cost']:.3f}")
    table.add_row("marked ? / ??", f"{s['dubious']} / {s['mistakes']}")
    costliest = ", ".join(f"#{n}" for n in s["costliest"]) or "none"
    table.add_row("costliest moments", costliest)
    for key, label_text in (
        ("challenge_rate", "your challenge rate"),
        ("equilibrium_challenge_rate", "the equilibrium's, same spots"),
        ("honesty_rate", "your honesty rate"),
        ("equilibrium_honesty_rate", "the equilibrium's, same spots"),
        ("call_rate", "your call rate"),
        ("reroll_rate", "your reroll rate"),
    ):
        if key in s:
            table.add_row(label_text, f"{s[key]:.0%}")
    out.print(table)
    by_number = {r.number: r for r in review.ratings}
    for number in s["costliest"]:
        r = by_number[number]
        out.print(
            f"  #{number} ({r.cost:.3f}): round {r.round}, {escape(r.situation)} → "
            f"{escape(r.choice)}; best {escape(r.best or '?')}",
            soft_wrap=True,
            highlight=False,
        )
    out.print("[bold]Models[/]", highlight=False)
    for name, text in review.models.items():
        out.print(f"  [bold]{escape(name)}[/]: {escape(text)}", soft_wrap=True, highlight=False)


def rating_lines(rating: Any) -> list[str]:
    """What the player knew, the figures, the options and the truth, in words."""
    lines = [f"[dim]knew:[/] {escape(rating.knew)}"]
    f = rating.figures
    facts = []
    if "p_challenge_wins" in f:
        facts.append(f"a challenge wins {f['p_challenge_wins']:.1%}")
    if "p_bid_holds" in f:
        facts.append(f"your bid holds {f['p_bid_holds']:.1%}")
    if "p_last_bid_holds" in f:
        facts.append(f"the last bid holds {f['p_last_bid_holds']:.1%}")
    if "model_believes" in f:
        facts.append(
            "the model's next player " + ("believes it" if f["model_believes"] else "challenges it")
        )
    if "equilibrium_believes" in f:
        facts.append(f"the equilibrium believes it {f['equilibrium_believes']:.0%}")
    if "claim_true" in f:
        facts.append("your dice made it" if f["claim_true"] == 1.0 else "a bluff")
    if "p_reroll_beats" in f:
        facts.append(f"the reroll gives a hand above the claim {f['p_reroll_beats']:.1%}")
    if "p_fresh_roll_beats" in f:
        facts.append(f"a fresh roll beats it {f['p_fresh_roll_beats']:.1%}")
    if facts:
        lines.append("; ".join(facts))
    if rating.cost is not None and rating.best is not None:
        chosen = rating.options.get(rating.choice, rating.options.get(_option_name(rating)))
        loss = f"{chosen:.3f}" if chosen is not None else "?"
        best = rating.options[rating.best]
        extra = ""
        if "truth_loss" in f and rating.figures.get("truthful") != 1.0:
            extra = f"; the truth would have cost {f['truth_loss']:.3f}"
        lines.append(
            f"expected loss {loss} (best: {escape(rating.best)} {best:.3f}; cost "
            f"{rating.cost:.3f}{extra}) [dim]({escape(rating.model)})[/]"
        )
    elif rating.model != "not rated":
        lines.append(f"[dim]({escape(rating.model)})[/]")
    if rating.equilibrium:
        top = ", ".join(f"{a} {p:.0%}" for a, p in list(rating.equilibrium.items())[:4])
        chance = rating.equilibrium_choice or 0.0
        lines.append(f"equilibrium: {escape(top)}; your move {chance:.0%} of the time")
    if rating.note:
        lines.append(f"[dim]{escape(rating.note)}[/]")
    if rating.truth:
        lines.append(f"[dim]truth:[/] {escape(rating.truth)}")
    return lines


def _option_name(rating: Any) -> str:
    return {"roll": "believe", "give-up": "give up", "beat": "beat"}.get(
        rating.choice, "look" if "look" in rating.options else rating.choice
    )
