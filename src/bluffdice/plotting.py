"""Where every `--plot FILE` goes through: one check of the target, one way to save.

Commands check the path before long work starts (a typo should not cost an hour of
games), and save with the same resolution and backend everywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bluffdice.errors import BluffdiceError

FORMATS = (".png", ".svg")


def check_plot_path(path: str | Path) -> Path:
    """The plot's path if matplotlib can write it there; else a BluffdiceError saying why."""
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise BluffdiceError(f"a plot is written as .png or .svg, not {p.name!r}")
    if not p.parent.is_dir():
        raise BluffdiceError(f"cannot write {str(p)!r}: folder {str(p.parent)!r} does not exist")
    return p


def save_figure(fig: Any, path: str | Path) -> Path:
    """Write a matplotlib figure (PNG at 150 dpi, or SVG).

    Figures are built with matplotlib's object API (`matplotlib.figure.Figure`), so no
    pyplot state or GUI backend is involved and nothing needs closing.
    """
    p = check_plot_path(path)
    try:
        fig.savefig(p, dpi=150)
    except OSError as exc:
        raise BluffdiceError(f"cannot write {str(p)!r}: {exc.strerror or exc}") from exc
    return p
