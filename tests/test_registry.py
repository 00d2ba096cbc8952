"""The registry names every built-in game without importing it; the names it keeps for
each must be the ones the game's module declares, or a name would find no game (or the
wrong one) until something else happened to import it."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from bluffdice.games.registry import BUILTIN, games, get_game, parse_rules


def test_the_lazy_names_are_exactly_what_each_game_declares() -> None:
    for module, names in BUILTIN.items():
        spec = importlib.import_module(module).SPEC
        assert sorted(names) == sorted({spec.name, *spec.aliases, *spec.presets}), module


def test_every_builtin_game_is_listed_in_a_fixed_order() -> None:
    assert [spec.name for spec in games()] == ["mia", "liars-dice", "common-hand"]
    assert get_game("Poker_Dice").name == "common-hand"
    assert parse_rules("openspiel") == get_game("dudo").presets["openspiel"]


PROBE = """
import sys
from bluffdice.games import parse_rules, preset_name, games
rules = parse_rules({text!r})
loaded = sorted(m.split(".")[2] for m in sys.modules if m.count(".") >= 2
                and m.startswith("bluffdice.games.") and m.split(".")[2] in
                ("mia", "liars_dice", "common_hand"))
print(" ".join(sorted(set(loaded))), preset_name(rules), len(games()))
"""


def probe(text: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(text=text)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_rule_string_loads_its_own_game_only() -> None:
    """The game first, then `games()` loads the rest: the listing is whole either way."""
    assert probe("openspiel") == ["liars_dice", "openspiel", "3"]
    assert probe("mia(lives=2)") == ["mia", "None", "3"]
    # common hand rolls its cups with Liar's Dice's dice tables, so that one comes too
    assert probe("common-hand-round") == ["common_hand", "liars_dice", "common-hand-round", "3"]


def test_every_builtin_game_names_plug_ins_that_exist() -> None:
    """Each built-in game's words, rater, presenter and bot modules, as its spec names
    them, import and play that game (a typo in a path would fail only at the table)."""
    from bluffdice.bots import available_bots
    from bluffdice.games.registry import plugin

    for spec in games():
        rules = spec.default_rules()
        assert hasattr(plugin(spec.narration)(rules), "describe"), spec.name
        assert plugin(spec.presenter)(rules).game == spec.name
        assert plugin(spec.rater)(rules, spec.min_players).models, spec.name
        for module in spec.bots:
            importlib.import_module(module)
        assert "random" in available_bots(spec.name), spec.name


def test_a_malformed_plug_in_path_is_refused_at_registration() -> None:
    import dataclasses

    from bluffdice.games.registry import register
    from tests import toy_game

    bad = dataclasses.replace(toy_game.SPEC, presenter="tests.toy_game.HighDiePresenter")
    with pytest.raises(ValueError, match="is not 'module:name'"):
        register(bad)
    with pytest.raises(ValueError, match="is not a module name"):
        register(dataclasses.replace(toy_game.SPEC, bots=("tests.toy_game:Keeper",)))
    with pytest.raises(ValueError, match="has no 'Nothing'"):
        from bluffdice.games.registry import plugin

        plugin("tests.toy_game:Nothing")
    assert "high-die" not in {spec.name for spec in games()}


PLUGINS_PROBE = """
import sys
from bluffdice.games import parse_rules, games
games()
parse_rules("meyer")
print(sorted(m for m in sys.modules if m.startswith(("bluffdice.terminal", "bluffdice.narration",
      "bluffdice.review", "bluffdice.bots"))))
"""


def test_naming_a_game_imports_none_of_its_plug_ins() -> None:
    done = subprocess.run([sys.executable, "-c", PLUGINS_PROBE], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
