"""Bots of installed packages, found by name through the `bluffdice.bots` entry points:
a tiny package (its code and its dist-info, on sys.path as an installed package is) adds
a bot that a tournament and `play --watch` then play by name."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bluffdice.bots import available_bots, base, load_bot
from bluffdice.cli import app
from bluffdice.errors import BluffdiceError

runner = CliRunner()

PACKAGE = '''
from bluffdice.bots import Bot


class Steady(Bot):
    """Plays the first legal action, whatever it is."""

    name = "steady"
    games = ("mia", "liars-dice")
    description = "always the first legal action"

    def act(self, view):
        return view.legal_actions[0]
'''

ENTRY_POINTS = """
[bluffdice.bots]
steady = tinybots:Steady
ghost = tinybots:Missing
honest = tinybots:Steady
"""


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`tinybots` as pip leaves an installed package: the module and its dist-info."""
    (tmp_path / "tinybots").mkdir()
    (tmp_path / "tinybots" / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    info = tmp_path / "tinybots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinybots\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    available_bots()  # the built-in bots registered before the registry is saved
    registry = dict(base._REGISTRY)
    base.load_plugins(reload=True)
    yield
    base._REGISTRY.clear()
    base._REGISTRY.update(registry)
    base._BROKEN.clear()


def test_an_installed_packages_bot_is_found_by_name(installed: None) -> None:
    assert available_bots("mia")["steady"].__module__ == "tinybots"
    assert "steady" in available_bots("liars-dice")
    assert load_bot("Steady", "mia").name == "steady"


def test_an_installed_bot_plays_a_tournament_by_name(installed: None) -> None:
    result = runner.invoke(
        app,
        ["tournament", "--bots", "steady,honest", "--games", "6", "--seed", "1", "--no-store",
         "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    bots = json.loads(result.stdout)["bots"]
    assert set(bots) == {"steady", "honest"} and bots["steady"]["games"] == 6


def test_an_installed_bot_sits_at_a_played_table(installed: None) -> None:
    result = runner.invoke(
        app, ["play", "liars-dice", "--watch", "--opponents", "steady,odds", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "Steady" in result.stdout and "Winner" in result.stdout


def test_a_broken_entry_is_explained_and_a_built_in_name_is_not_taken(installed: None) -> None:
    with pytest.raises(BluffdiceError, match="tinybots:Missing failed to load"):
        load_bot("ghost", "mia")
    assert available_bots("mia")["honest"].__module__ != "tinybots"
    assert "ghost" not in available_bots("mia")
