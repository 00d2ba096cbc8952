"""Shared helpers for tests: script a game step by step in its text notation."""

from __future__ import annotations

from typing import Any

import pytest

from bluffdice.dealer import Game
from bluffdice.games import parse_rules


def script(rules: str, players: int, steps: list[str]) -> Game:
    """Play `steps` (text forms: 'first 0', 'roll', 'dice 43', '65', 'pass 65', ...)."""
    spec_rules: Any = parse_rules(rules)
    game = Game.new(spec_rules, players)
    from bluffdice.games import game_of

    parse = game_of(spec_rules).parse_action
    for text in steps:
        game.step(parse(text))
    return game


@pytest.fixture
def play_script() -> Any:
    return script


@pytest.fixture(autouse=True)
def _own_default_database(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test writes to the user's own store: the default database is a fresh file."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("BLUFFDICE_DB", str(folder / "bluffdice.db"))
