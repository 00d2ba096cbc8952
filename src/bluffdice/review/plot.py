"""The chart of `bluffdice review --plot`: the expected cost of each decision."""

from __future__ import annotations

from typing import Any

from bluffdice.review.rating import MARK_DUBIOUS, MARK_MISTAKE, Review


def cost_figure(review: Review) -> Any:
    """Bars of the expected cost per decision, coloured by mark; unrated moves left empty."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, 0.35 * len(review.ratings) + 2), 3.6))
    numbers = [r.number for r in review.ratings]
    costs = [r.cost or 0.0 for r in review.ratings]
    colours = [
        "#c0392b" if r.mark == "??" else "#e67e22" if r.mark == "?" else "#7f8c8d"
        for r in review.ratings
    ]
    ax.bar(numbers, costs, color=colours)
    ax.axhline(MARK_DUBIOUS, color="#e67e22", linewidth=0.8, linestyle=":", label="?")
    ax.axhline(MARK_MISTAKE, color="#c0392b", linewidth=0.8, linestyle=":", label="??")
    ax.set_xlabel("decision")
    ax.set_ylabel("expected loss above the best choice")
    ax.set_title(f"{review.names[review.seat]}: {review.game}, cost of each decision")
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig
