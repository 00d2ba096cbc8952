"""A picture of a tournament: ratings with intervals, and rates with 95 % intervals."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from bluffdice.games.base import BluffdiceError
from bluffdice.tournament.stats import BotLine

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def check_plot_path(path: Path) -> None:
    """Refuse a bad --plot target before hours of games, not after."""
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise BluffdiceError(f"--plot {path}: the file name must end in {', '.join(PLOT_SUFFIXES)}")
    if not path.parent.exists() and str(path.parent) != "":
        raise BluffdiceError(f"--plot {path}: folder {path.parent} does not exist")


def plot_standings(
    lines: Mapping[str, BotLine], path: Path, title: str, rate_label: str = "win rate"
) -> None:
    """Two panels, one bot per row: openskill mu with +-2 sigma, and the rate with its
    Wilson interval. Rows keep the table's order (best first, at the top)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(lines)
    rows = list(range(len(names)))[::-1]
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(10, 1.2 + 0.45 * len(names)), sharey=True, constrained_layout=True
    )
    mus = [lines[n].mu for n in names]
    sigmas = [2 * lines[n].sigma for n in names]
    left.errorbar(mus, rows, xerr=sigmas, fmt="o", capsize=4, color="tab:blue")
    left.set_xlabel("openskill rating: mu +- 2 sigma")
    left.set_yticks(rows, names)
    left.grid(axis="x", alpha=0.3)
    rates = [100 * lines[n].rate for n in names]
    low = [100 * (lines[n].rate - lines[n].ci_low) for n in names]
    high = [100 * (lines[n].ci_high - lines[n].rate) for n in names]
    right.errorbar(rates, rows, xerr=[low, high], fmt="s", capsize=4, color="tab:orange")
    right.set_xlabel(f"{rate_label} in %, 95 % Wilson interval")
    right.grid(axis="x", alpha=0.3)
    fig.suptitle(title)
    fig.savefig(path)
    plt.close(fig)
