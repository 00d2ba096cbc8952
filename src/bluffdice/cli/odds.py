"""`bluffdice odds mia | liars-dice`: exact odds as tables, JSON and charts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, err, fail, out, plot_target, rules_option, write_plot

if TYPE_CHECKING:  # the odds modules load when an odds command runs, not at start
    from fractions import Fraction

    from bluffdice.games.mia.rules import MiaRules
    from bluffdice.odds import binomial
    from bluffdice.odds import mia as mia_odds

ROLLS = 36
"""A fresh Mia roll: two dice, 36 equally likely ways."""

odds_app = typer.Typer(
    name="odds",
    help="Exact odds (fractions, not simulations) for Mia values and Liar's Dice bids.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(odds_app, name="odds", short_help="Exact odds of Mia values and Liar's Dice bids.")

JsonOption = Annotated[
    bool,
    typer.Option(
        "--json", help="Print one JSON document (see `bluffdice docs odds`) and nothing else."
    ),
]
PlotOption = Annotated[
    Path | None,
    typer.Option("--plot", help="Also draw a chart to this file (.png or .svg).", metavar="FILE"),
]


def exact(p: Fraction) -> str:
    """A reduced fraction string that `Fraction()` reads back: `1/12`, `0`, `1`."""
    return str(p)


def pct(p: Fraction) -> str:
    """A percentage with one decimal; a chance too small to show is `<0.1%`, never `0.0%`."""
    if 0 < p * 2000 < 1:
        return "<0.1%"
    if 1999 < p * 2000 < 2000:
        return ">99.9%"
    return f"{float(p) * 100:.1f}%"


def _over_36(p: Fraction) -> str:
    return f"{p * ROLLS}/36" if (p * ROLLS).denominator == 1 else exact(p)


def _mia_cell(p: Fraction) -> str:
    return f"{pct(p):>6} [dim]{_over_36(p):>5}[/]"


def _save(fig: Any, path: Path) -> None:
    write_plot(fig, path)
    err.print(f"chart written to {path}", highlight=False)


def _emit(doc: dict[str, Any]) -> None:
    typer.echo(json.dumps(doc, indent=2))


def _rules_title(rules: Any) -> str:
    from bluffdice.games.registry import preset_name

    name = preset_name(rules)
    return f"{name}: {rules.text}" if name else rules.text


# --- mia ------------------------------------------------------------------------------


MIA_HELP = (
    "Every Mia value in ranking order: how often a fresh roll beats it, ties it or is worse, "
    "as percentages and exact fractions, with the median roll marked.\n\n"
    "With --believe VALUE: believe that announcement or challenge it? The expected lives "
    "lost for each answer, under the model of `bluffdice docs odds` (players tell the truth when "
    "their roll allows, else the smallest legal lie)."
)

LIARS_DICE_HELP = (
    "How many of all dice show a face: P(exactly q) and P(at least q), the expected count "
    "and the best bid (the largest quantity with at least 50 % chance).\n\n"
    "Each unknown die counts with chance 1/6, or 1/3 for a non-one face with wild ones; "
    "your own dice (--own) count for sure."
)


@odds_app.command("mia", help=MIA_HELP, short_help="Every Mia value: how often a roll beats it.")
def mia(
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            "-r",
            help="Preset (classic, meyer, doubles-ascending, ...) or rule string such as "
            "'mia(pips=on)'; see `bluffdice rules`.",
        ),
    ] = "classic",
    believe: Annotated[
        str | None,
        typer.Option(
            "--believe",
            help="Instead of the table: should you believe this announcement (e.g. 62, mia)? "
            "Expected loss of believing vs challenging, by the model of `bluffdice docs odds`.",
            metavar="VALUE",
        ),
    ] = None,
    after: Annotated[
        str | None,
        typer.Option(
            "--after",
            help="With --believe: the announcement it followed (or 'none' for a round's "
            "opening). Without it, every possible previous announcement is listed.",
            metavar="VALUE",
        ),
    ] = None,
    spread: Annotated[
        int,
        typer.Option(
            "--spread",
            min=0,
            help="With --believe: a liar names one of the SPREAD+1 lowest legal values "
            "(0: always the smallest lie).",
        ),
    ] = 0,
    as_json: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """The `odds mia` command; its help text is MIA_HELP."""
    from bluffdice.games.registry import preset_name

    parsed: MiaRules = rules_option(rules, game="mia")
    path = plot_target(plot)
    if after is not None and believe is None:
        raise fail("--after goes with --believe VALUE: which announcement followed it?")
    if believe is not None:
        _believe(parsed, believe, after, spread, as_json)
    elif as_json:
        _emit(mia_document(parsed))
    else:
        _mia_table(parsed)
    if path is not None:
        from bluffdice.odds.plot import mia_figure

        name = preset_name(parsed) or "custom rules"
        title = f"Mia, {name}: how often a fresh roll beats each value"
        _save(mia_figure(parsed, title, f"rules: {parsed.text}"), path)


def mia_document(rules: MiaRules) -> dict[str, Any]:
    """The JSON document of `bluffdice odds mia --json`."""
    from bluffdice.odds import mia_table

    return {
        "rules": rules.text,
        "median": mia_table.median(rules),
        "values": [
            {
                "value": row.value,
                "name": row.name,
                "tier": row.tier,
                "ways": row.ways,
                "p_beat": float(row.p_beat),
                "p_beat_or_tie": float(row.p_beat_or_tie),
                "p_lose": float(row.p_lose),
                "p_beat_exact": exact(row.p_beat),
                "p_beat_or_tie_exact": exact(row.p_beat_or_tie),
                "p_lose_exact": exact(row.p_lose),
            }
            for row in mia_table.value_table(rules)
        ],
        "tiers": [
            {
                "tier": t.tier,
                "values": list(t.values),
                "label": t.label,
                "ways": t.ways,
                "p_beat": float(t.p_beat),
                "p_beat_exact": exact(t.p_beat),
            }
            for t in mia_table.tier_table(rules)
        ],
    }


def _mia_table(rules: MiaRules) -> None:
    from rich import box
    from rich.table import Table

    from bluffdice.odds import mia_table

    rows = mia_table.tier_table(rules)
    middle = mia_table.median_tier(rules)
    ties = any(len(r.values) > 1 for r in rows)
    table = Table(
        title=f"Mia odds: {_rules_title(rules)}",
        caption=(
            f"A fresh roll has 36 equally likely ways. ◀ marks the median roll, "
            f"{middle.label}: a fresh roll beats it {pct(middle.p_beat)} of the time."
            + (" Values in one row tie." if ties else "")
        ),
        title_justify="left",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("value" if not ties else "value (ties)", no_wrap=True)
    table.add_column("ways", justify="right", no_wrap=True)
    table.add_column("a fresh roll\nbeats it", justify="right", no_wrap=True)
    table.add_column("\nbeats or ties", justify="right", no_wrap=True)
    table.add_column("\nis worse", justify="right", no_wrap=True)
    for r in rows:
        is_median = r.tier == middle.tier
        table.add_row(
            str(r.tier),
            f"{r.label} ◀" if is_median else r.label,
            str(r.ways),
            _mia_cell(r.p_beat),
            _mia_cell(r.p_beat_or_tie),
            _mia_cell(r.p_lose),
            style="bold yellow" if is_median else None,
        )
    out.print(table)


def _parse_value(text: str, what: str) -> int:
    from bluffdice.games.mia.values import parse_value

    try:
        return parse_value(text)
    except ValueError as exc:
        raise fail(f"{what}: {exc}") from None


def _believe(rules: MiaRules, believe: str, after: str | None, spread: int, as_json: bool) -> None:
    from bluffdice.games.mia.values import MIA
    from bluffdice.odds import mia as mia_odds

    announced = _parse_value(believe, "--believe")
    ranking = rules.ranking
    if after is None:
        candidates: list[int | None] = [None]
        candidates += [
            v
            for v in reversed(ranking.best_first)
            if v != MIA
            and (
                ranking.rank(announced) >= ranking.rank(v)
                if rules.relaxed_raise
                else ranking.beats(announced, v)
            )
        ]
    elif after.strip().lower() in ("none", "open", "-"):
        candidates = [None]
    else:
        candidates = [_parse_value(after, "--after")]
    try:
        decisions = [mia_odds.decide(rules, prev, announced, spread=spread) for prev in candidates]
    except ValueError as exc:
        raise fail(str(exc)) from None
    if as_json:
        _emit(
            {
                "rules": rules.text,
                "announced": announced,
                "model": {"spread": spread, "horizon": mia_odds.DEFAULT_HORIZON},
                "decisions": [_decision_doc(d) for d in decisions],
            }
        )
    elif len(decisions) == 1:
        _explain(rules, decisions[0], spread)
    else:
        _decision_table(rules, announced, decisions)


def _decision_doc(d: mia_odds.Decision) -> dict[str, Any]:
    return {
        "previous": d.previous,
        "p_true": float(d.p_true),
        "p_true_exact": exact(d.p_true),
        "options": {
            name: {"loss": float(loss), "loss_exact": exact(loss)}
            for name, loss in d.options.items()
        },
        "best": d.best,
    }


def _loss(p: Fraction) -> str:
    return f"{float(p):.3f} [dim]({exact(p)})[/]"


def _decision_table(rules: MiaRules, announced: int, decisions: list[mia_odds.Decision]) -> None:
    from rich.table import Table

    names = list(decisions[0].options)
    table = Table(
        title=f"{rules.ranking.name(announced)} announced: believe or challenge? "
        f"({_rules_title(rules)})",
        caption="Expected lives lost by the receiver, by the model of `bluffdice docs odds`: "
        "players tell the truth when their roll allows, else the smallest legal lie. Add --after "
        "VALUE for one case explained.",
        title_justify="left",
        caption_justify="left",
    )
    table.add_column("after")
    table.add_column("announcement true", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("best")
    for d in decisions:
        table.add_row(
            "(opening)" if d.previous is None else rules.ranking.name(d.previous),
            f"{pct(d.p_true)} [dim]({exact(d.p_true)})[/]",
            *[
                f"[bold]{_loss(d.options[n])}[/]" if n == d.best else _loss(d.options[n])
                for n in names
            ],
            d.best,
        )
    out.print(table)


def _explain(rules: MiaRules, d: mia_odds.Decision, spread: int) -> None:
    from rich import box
    from rich.table import Table

    name = rules.ranking.name(d.announced)
    prev = "as the round's opening" if d.previous is None else f"after {d.previous}"
    lie = "the smallest legal lie" if spread == 0 else f"one of the {spread + 1} smallest lies"
    out.print(f"[bold]{name} announced {prev}[/]  ({_rules_title(rules)})", highlight=False)
    out.print(
        f"[dim]Model: every player rolls, looks, tells the truth when the roll allows it, "
        f"else tells {lie}; see bluffdice docs odds.[/]",
        highlight=False,
    )
    out.print(
        f"Chance the {d.announced} is true: {pct(d.p_true)} ({exact(d.p_true)})",
        highlight=False,
    )
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("answer", no_wrap=True)
    table.add_column("expected loss", justify="right", no_wrap=True)
    table.add_column("why")
    for option, loss in d.options.items():
        style = "bold" if option == d.best else None
        table.add_row(option, _loss(loss), _why(rules, d, option, spread), style=style)
    out.print(table)
    others = [loss for o, loss in d.options.items() if o != d.best]
    unit = {"drinking": "sips", "score": "points"}.get(rules.mode, "lives")
    saving = f", saving {float(min(others) - d.options[d.best]):.3f} {unit}" if others else ""
    out.print(f"[bold]Best: {d.best}[/]{saving} on average.", highlight=False)


def _verbs() -> dict[str, str]:
    from bluffdice.odds import mia as mia_odds

    return {
        mia_odds.CHALLENGE: "the next player challenges",
        mia_odds.LOOK: "the next player looks",
        mia_odds.GIVE_UP: "the next player gives up",
        mia_odds.BEAT: "the next player rolls to beat it",
        mia_odds.BELIEVE: "the next player believes and rolls",
        mia_odds.SHOWN: "your dice are shown at once",
    }


def _why(rules: MiaRules, d: mia_odds.Decision, option: str, spread: int) -> str:
    from bluffdice.odds import mia as mia_odds

    a = d.announced
    if option == mia_odds.CHALLENGE:
        return f"you lose if the {a} is true ({pct(d.p_true)})"
    if option == mia_odds.BELIEVE:
        p = mia_odds.p_truthful_beats(rules, a)
        verb = "equal or beat" if rules.relaxed_raise else "beat"
        answers = mia_odds.lie_answers(rules, a, spread=spread)
        lies = " or ".join(f"{v} ({_verbs()[answer]})" for v, answer in answers.items())
        return (
            f"a fresh roll lets you {verb} {a} truthfully {pct(p)} of the time "
            f"({_over_36(p)}); otherwise you lie {lies}"
        )
    if option == mia_odds.GIVE_UP:
        return "certain: you lose without looking"
    if option == mia_odds.LOOK:
        return (
            f"a real Mia ({pct(d.p_true)}) costs you more than giving up; "
            "a false one costs the announcer"
        )
    if option == mia_odds.BEAT:
        return "you roll openly and need a 21"
    return "the dice are shown at once"


# --- liars dice -----------------------------------------------------------------------

MAX_DICE = 1000
"""Exact tables grow with the square of the dice; a thousand still print in about a second."""


@odds_app.command(
    "liars-dice", help=LIARS_DICE_HELP, short_help="How likely each bid is: P(at least q) per face."
)
def liars_dice(
    dice: Annotated[
        int | None,
        typer.Option(
            "--dice",
            "-n",
            min=1,
            max=MAX_DICE,
            help="All dice in play, yours included (with --rules: default dice × --players).",
        ),
    ] = None,
    wild: Annotated[
        bool | None,
        typer.Option(
            "--wild/--no-wild",
            help="Ones are wild: they count for every other face (default: wild, or as "
            "--rules says).",
            show_default=False,
        ),
    ] = None,
    own: Annotated[
        str | None,
        typer.Option(
            "--own", help="Your own dice, e.g. 1,3,3,5,6: they count for sure.", metavar="DICE"
        ),
    ] = None,
    faces: Annotated[
        int | None,
        typer.Option(
            "--faces", min=2, max=20, help="Faces of each die (default: 6, or as --rules says)."
        ),
    ] = None,
    face: Annotated[
        int | None,
        typer.Option(
            "--face", help="Show one face in detail: every quantity with exact fractions."
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="A Liar's Dice preset or rule string: dice, faces and the wild face from it.",
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", min=1, help="With --rules and no --dice: players at the table."
        ),
    ] = None,
    as_json: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """The `odds liars-dice` command; its help text is LIARS_DICE_HELP."""
    from bluffdice.odds import binomial

    wild_face, faces, dice = _dice_setup(dice, wild, faces, rules, players)
    try:
        own_dice = binomial.parse_dice(own, faces) if own else ()
        if face is not None:
            table = [binomial.face_odds(dice, face, own=own_dice, faces=faces, wild=wild_face)]
        else:
            table = binomial.odds_table(dice, own=own_dice, faces=faces, wild=wild_face)
    except ValueError as exc:
        raise fail(str(exc)) from None
    path = plot_target(plot)
    if as_json:
        _emit(liars_dice_document(dice, faces, wild_face, own_dice, table, rules))
    elif face is not None:
        _face_detail(table[0], own_dice)
    else:
        _faces_table(table, faces, own_dice)
    if path is not None:
        from bluffdice.odds.plot import liars_dice_figure

        _save(liars_dice_figure(table, _ld_title(dice, wild_face, own_dice)), path)


def _dice_setup(
    dice: int | None,
    wild: bool | None,
    faces: int | None,
    rules: str | None,
    players: int | None,
) -> tuple[int | None, int, int]:
    """(wild face, faces, dice in play) from the flags, or from --rules where flags are absent."""
    from bluffdice.odds import binomial

    wild_face: int | None = 1 if wild is None or wild else None
    if rules is not None:
        try:
            spec = binomial.dice_rules(rules_option(rules, game="liars-dice"))
        except ValueError as exc:
            raise fail(f"--rules: {exc}") from None
        faces = spec.faces if faces is None else faces
        wild_face = spec.wild if wild is None else (1 if wild else None)
        if dice is None and spec.cups:
            if players not in (None, len(spec.cups)):
                raise fail(f"--rules name {len(spec.cups)} cups, one per player, not {players}")
            dice = sum(spec.cups)
        if dice is None:
            if players is None:
                raise fail("with --rules, give --players N (or --dice N, all dice in play)")
            dice = spec.dice_per_player * players
            if dice > MAX_DICE:
                raise fail(f"{players} players hold {dice} dice; at most {MAX_DICE} are counted")
    elif players is not None:
        raise fail("--players goes with --rules; without it give --dice N, all dice in play")
    if dice is None:
        raise fail("how many dice are in play? give --dice N (yours included)")
    return wild_face, faces or 6, dice


def _wild_words(wild: int | None) -> str:
    return "no wild face" if wild is None else ("ones wild" if wild == 1 else f"{wild}s wild")


def _ld_title(dice: int, wild: int | None, own: tuple[int, ...]) -> str:
    mine = f", yours {','.join(map(str, own))}" if own else ""
    in_play = f"{dice} die" if dice == 1 else f"{dice} dice"
    return f"Liar's Dice: {in_play} in play{mine}, {_wild_words(wild)}"


def liars_dice_document(
    dice: int,
    faces: int,
    wild: int | None,
    own: tuple[int, ...],
    table: list[binomial.FaceOdds],
    rules: str | None,
) -> dict[str, Any]:
    """The JSON document of `bluffdice odds liars-dice --json`."""
    from bluffdice.games.registry import parse_rules

    return {
        "rules": parse_rules(rules).text if rules else None,
        "dice": dice,
        "faces": faces,
        "wild": wild,
        "own": list(own),
        "unknown": dice - len(own),
        "by_face": [
            {
                "face": f.face,
                "p_die": float(f.p_die),
                "p_die_exact": exact(f.p_die),
                "own_matches": f.own_matches,
                "expected": float(f.expected),
                "expected_exact": exact(f.expected),
                "best_bid": f.best_bid,
                "counts": [
                    {
                        "quantity": c.quantity,
                        "p_exactly": float(c.p_exactly),
                        "p_at_least": float(c.p_at_least),
                        "p_exactly_exact": exact(c.p_exactly),
                        "p_at_least_exact": exact(c.p_at_least),
                    }
                    for c in f.counts
                ],
            }
            for f in table
        ],
    }


def _faces_table(table: list[binomial.FaceOdds], faces: int, own: tuple[int, ...]) -> None:
    from fractions import Fraction

    from rich.table import Table

    first = table[0]
    shown = [
        q
        for q in range(1, first.dice + 1)
        if any(f.p_at_least(q) >= Fraction(1, 1000) for f in table)
        and any(f.p_at_least(q) < 1 for f in table)
    ]
    grid = Table(
        title=_ld_title(first.dice, first.wild, own) + ": P(at least q dice show the face)",
        caption=f"{first.unknown} unknown dice. Bold: the best bid, the largest q with at "
        "least 50 %. Quantities that every face surely makes, or that none makes 0.1 % "
        "of the time, are left out. --face F shows one face with exact fractions.",
        title_justify="left",
        caption_justify="left",
    )
    grid.add_column("q", justify="right", style="dim")
    for f in table:
        grid.add_column(f"{f.face}s", justify="right")
    summary = [
        ("per die", [exact(f.p_die) for f in table]),
        ("yours", [str(f.own_matches) for f in table]),
        ("expected", [f"{float(f.expected):.2f}" for f in table]),
        ("best bid", [f"[bold]{f.best_bid}[/]" for f in table]),
    ]
    for label, cells in summary:
        grid.add_row(label, *cells)
    grid.add_section()
    for q in shown:
        cells = []
        for f in table:
            text = pct(f.p_at_least(q))
            cells.append(f"[bold yellow]{text}[/]" if q == f.best_bid else text)
        grid.add_row(str(q), *cells)
    out.print(grid)


def _short(p: Fraction, limit: int = 28) -> str:
    text = exact(p)
    return text if len(text) <= limit else "[dim](see --json)[/]"


def _face_detail(f: binomial.FaceOdds, own: tuple[int, ...]) -> None:
    from rich.table import Table

    table = Table(
        title=f"{_ld_title(f.dice, f.wild, own)}: bids on {f.face}s",
        caption=f"Each of the {f.unknown} unknown dice counts with chance {exact(f.p_die)}; "
        f"{f.own_matches} of yours count. Expected {float(f.expected):.2f} "
        f"({exact(f.expected)}); best bid {f.best_bid} (largest q with at least 50 %).",
        title_justify="left",
        caption_justify="left",
    )
    table.add_column("q", justify="right")
    table.add_column("exactly q", justify="right")
    table.add_column("", justify="right", style="dim")
    table.add_column("at least q", justify="right")
    table.add_column("", justify="right", style="dim")
    table.add_column("")
    for c in f.counts:
        best = c.quantity == f.best_bid
        table.add_row(
            str(c.quantity),
            pct(c.p_exactly),
            _short(c.p_exactly),
            pct(c.p_at_least),
            _short(c.p_at_least),
            "[bold]◀ best bid[/]" if best else "",
            style="bold yellow" if best else None,
        )
    out.print(table)
