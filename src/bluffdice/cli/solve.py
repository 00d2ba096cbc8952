"""`bluffdice solve` and `bluffdice explain-policy`: equilibrium play from CFR."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, err, fail, out, plot_target, write_plot
from bluffdice.errors import BluffdiceError

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.progress import Progress, TaskID
    from rich.table import Table

    from bluffdice.solve.cfr import Checkpoint
    from bluffdice.solve.liars_dice import DudoSpec
    from bluffdice.solve.match import MatchSolution, MatchSpec
    from bluffdice.solve.policy import Policy
    from bluffdice.solve.problems import Problem

DEFAULT_TARGET = 1e-3
MAX_ITERATIONS = 1_000_000
SOLVERS = ("auto", "tree", "lean")
LEAN_ABOVE_BIDS = 12
"""`--solver auto` takes the lean solver for rounds of more bids than this. At 12 (the
openspiel preset) both take about as long (1.6 s and 1.3 s to 1e-3 with dcfr); at 15
the tree took 48 s and the lean solver 2.5 s (one run each, a loaded machine)."""


SOLVE_HELP = (
    "Solve a two-player game with CFR / CFR+ and report its value and exploitability.\n\n"
    "Exploitability is measured exactly (a best response over the whole public tree) at "
    "roughly geometric iteration counts; the time shown is solver time, measuring "
    "excluded. The value is what player 0 (the first bidder, or the Mia round's opener) "
    "wins on average at the computed strategies.\n\n"
    "Liar's Dice rounds of more than 12 bids (e.g. openspiel(cups=2:1)) go to the lean "
    "solver (--solver): to 1e-3 with dcfr it took 2.5 s at 15 bids (cups=2:1 with wild "
    "ones) against the tree's 48 s, and 2.5 minutes (42 s of CPU, a loaded machine) at 18 "
    "(openspiel(cups=2:1)); each bid more doubles time and memory (see `bluffdice docs "
    "solve`).\n\n"
    "Example: bluffdice solve liars-dice --target-exploitability 2e-4 --plot convergence.png"
)

EXPLAIN_HELP = (
    "What the solved heads-up Mia round says: when to believe, which lies to tell and how "
    "often, how often to challenge each announcement.\n\n"
    "Example: bluffdice explain-policy --rules classic --plot classic.png"
)


@app.command(help=SOLVE_HELP, short_help="Solve a heads-up round with CFR: value, exploitability.")
def solve(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="The game: mia or liars-dice (also dudo).")
    ],
    rules: Annotated[
        str | None,
        typer.Option(
            help="A preset or rule string. Default: maexchen for mia, openspiel for "
            "liars-dice (one die each, sixes wild, one round). Liar's Dice needs "
            "single_round=on; Mia is solved as one heads-up round."
        ),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option(help="Run exactly this many iterations.", min=1, max=MAX_ITERATIONS),
    ] = None,
    target_exploitability: Annotated[
        float | None,
        typer.Option(
            "--target-exploitability",
            help=f"Run until the exploitability (NashConv/2) is at most this "
            f"(default {DEFAULT_TARGET:g} when --iterations is not given).",
        ),
    ] = None,
    algorithm: Annotated[
        str,
        typer.Option(
            help="cfr (plain, uniform average), cfr+ (linear average) or dcfr (discounted, "
            "the default: fewer iterations to a small exploitability)."
        ),
    ] = "dcfr",
    pass_cap: Annotated[
        int | None,
        typer.Option(
            help="Mia with the pass: at most this many passes between two rolls (default 2); "
            "after them, passing the same value on counts as the endless exchange it starts "
            "(a draw). See `bluffdice docs solve`.",
            min=0,
            max=6,
        ),
    ] = None,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Save the solved policy to this file (.json.gz).", metavar="FILE"
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Draw exploitability against iterations and time (log-log) to a .png or .svg.",
            metavar="FILE",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON document and nothing else.")
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(help="Accepted for symmetry with other commands: CFR is deterministic."),
    ] = None,
    match: Annotated[
        bool,
        typer.Option(
            "--match",
            help="Mia: solve a whole heads-up match with lives (every lives state from 1 to "
            "the rules' lives) and print each player's chance to win it. The pass needs "
            "pass_limit (default 1).",
        ),
    ] = False,
    solver: Annotated[
        str,
        typer.Option(
            help="Liar's Dice: tree (the public tree, every raise rule and ones_bids), lean "
            "(reset-face bids without the Dudo conversion of ones, far faster on big "
            "rounds; its --out is a .npz lean policy) or auto: lean above "
            f"{LEAN_ABOVE_BIDS} bids where it takes the game, else tree."
        ),
    ] = "auto",
) -> None:
    """The `solve` command; its help text is SOLVE_HELP."""
    if match:
        _solve_match(
            game, rules, iterations, target_exploitability, pass_cap, out_file, plot, as_json
        )
        return
    from bluffdice.solve import TreeTooLarge, problem

    target = _solve_target(algorithm, iterations, target_exploitability)
    _check_out_file(out_file)
    plot_path = plot_target(plot)
    lean = _lean_spec(game, rules, solver)
    if lean is not None:
        _solve_lean(*lean, algorithm, iterations, target, out_file, plot_path, as_json)
        return
    try:
        prob = problem(game, rules, pass_cap=pass_cap)
    except TreeTooLarge as exc:
        raise fail(str(exc)) from None
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    history, stored, wall = _run_solver(prob, algorithm, iterations, target, out_file, as_json)
    result = _solve_result(prob, algorithm, history, wall, target)
    if out_file is not None:
        _save_policy(stored, out_file, target, result)

    def draw() -> Any:
        from bluffdice.solve.plot import convergence_figure

        return convergence_figure(history, prob.title, target, algorithm)

    _show(result, plot_path, draw, as_json, _print_result)


def _show(
    result: dict[str, Any],
    plot_path: Path | None,
    draw: Callable[[], Any],
    as_json: bool,
    print_table: Callable[[dict[str, Any]], None],
) -> None:
    """The plot (drawn only when asked for: matplotlib loads slowly), then the result as
    JSON or as tables."""
    if plot_path is not None:
        write_plot(draw(), plot_path)
        result["plot"] = str(plot_path)
    if as_json:
        out.print_json(json.dumps(result))
        return
    print_table(result)


def _solve_target(
    algorithm: str, iterations: int | None, target_exploitability: float | None
) -> float | None:
    """The exploitability to run to (None: a fixed number of iterations), once the
    algorithm and the stopping flags are checked."""
    from bluffdice.solve.cfr import ALGORITHMS

    if algorithm not in ALGORITHMS:
        raise fail(f"--algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm!r}")
    if target_exploitability is not None and not target_exploitability > 0:
        raise fail(
            f"--target-exploitability must be above 0 (CFR only approaches 0), "
            f"not {target_exploitability:g}"
        )
    if iterations is not None and target_exploitability is not None:
        raise fail("give --iterations or --target-exploitability, not both")
    if iterations is None and target_exploitability is None:
        return DEFAULT_TARGET
    return target_exploitability


def _check_out_file(out_file: Path | None) -> None:
    """--out names a file in a folder that exists, before hours of solving."""
    if out_file is not None and out_file.is_dir():
        raise fail(f"cannot write {str(out_file)!r}: it is a folder; give a file name")
    if out_file is not None and not out_file.parent.is_dir():
        raise fail(
            f"cannot write {str(out_file)!r}: folder {str(out_file.parent)!r} does not exist"
        )


def _run_solver(
    prob: Problem,
    algorithm: str,
    iterations: int | None,
    target: float | None,
    out_file: Path | None,
    as_json: bool,
) -> tuple[list[Checkpoint], Policy | None, float]:
    """Solve with a progress bar: the checkpoints, with --out the policy as it will be
    saved (measured again after rounding, solved further if rounding lost the target), and
    the seconds it all took."""
    from bluffdice.solve import Solver, run

    solver = Solver(prob.public, algorithm)  # type: ignore[arg-type]
    started = time.perf_counter()
    with _progress("solving", as_json) as progress:
        task = progress.add_task("solve", total=1000, status="")
        show = _checkpoint_shower(progress, task, iterations, target)
        history = run(
            solver,
            iterations=iterations,
            target=target,
            max_iterations=MAX_ITERATIONS,
            on_checkpoint=show,
        )
        if out_file is None:
            return history, None, time.perf_counter() - started
        from bluffdice.solve.stored import to_target

        def solver_info(hist: list[Checkpoint]) -> dict[str, Any]:
            return {
                "algorithm": algorithm,
                "iterations": hist[-1].iterations,
                "seconds": round(hist[-1].seconds, 2),
                "target": target,
            }

        progress.update(task, status="measuring the policy as it will be saved")
        stored, history = to_target(
            prob,
            solver,
            history,
            solver_info,
            target,
            MAX_ITERATIONS,
            on_checkpoint=show,
        )
    return history, stored, time.perf_counter() - started


def _checkpoint_shower(
    progress: Progress, task: TaskID, iterations: int | None, target: float | None
) -> Callable[[Checkpoint], None]:
    """The bar's update at each checkpoint: the share of the iterations done, or of the
    way (in log exploitability) from the first checkpoint to the target."""
    first: list[float] = []

    def show(cp: Checkpoint) -> None:
        if not first:
            first.append(max(cp.exploitability, 1e-12))
        if iterations is not None:
            done = cp.iterations / iterations
        else:
            assert target is not None
            span = math.log(first[0] / max(target, 1e-15))
            gone = math.log(first[0] / max(cp.exploitability, 1e-15))
            done = min(1.0, gone / span) if span > 0 else 1.0
        progress.update(
            task,
            completed=1000 * done,
            status=f"{cp.iterations:,} it  exploitability {cp.exploitability:.2e}",
        )

    return show


def _solve_result(
    prob: Problem, algorithm: str, history: list[Checkpoint], wall: float, target: float | None
) -> dict[str, Any]:
    """The JSON document of a solve (what --json prints, and the table is made from)."""
    tree: dict[str, Any] = prob.public.describe()
    return _result(
        prob.game, prob.rules_text, prob.title, "tree", tree, algorithm, history, wall, target
    )


def _result(
    game: str,
    rules_text: str,
    title: str,
    solver: str,
    tree: dict[str, Any],
    algorithm: str,
    history: list[Checkpoint],
    wall: float,
    target: float | None,
) -> dict[str, Any]:
    last = history[-1]
    return {
        "game": game,
        "rules": rules_text,
        "title": title,
        "algorithm": algorithm,
        "solver": solver,
        "tree": tree,
        "iterations": last.iterations,
        "solver_seconds": round(last.seconds, 4),
        "wall_seconds": round(wall, 4),
        "exploitability": last.exploitability,
        "nash_conv": last.nash_conv,
        "value": last.value,
        "target_exploitability": target,
        "reached_target": target is None or last.exploitability <= target,
        "checkpoints": [
            {
                "iterations": c.iterations,
                "seconds": round(c.seconds, 4),
                "exploitability": c.exploitability,
                "value": c.value,
            }
            for c in history
        ],
    }


def _save_policy(
    stored: Policy | None, out_file: Path, target: float | None, result: dict[str, Any]
) -> None:
    """Write the policy to --out; the result says what was saved (its own figures, which
    the rounding of the stored probabilities may have moved)."""
    assert stored is not None
    try:
        stored.save(out_file)
    except OSError as exc:
        raise fail(f"cannot write {str(out_file)!r}: {exc.strerror or exc}") from None
    result["out"] = str(out_file)
    result["saved"] = {
        "exploitability": stored.exploitability,
        "nash_conv": stored.nash_conv,
        "value": stored.value,
        "threshold": stored.solver["threshold"],
        "digits": stored.solver["digits"],
    }
    if target is not None:
        measured = stored.exploitability
        assert measured is not None  # a stored policy is measured as it is saved
        result["reached_target"] = result["reached_target"] and measured <= target


def _lean_spec(game: str, rules_text: str | None, solver: str) -> tuple[DudoSpec, str] | None:
    """The round to solve with the lean solver and its rule string, or None where the
    tree solver takes it (`--solver` and the size decide)."""
    from bluffdice.games.registry import get_game, parse_rules, rules_string
    from bluffdice.solve.lean import lean_game
    from bluffdice.solve.liars_dice import spec_from_rules
    from bluffdice.solve.problems import DEFAULT_RULES

    if solver not in SOLVERS:
        raise fail(f"--solver must be one of {', '.join(SOLVERS)}, not {solver!r}")
    try:
        name = get_game(game).name
        if name != "liars-dice" or solver == "tree":
            if solver == "lean":
                raise fail(f"--solver lean solves liars-dice, not {name}")
            return None
        rules = parse_rules(rules_text or DEFAULT_RULES[name], game=name)
        spec = spec_from_rules(rules)
        lean_game(spec)
    except BluffdiceError as exc:
        if solver == "lean":
            raise fail(str(exc)) from None
        return None  # the tree solver says what it makes of these rules
    if solver == "auto" and len(spec.bids()) <= LEAN_ABOVE_BIDS:
        return None
    return spec, rules_string(rules)


def _solve_lean(
    spec: DudoSpec,
    rules_text: str,
    algorithm: str,
    iterations: int | None,
    target: float | None,
    out_file: Path | None,
    plot_path: Path | None,
    as_json: bool,
) -> None:
    """`solve liars-dice` with the lean solver (float32; its policy file is .npz)."""
    from bluffdice.solve import lean_policy
    from bluffdice.solve.cfr import Checkpoint
    from bluffdice.solve.lean import VARIANTS, LeanCheckpoint, LeanSolver, lean_game, solve_to

    if algorithm not in VARIANTS:
        raise fail(f"the lean solver runs {' or '.join(VARIANTS)}, not --algorithm {algorithm}")
    if out_file is not None and out_file.suffix != ".npz":
        raise fail(
            f"the lean solver's policy file is .npz, not {out_file.name!r}: give --out NAME.npz"
        )
    game = lean_game(spec)
    solver = LeanSolver(game, variant=algorithm)
    history: list[Checkpoint] = []
    started = time.perf_counter()
    with _progress("solving (lean)", as_json) as progress:
        task = progress.add_task("solve", total=1000, status="")
        show = _checkpoint_shower(progress, task, iterations, target)

        def checkpoint(cp: LeanCheckpoint) -> None:
            history.append(
                Checkpoint(
                    cp.iterations, cp.seconds, cp.exploitability, 2 * cp.exploitability, cp.value
                )
            )
            show(history[-1])

        def iteration(done: int, wall: float, cpu: float) -> None:
            if not history:  # before the first measure, the bar says it is working
                progress.update(task, status=f"{done:,} it, {wall:.2g} s each")

        solve_to(
            solver,
            -1.0 if target is None else target,
            math.inf,
            on_checkpoint=checkpoint,
            on_iteration=iteration,
            max_iterations=MAX_ITERATIONS if iterations is None else iterations,
        )
        if out_file is not None:
            progress.update(task, status="measuring the policy as it will be saved")
            policy = lean_policy.from_solver(solver, rules_text, seconds=history[-1].seconds)
    wall = time.perf_counter() - started
    tree = {"bids": game.n_bids, "nodes": game.n_nodes, "hands": game.width}
    result = _result(
        "liars-dice", rules_text, spec.describe(), "lean", tree, algorithm, history, wall, target
    )
    if out_file is not None:
        try:
            policy.save(out_file)
        except OSError as exc:
            raise fail(f"cannot write {str(out_file)!r}: {exc.strerror or exc}") from None
        h = policy.header
        result["out"] = str(out_file)
        result["saved"] = {k: h[k] for k in ("exploitability", "nash_conv", "value", "levels")}
        if target is not None:
            result["reached_target"] = result["reached_target"] and h["exploitability"] <= target

    def draw() -> Any:
        from bluffdice.solve.plot import convergence_figure

        return convergence_figure(history, spec.describe(), target, f"{algorithm} (lean)")

    _show(result, plot_path, draw, as_json, _print_result)


def _solve_match(
    game: str,
    rules_text: str | None,
    iterations: int | None,
    target: float | None,
    pass_cap: int | None,
    out_file: Path | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    """`solve mia --match`: the win chance at every lives state, and its exploitability."""
    from bluffdice.games.registry import parse_rules, rules_string
    from bluffdice.solve import match

    _check_match_flags(game, iterations, pass_cap, out_file)
    if target is not None and not target > 0:
        raise fail(f"--target-exploitability must be above 0, not {target:g}")
    aim = DEFAULT_TARGET if target is None else target
    plot_path = plot_target(plot)
    try:
        rules = match.match_rules(parse_rules(rules_text or "classic", game="mia"))
        spec = match.spec_from_rules(rules)
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    solution = _run_match(spec, rules_string(rules), aim, as_json)
    result = solution.to_json()
    result["target_exploitability"] = aim

    def draw() -> Any:
        from bluffdice.solve.plot import match_figure

        return match_figure(result)

    _show(result, plot_path, draw, as_json, _print_match)


def _check_match_flags(
    game: str, iterations: int | None, pass_cap: int | None, out_file: Path | None
) -> None:
    """--match solves Mia, to a target, with the pass limited by the rules."""
    from bluffdice.games.registry import get_game

    try:
        name = get_game(game).name
    except BluffdiceError as exc:
        raise fail(str(exc)) from None
    if name != "mia":
        raise fail(f"--match is for mia (a match of rounds with lives), not {name}")
    for flag, given in (
        ("--iterations", iterations),
        ("--pass-cap", pass_cap),
        ("--out", out_file),
    ):
        if given is not None:
            raise fail(f"{flag} does not go with --match (the pass is limited by pass_limit)")


def _run_match(spec: MatchSpec, text: str, aim: float, as_json: bool) -> MatchSolution:
    """Solve every lives state with a progress bar, one step a state."""
    from bluffdice.solve import match

    with _progress("solving the match", as_json) as progress:
        task = progress.add_task("match", total=len(match.states(spec.lives)), status="")

        def show(s: Any) -> None:
            progress.update(
                task,
                advance=1,
                status=f"lives {s.state[0]}-{s.state[1]}: {s.iterations:,} it, "
                f"exploitability {s.exploitability:.1e}",
            )

        return match.solve(spec, text, target=aim, on_state=show)


def _print_match(result: dict[str, Any]) -> None:
    from rich.table import Table

    n = result["lives"]
    table = Table(
        title=f"Chance to win the match for the player who opens the next round (%)\n"
        f"{result['rules']}: {result['round']}",
        title_justify="left",
    )
    table.add_column("my lives \\ yours", style="bold", justify="right")
    for b in range(1, n + 1):
        table.add_column(str(b), justify="right")
    for a in range(1, n + 1):
        row = result["win_probability"][a - 1]
        table.add_row(str(a), *(f"{p * 100:.1f}" for p in row))
    out.print(table)
    seconds = sum(s["seconds"] for s in result["states"])
    iterations = sum(s["iterations"] for s in result["states"])
    worst_round = max(s["round_exploitability"] for s in result["states"])
    out.print(
        f"exploitability of the whole match strategy: {result['exploitability']:.2e} at most "
        f"(the best-responder's gain over a match, worst lives state); each round solved "
        f"to {worst_round:.1e} or better, {iterations:,} CFR+ iterations in {seconds:.1f} s"
    )
    if "plot" in result:
        out.print(f"[dim]plot: {result['plot']}[/]")


def _print_result(result: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(title=result["title"], show_header=False, title_justify="left")
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    tree = result["tree"]
    table.add_row("rules", result["rules"])
    if result["solver"] == "lean":
        shape = f"{tree['nodes']:,} nodes (every set of {tree['bids']} bids), lean solver"
    else:
        shape = (
            f"{tree['nodes']:,} nodes ({tree['decisions']:,} decisions, "
            f"{tree['segments']} segments)"
        )
    table.add_row("public game", f"{shape}, {tree['hands']} hands")
    table.add_row("algorithm", f"{result['algorithm']}, alternating updates")
    table.add_row(
        "iterations", f"{result['iterations']:,} in {result['solver_seconds']:.2f} s solver time"
    )
    table.add_row("exploitability", f"{result['exploitability']:.3e}  (NashConv/2)")
    table.add_row("NashConv", f"{result['nash_conv']:.3e}")
    table.add_row("value for player 0", f"{result['value']:+.6f}")
    if not result["reached_target"]:
        table.add_row("[red]note[/]", "the target was not reached within the iteration limit")
    if "out" in result:
        saved = result["saved"]
        if "levels" in saved:
            how = f"chances in {saved['levels']:,} steps"
        else:
            how = f"actions under {saved['threshold']:g} dropped, {saved['digits']} digits"
        table.add_row(
            "policy saved",
            f"{result['out']}: exploitability {saved['exploitability']:.3e} and value "
            f"{saved['value']:+.6f} as stored ({how})",
        )
    if "plot" in result:
        table.add_row("plot", result["plot"])
    out.print(table)


@app.command(
    "explain-policy", help=EXPLAIN_HELP, short_help="When the solved Mia policy believes and lies."
)
def explain_policy(
    rules: Annotated[
        str,
        typer.Option(
            help="The Mia rules whose shipped policy to explain: maexchen, classic, "
            "doubles-ascending, drinking (the classic round) or a rule string."
        ),
    ] = "maexchen",
    policy_file: Annotated[
        Path | None,
        typer.Option(
            "--policy",
            help="Explain this policy file (from `bluffdice solve mia --out`) instead.",
            metavar="FILE",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Draw the equilibrium as heat maps (challenge chance per claim, opening "
            "claims per roll, lies per value to beat, honesty) to a .png or .svg.",
            metavar="FILE",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON document and nothing else.")
    ] = False,
) -> None:
    """The `explain-policy` command; its help text is EXPLAIN_HELP."""
    from bluffdice.solve.explain import explain, sentences
    from bluffdice.solve.policy import Policy

    plot_path = plot_target(plot)
    try:
        policy = Policy.load(policy_file) if policy_file is not None else _shipped_for(rules)
        ex = explain(policy)
    except (BluffdiceError, ValueError) as exc:
        raise fail(str(exc)) from None
    if plot_path is not None:
        from bluffdice.solve.plot import mia_policy_figure

        write_plot(mia_policy_figure(ex), plot_path)
    if as_json:
        data = ex.to_json()
        if plot_path is not None:
            data["plot"] = str(plot_path)
        out.print_json(json.dumps(data))
        return
    out.print(f"[bold]{ex.title}[/]: the equilibrium of one heads-up round")
    if ex.value is not None and ex.exploitability is not None:
        out.print(
            f"[dim]value for the opener {ex.value:+.3f} (wins {(1 + ex.value) / 2:.1%} of "
            f"rounds), exploitability {ex.exploitability:.1e}[/]"
        )
    for line in sentences(ex):
        out.print(f"• {line}")
    out.print(_challenge_table(ex))
    out.print(_opening_table(ex))
    if plot_path is not None:
        out.print(f"[dim]plot: {plot_path}[/]")


def _shipped_for(rules_text: str) -> Any:
    from bluffdice.games.registry import parse_rules
    from bluffdice.solve import mia
    from bluffdice.solve.policy import shipped, shipped_index
    from bluffdice.solve.problems import spec_json

    rules = parse_rules(rules_text, game="mia")
    want = spec_json(mia.spec_from_rules(rules))
    keys = ("ranking", "pass_allowed", "mia_end", "beat_mia")
    for name, entry in shipped_index().items():
        if entry["game"] == "mia" and all(entry["spec"].get(k) == want[k] for k in keys):
            return shipped(name)
    raise BluffdiceError(
        f"no shipped policy plays the round of {rules_text!r}: solve it with "
        f"`bluffdice solve mia --rules '{rules_text}' --out FILE` and pass --policy FILE"
    )


def _shade(p: float) -> str:
    if p != p:  # NaN: not a legal claim there
        return ""
    if p < 0.005:
        return "[dim]·[/]"
    if p >= 0.995:
        return "[red]●[/]"
    colour = "red" if p >= 0.67 else "yellow" if p >= 0.33 else "green"
    return f"[{colour}]{p * 100:.0f}[/]"


def _challenge_table(ex: Any) -> Table:
    from rich.table import Table

    claims = [w for w in ex.values if any(w in row for row in ex.challenge.values())]
    table = Table(
        title="Chance of a challenge (%; ● always, · never)\nrows: what the claim had to "
        "beat; columns: the claim",
        title_justify="left",
        box=None,
        padding=(0, 0),
        pad_edge=False,
    )
    table.add_column("", style="bold", min_width=8, no_wrap=True)
    for w in claims:
        table.add_column(str(w), justify="right", width=3)
    for f in ex.floors:
        row = ex.challenge.get(f, {})
        if not row:
            continue
        table.add_row(ex.label(f), *(_shade(row.get(w, float("nan"))) for w in claims))
    return table


def _opening_table(ex: Any) -> Table:
    from rich.table import Table

    table = Table(title="Opening the round: what to announce", title_justify="left")
    table.add_column("roll", style="bold")
    table.add_column("announce")
    r = ex.ranking
    for d in reversed(r.best_first):
        dist = ex.opening.get(d)
        if not dist:
            continue
        parts = sorted(dist.items(), key=lambda kv: -kv[1])
        shown = [f"{r.name(w)} {p * 100:.0f}%" for w, p in parts[:5] if p >= 0.01]
        if len(parts) > 5:
            shown.append("…")
        table.add_row(r.name(d), ", ".join(shown))
    return table


def _progress(label: str, as_json: bool) -> Any:
    """The bar a solve shows on stderr (hidden under --json unless stderr is a terminal)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn(f"[bold]{label}[/]"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=as_json and not err.is_terminal,
    )
