"""Charts of the odds tables, written to PNG or SVG with matplotlib (no pyplot, no GUI).

The only module of `bluffdice.odds` that touches files; the numbers all come from
`odds.mia` and `odds.binomial`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from bluffdice.games.mia.rules import MiaRules
from bluffdice.games.mia.values import HALBMEIER, LITTLE_MIA, MIA, is_double, pips
from bluffdice.odds.binomial import FaceOdds
from bluffdice.odds.mia_table import median_tier, tier_table

_BEAT = "#4c72b0"
_TIE = "#a6bddb"
_MEDIAN = "#dd8452"
_EXACT = "#55a868"
_LINE = "#c44e52"


def _tick(rules: MiaRules, tier: tuple[int, ...]) -> str:
    first = tier[0]
    if len(tier) > 1:
        return f"{pips(first)} pips\n" + "\n".join(str(v) for v in tier)
    if first == MIA:
        return f"{first}\nMia"
    if first == LITTLE_MIA and rules.little_mia:
        return f"{first}\nlittle"
    if first == HALBMEIER and rules.halbmeier:
        return f"{first}\nHalb."
    if rules.pips and not is_double(first):
        return f"{first}\n{pips(first)} p."
    return str(first)


def mia_figure(rules: MiaRules, title: str, subtitle: str = "") -> Figure:
    """Bars of P(a fresh roll beats it) per value, best first, with ties stacked on top."""
    rows = tier_table(rules)
    middle = median_tier(rules).tier
    fig = Figure(figsize=(max(8.0, 0.5 * len(rows) + 2), 5.2), layout="constrained")
    ax = fig.add_subplot()
    xs = range(len(rows))
    beat = [float(r.p_beat) for r in rows]
    tie = [float(r.p_beat_or_tie - r.p_beat) for r in rows]
    colors = [_MEDIAN if r.tier == middle else _BEAT for r in rows]
    ax.bar(xs, beat, color=colors, width=0.75, label="fresh roll strictly better")
    ax.bar(xs, tie, bottom=beat, color=_TIE, width=0.75, label="fresh roll ties")
    for x, r in zip(xs, rows, strict=True):
        ax.text(
            x,
            float(r.p_beat_or_tie) + 0.012,
            f"{float(r.p_beat):.0%}",
            ha="center",
            va="bottom",
            fontsize=7.5,
            color="#333333",
        )
    ax.axhline(0.5, color="#666666", linestyle="--", linewidth=0.9)
    m = rows[middle - 1]
    name = m.label if len(m.values) == 1 else m.label.replace(": ", " (") + ")"
    ax.annotate(
        f"median roll {name}\nbeaten {float(m.p_beat):.1%} of the time",
        xy=(middle - 1, float(m.p_beat)),
        xytext=(middle - 2.2, 0.8),
        ha="right",
        va="center",
        arrowprops={"arrowstyle": "->", "color": _MEDIAN},
        color=_MEDIAN,
        fontsize=10,
        fontweight="bold",
    )
    ax.set_xticks(list(xs), [_tick(rules, r.values) for r in rows], fontsize=8.5)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    ax.set_ylim(0, 1.08)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("chance a fresh roll beats it")
    ax.set_xlabel("value, best first")
    fig.suptitle(title, fontsize=13)
    if subtitle:
        ax.set_title(subtitle, fontsize=9, color="#555555")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(loc="upper left", frameon=False, fontsize=9)
    return fig


def _face_axes(ax: object, odds: FaceOdds, *, small: bool) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    qs = [c.quantity for c in odds.counts]
    ax.bar(qs, [float(c.p_exactly) for c in odds.counts], color=_EXACT, label="exactly q")
    ax.plot(
        qs,
        [float(c.p_at_least) for c in odds.counts],
        color=_LINE,
        marker="o",
        markersize=3 if small else 5,
        label="at least q",
    )
    ax.axhline(0.5, color="#666666", linestyle="--", linewidth=0.8)
    ax.axvline(
        float(odds.expected),
        color="#444444",
        linestyle=":",
        linewidth=1,
        label=f"expected {float(odds.expected):.2f}",
    )
    ax.plot(
        [odds.best_bid],
        [float(odds.p_at_least(odds.best_bid))],
        marker="*",
        markersize=11 if small else 15,
        color=_MEDIAN,
        linestyle="none",
        label=f"best bid {odds.best_bid} ({float(odds.p_at_least(odds.best_bid)):.0%})",
    )
    ax.set_ylim(0, 1.05)
    ax.set_xlim(-0.6, odds.dice + 0.6)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    step = max(1, math.ceil((odds.dice + 1) / (10 if small else 20)))
    ax.set_xticks(range(0, odds.dice + 1, step))
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)
    mine = f" ({odds.own_matches} of yours count)" if odds.own_matches else ""
    ax.set_title(
        f"bids on {odds.face}s{mine}",
        fontsize=10 if small else 12,
    )
    ax.legend(loc="upper right", frameon=False, fontsize=7.5 if small else 9)


def liars_dice_figure(faces: Sequence[FaceOdds], title: str) -> Figure:
    """One panel per face: P(exactly q) as bars, P(at least q) as a line, the best bid starred."""
    if len(faces) == 1:
        fig = Figure(figsize=(8, 5), layout="constrained")
        ax = fig.add_subplot()
        _face_axes(ax, faces[0], small=False)
        ax.set_xlabel("q: dice among all cups that count for the face")
        ax.set_ylabel("chance")
        fig.suptitle(title, fontsize=12)
        return fig
    cols = min(3, len(faces))
    rows = math.ceil(len(faces) / cols)
    fig = Figure(figsize=(4.2 * cols, 3.2 * rows + 0.6), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharey=True)
    for i, odds in enumerate(faces):
        _face_axes(axes[i // cols][i % cols], odds, small=True)
    for j in range(len(faces), rows * cols):
        axes[j // cols][j % cols].set_visible(False)
    fig.supxlabel("q: dice among all cups that count for the face")
    fig.supylabel("chance")
    fig.suptitle(title, fontsize=12)
    return fig
