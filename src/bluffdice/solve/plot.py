"""Charts for the solver: convergence (log-log), and the Mia equilibrium at a glance.

Figures are built with matplotlib's object API (no pyplot state, no GUI) and written by
`save` to PNG or SVG.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.figure import Figure

from bluffdice.solve.cfr import Checkpoint

FORMATS = (".png", ".svg")
_LINE = "#4c72b0"
_TARGET = "#c44e52"


def check_path(path: str | Path) -> Path:
    """The plot's path if matplotlib can write it here; else a ValueError saying why."""
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise ValueError(f"a plot is written as .png or .svg, not {p.name!r}")
    if not p.parent.is_dir():
        raise ValueError(f"cannot write {str(p)!r}: folder {str(p.parent)!r} does not exist")
    return p


def save(fig: Figure, path: Path) -> None:
    fig.savefig(path, dpi=150)


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
