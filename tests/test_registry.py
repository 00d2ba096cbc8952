"""The registry names every built-in game without importing it; the names it keeps for
each must be the ones the game's module declares, or a name would find no game (or the
wrong one) until something else happened to import it."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

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


SRC = Path(__file__).resolve().parent.parent / "src"


def import_graph() -> dict[str, set[str]]:
    """Every bluffdice module and the bluffdice modules it imports, at the top or inside a
    function (a deferred import is a dependency all the same)."""
    modules = {}
    for path in (SRC / "bluffdice").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def layer(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def test_no_inner_layer_imports_an_outer_one() -> None:
    """The rules, the table and the bots know no front end; the server no CLI; the
    Mäxchen protocol no tournament (a plug-in path on a GameSpec is a string, not an
    import)."""
    outer = {
        "games": {"cli", "server", "terminal", "tournament", "narration", "review", "bots"},
        "table": {"cli", "server", "terminal", "tournament"},
        "bots": {"cli", "server", "terminal", "tournament"},
        "narration": {"cli", "server", "terminal", "tournament"},
        "review": {"cli", "server", "terminal", "tournament"},
        "server": {"cli"},
        "protocol": {"tournament", "cli"},
    }
    upward = [
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        for target in targets
        if layer(target) in outer.get(layer(module), set())
    ]
    assert upward == []


def test_no_two_modules_of_a_game_or_of_the_review_import_each_other() -> None:
    graph = import_graph()
    inside = [m for m in graph if layer(m) in ("games", "review", "narration", "terminal")]
    for module in inside:
        seen, todo = set(), list(graph[module])
        while todo:
            target = todo.pop()
            if target == module:
                raise AssertionError(f"{module} imports itself through {sorted(seen)}")
            if target not in seen and layer(target) == layer(module):
                seen.add(target)
                todo.extend(graph[target])
