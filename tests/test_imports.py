"""Commands that do real work still load only what that work uses.

tests/test_startup.py keeps the light commands light; these run a tournament, open a
store and solve a game, each in a fresh interpreter (this process has long imported
everything), and check that the plotting stack loads only when a plot is asked for:
matplotlib alone costs a third of a second before the first game.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_startup import loaded

TOURNAMENT = ("tournament", "--bots", "random,honest", "--games", "6", "--seed", "1")


def plotting(modules: set[str]) -> list[str]:
    """The plot stack among the loaded modules."""
    return sorted(m for m in modules if m.split(".")[0] in ("matplotlib", "PIL"))


def test_a_tournament_without_plot_loads_no_matplotlib() -> None:
    modules = loaded(*TOURNAMENT, "--no-store")
    assert "bluffdice.tournament.runner" in modules  # it did run a tournament
    assert plotting(modules) == []
    assert "bluffdice.tournament.plot" not in modules
    assert "sqlalchemy" not in modules  # nothing stored, so no store either
    assert "numpy" not in modules


def test_storing_and_replaying_games_loads_no_matplotlib(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    modules = loaded(*TOURNAMENT, "--db", db)
    assert "bluffdice.store.store" in modules  # the store was opened
    assert plotting(modules) == []
    assert "numpy" not in modules
    modules = loaded("replay", "--list", "--db", db)
    assert "sqlalchemy" in modules
    assert plotting(modules) == []
    assert "numpy" not in modules and "openskill" not in modules


def test_a_solve_without_plot_loads_no_matplotlib() -> None:
    modules = loaded("solve", "mia", "--iterations", "2", "--json")
    assert "bluffdice.solve" in modules
    assert plotting(modules) == []


def test_the_probe_sees_matplotlib_when_a_tournament_plots(tmp_path: Path) -> None:
    """The checks above are not blind: with --plot the same tournament loads it."""
    plot = tmp_path / "standings.png"
    modules = loaded(*TOURNAMENT, "--no-store", "--plot", str(plot))
    assert "matplotlib" in plotting(modules)
    assert plot.stat().st_size > 0
