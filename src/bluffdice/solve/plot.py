"""Charts for the solver: convergence (log-log), and the Mia equilibrium at a glance.

Figures are built with matplotlib's object API (no pyplot state, no GUI) and written by
`save` to PNG or SVG.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matplotlib.figure import Figure

from bluffdice.solve.cfr import Checkpoint

_LINE = "#4c72b0"
_TARGET = "#c44e52"


def convergence_figure(
    history: Sequence[Checkpoint],
    title: str,
    target: float | None = None,
    label: str = "",
) -> Figure:
    """Exploitability against iterations and against seconds, both log-log."""
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    its = [c.iterations for c in history]
    secs = [max(c.seconds, 1e-4) for c in history]
    expl = [max(c.exploitability, 1e-12) for c in history]
    for ax, xs, xlabel in (
        (axes[0], its, "iterations"),
        (axes[1], secs, "seconds (solver time, measuring excluded)"),
    ):
        ax.loglog(xs, expl, marker="o", markersize=3, color=_LINE, label=label or None)
        if target is not None:
            ax.axhline(target, color=_TARGET, linestyle="--", linewidth=1, label="target")
        ax.set_xlabel(xlabel)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("exploitability (NashConv / 2)")
    if target is not None or label:
        axes[0].legend(loc="upper right")
    last = history[-1]
    fig.suptitle(
        f"{title}\nvalue for player 0 {last.value:+.5f}, exploitability "
        f"{last.exploitability:.2e} after {last.iterations:,} iterations",
        fontsize=11,
    )
    return fig


def _heat(
    ax: Any,
    grid: list[list[float]],
    rows: list[str],
    cols: list[str],
    title: str,
    cmap: str,
    note: str = "",
) -> Any:
    import numpy as np
    from matplotlib import colormaps

    data = np.ma.masked_invalid(np.array(grid, dtype=float))
    shades = colormaps[cmap].with_extremes(bad="#eeeeee")
    image = ax.imshow(data * 100, cmap=shades, vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, fontsize=7, rotation=90)
    ax.set_yticks(range(len(rows)), rows, fontsize=7)
    ax.set_title(title, fontsize=10, loc="left")
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            v = data[i, j]
            if v is np.ma.masked or v < 0.005:
                continue
            ax.text(
                j,
                i,
                f"{v * 100:.0f}",
                ha="center",
                va="center",
                fontsize=5.5,
                color="white" if v > 0.55 else "black",
            )
    if note:
        ax.set_xlabel(note, fontsize=8)
    return image


def mia_policy_figure(ex: Any) -> Figure:
    """Four panels: when to challenge, what to open with, which lies, how honest."""
    names = [str(v) for v in ex.values]
    fig = Figure(figsize=(15, 12), layout="constrained")
    (a, b), (c, d) = fig.subplots(2, 2)
    _challenge_panel(fig, a, ex, names)
    _opening_panel(fig, b, ex, names)
    _lies_panel(fig, c, ex, names)
    _honesty_panel(d, ex)
    subtitle = ""
    if ex.value is not None:
        subtitle = f"value for the opener {ex.value:+.3f}"
    if ex.exploitability is not None:
        subtitle += f", exploitability {ex.exploitability:.1e}"
    fig.suptitle(f"{ex.title}: the equilibrium\n{subtitle}", fontsize=12)
    return fig


def _challenge_panel(fig: Figure, ax: Any, ex: Any, names: list[str]) -> None:
    nan = float("nan")
    grid = [[ex.challenge.get(f, {}).get(w, nan) for w in ex.values] for f in ex.floors]
    img = _heat(
        ax,
        grid,
        [ex.label(f) for f in ex.floors],
        names,
        "Chance of a challenge (%), by the claim and what it had to beat",
        "Reds",
        "claim",
    )
    ax.set_ylabel("the claim had to beat")
    fig.colorbar(img, ax=ax, shrink=0.8, label="%")


def _opening_panel(fig: Figure, ax: Any, ex: Any, names: list[str]) -> None:
    nan = float("nan")
    rolls = list(reversed(ex.ranking.best_first))
    grid = [[ex.opening.get(d, {}).get(w, 0.0) or nan for w in ex.values] for d in rolls]
    img = _heat(
        ax,
        grid,
        [str(v) for v in rolls],
        names,
        "Opening the round: what to announce with each roll (%)",
        "Blues",
        "claim",
    )
    for i, _ in enumerate(rolls):
        ax.add_patch(_box(i, i))
    ax.set_ylabel("your roll (boxes: the roll itself)")
    fig.colorbar(img, ax=ax, shrink=0.8, label="%")


def _lies_panel(fig: Figure, ax: Any, ex: Any, names: list[str]) -> None:
    nan = float("nan")
    lie_rows = [f for f in ex.floors if f in ex.lies]
    grid = [[ex.lies[f].get(w, 0.0) or nan for w in ex.values] for f in lie_rows]
    img = _heat(
        ax,
        grid,
        [ex.label(f) for f in lie_rows],
        names,
        "When the roll falls short: which lie to tell (%)",
        "Purples",
        "claim",
    )
    ax.set_ylabel("you must beat")
    fig.colorbar(img, ax=ax, shrink=0.8, label="%")


def _honesty_panel(ax: Any, ex: Any) -> None:
    """Honest claims against the chance a fresh roll beats the value, by value to beat."""
    xs = [f for f in ex.floors if f in ex.honest]
    pos = list(range(len(xs)))
    ax.bar(pos, [ex.honest[f] * 100 for f in xs], color="#55a868", label="claim is honest")
    ax.plot(
        pos[1:] if xs and xs[0] == 0 else pos,
        [ex.reach[f] * 100 for f in xs if f != 0],
        color="#c44e52",
        marker="o",
        markersize=3,
        label="a fresh roll beats it",
    )
    ax.set_xticks(pos, [ex.label(f) for f in xs], fontsize=7, rotation=90)
    ax.set_ylim(0, 105)
    ax.set_ylabel("%")
    ax.set_xlabel("what the holder must beat", fontsize=8)
    ax.set_title("How often the holder's claim is honest", fontsize=10, loc="left")
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)


def _box(x: int, y: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=0.8)


def match_figure(result: dict[str, Any]) -> Figure:
    """The chance to win a heads-up match for the player to open, per lives state."""
    n = result["lives"]
    fig = Figure(figsize=(5.6, 4.8), layout="constrained")
    ax = fig.subplots()
    grid = result["win_probability"]
    image = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1)
    for a in range(n):
        for b in range(n):
            ax.text(b, a, f"{grid[a][b] * 100:.0f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(n), [str(b + 1) for b in range(n)])
    ax.set_yticks(range(n), [str(a + 1) for a in range(n)])
    ax.set_xlabel("the other player's lives")
    ax.set_ylabel("lives of the player to open")
    ax.set_title(f"{result['rules']}: chance to win the match (%)", fontsize=9)
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig
