"""Finding bots: by registered name, from a Python file, from a module; clear errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bluffdice.bots import Bot, available_bots, load_bot
from bluffdice.bots.base import next_seat_in
from bluffdice.games.base import BluffdiceError

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "cautious_bot.py"


def test_a_registered_name_loads_that_bot_for_that_game() -> None:
    bot = load_bot(" Odds ", "mia", random.Random(1))
    assert bot.name == "odds" and "mia" in bot.games
    assert load_bot("odds", "liars-dice").games == ("liars-dice",)
    assert "random" in available_bots("common-hand")


def test_an_unknown_name_lists_the_known_bots() -> None:
    with pytest.raises(BluffdiceError) as info:
        load_bot("genius", "mia")
    message = str(info.value)
    for name in ("random", "honest", "liar", "lucky", "chain", "odds", "adaptive"):
        assert name in message


def test_the_documented_example_bot_loads_from_its_file_and_plays() -> None:
    bot = load_bot(str(EXAMPLE), "mia", random.Random(0))
    same = load_bot(f"{EXAMPLE}:CautiousBot", "mia", random.Random(0))
    assert type(bot).__name__ == type(same).__name__ == "CautiousBot"
    from bluffdice.table import Table, run_sync, seeded

    table = Table("classic", 3, dice=seeded(3))
    run_sync(table, [bot, load_bot("honest", "mia"), load_bot("random", "mia", random.Random(2))])
    assert table.state.is_terminal


def test_a_module_path_with_a_class_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "house_bots.py").write_text(
        "from bluffdice.bots import Bot\n\n"
        "class Roller(Bot):\n"
        "    name = 'roller'\n\n"
        "    def act(self, view):\n"
        "        return view.legal_actions[0]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = load_bot("house_bots:Roller", "mia")
    assert isinstance(bot, Bot) and bot.name == "roller"


def test_bad_files_and_classes_are_refused_with_a_reason(tmp_path: Path) -> None:
    with pytest.raises(BluffdiceError, match="does not exist"):
        load_bot(str(tmp_path / "missing.py"), "mia")
    two = tmp_path / "two.py"
    two.write_text(
        "from bluffdice.bots import Bot\nclass A(Bot):\n    pass\nclass B(Bot):\n    pass\n"
    )
    with pytest.raises(BluffdiceError, match="name the bot class"):
        load_bot(str(two), "mia")
    with pytest.raises(BluffdiceError, match="cannot import"):
        load_bot("no_such_module_anywhere:Bot", "mia")


def test_the_seat_that_answers_is_the_next_one_still_in_clockwise() -> None:
    """Seats out are skipped and the count wraps round; with nobody else in, or for a
    spectator (no seat of its own), there is none."""
    assert next_seat_in(1, [True, True, False, True]) == 3
    assert next_seat_in(2, [True, False, True, False]) == 0
    assert next_seat_in(0, [True, False, False]) is None
    assert next_seat_in(None, [True, True]) is None
