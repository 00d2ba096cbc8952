"""A picture of a tournament: ratings with intervals, and rates with 95 % intervals."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from matplotlib.figure import Figure

from bluffdice.plotting import save_figure
from bluffdice.stats import BotLine


def plot_standings(
    lines: Mapping[str, BotLine], path: Path, title: str, rate_label: str = "win rate"
) -> None:
    """Two panels, one bot per row: openskill mu with +-2 sigma, and the rate with its
    Wilson interval. Rows keep the table's order (best first, at the top)."""
    names = list(lines)
    rows = list(range(len(names)))[::-1]
    fig = Figure(figsize=(10, 1.2 + 0.45 * len(names)), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
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
    save_figure(fig, path)
