"""Liar's Dice and common hand at the terminal: what may be typed, what the table and
the commentary show, and whole games through `bluffdice play`."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console, RenderableType
from rich.text import Text
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.games import parse_rules
from bluffdice.games.common_hand import Challenge as ClaimChallenge
from bluffdice.games.common_hand import Claim, Reroll
from bluffdice.games.liars_dice import Bid, Calza, Challenge
from bluffdice.terminal import presenter_for
from bluffdice.terminal.common_hand import CommonHandPresenter
from bluffdice.terminal.liars_dice import LiarsDicePresenter
from tests.conftest import script

NAMES = ["Ada", "Counter", "Bluffer"]
runner = CliRunner()


def render(thing: RenderableType) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=120).print(thing)
    return buffer.getvalue()


def plain(markup: str | None) -> str:
    assert markup is not None
    return Text.from_markup(markup).plain


def narrate(presenter: Any, events: list[Any], viewer: int) -> str:
    """The commentary a viewer reads for these events."""
    lines = [presenter.event(e, NAMES, viewer) for e in events]
    return "\n".join(plain(line) for line in lines if line)


def play(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("3x5", Bid(3, 5)),
        ("3 fives", Bid(3, 5)),
        ("3 5", Bid(3, 5)),
        ("bid 3 x 5", Bid(3, 5)),
        ("liar", Challenge()),
        ("challenge", Challenge()),
        ("calza", Calza()),
    ],
)
def test_liars_dice_input(text: str, action: Any) -> None:
    presenter = presenter_for(parse_rules("perudo"))
    assert presenter.parse(text, None) == action


def test_liars_dice_refuses_what_is_not_a_move() -> None:
    presenter = presenter_for(parse_rules("dudo"))
    with pytest.raises(ValueError, match="dealer rolls"):
        presenter.parse("dice 12345", None)
    with pytest.raises(ValueError, match="not a Liar's Dice action"):
        presenter.parse("banana", None)


def test_liars_dice_table_shows_own_dice_only_and_the_bids() -> None:
    game = script("dudo", 3, ["first 0", "dice 11356", "dice 22456", "dice 33366", "3x3"])
    presenter = presenter_for(parse_rules("dudo"))
    assert isinstance(presenter, LiarsDicePresenter)
    shown = render(presenter.table(game.state.view(1), NAMES))
    assert "Your dice: [2] [2] [4] [5] [6]" in shown
    assert "[1] [1] [3]" not in shown and "[3] [3] [3]" not in shown
    assert "Ada 3x3" in shown and "15 dice in play" in shown and "ones are wild" in shown
    hint = plain(presenter.hint(game.state.view(1)))
    assert "liar" in hint and "lowest 2x1" in hint  # two ones: half of 3, rounded up


def test_a_challenge_shows_every_cup_and_the_count() -> None:
    game = script("dudo", 3, ["first 0", "dice 11356", "dice 22456", "dice 33366", "7x6", "liar"])
    presenter = presenter_for(parse_rules("dudo"))
    text = narrate(presenter, game.events_for(1), 1)
    assert "You call liar! on Ada's 7 sixes" in text
    assert "Ada: [1] [1] [3] [5] [6]" in text and "Bluffer: [3] [3] [3] [6] [6]" in text
    assert "6 sixes (with ones) against a bid of 7: the bid was a bluff." in text
    assert "Ada loses a die (caught bluffing): 4 dice left." in text


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("pair of aces", Claim("pair", 6)),
        ("two pair K 10", Claim("two-pair", 5, 2)),
        ("full house kings over tens", Claim("full-house", 5, 2)),
        ("liar", ClaimChallenge()),
        ("reroll 1 3 5", Reroll((1, 2, 6))),  # places in 9 9 10 K A
        ("reroll 9 10", Reroll((1, 2))),  # faces
        ("reroll KA", Reroll((5, 6))),
        ("reroll all", Reroll((1, 1, 2, 5, 6))),
    ],
)
def test_common_hand_input(text: str, action: Any) -> None:
    game = script("common-hand", 2, ["first 0", "dice 99TKA", "dice JJJQA"])
    presenter = presenter_for(parse_rules("common-hand"))
    assert presenter.parse(text, game.state.view(0)) == action


def test_common_hand_table_and_reveal() -> None:
    steps = ["first 0", "dice 99TKA", "dice JJJQA", "pair A", "reroll Q A", "dice 9K"]
    game = script("common-hand", 2, steps)
    presenter = presenter_for(parse_rules("common-hand"))
    assert isinstance(presenter, CommonHandPresenter)
    shown = render(presenter.table(game.state.view(1), NAMES))
    assert "Your dice: [9] [J] [J] [J] [K] (three jacks)" in shown
    assert "[10]" not in shown  # seat 0's ten stays under the cup
    game.step(presenter.parse("three J", game.state.view(1)))
    game.step(presenter.parse("liar", game.state.view(0)))
    lines = narrate(presenter, game.events_for(0), 0)
    assert "Counter rerolls 2 dice." in lines
    assert "Counter: [9] [J] [J] [J] [K] (three jacks)" in lines
    assert "three jacks: the claim holds." in lines
    assert "You lose a life (called liar on a true claim): 2 lives left." in lines


def test_play_liars_dice_scripted() -> None:
    # '1x2' opens any round; after a bid it is refused and 'liar' follows.
    stdin = "1x2\nliar\n" * 200
    code, out, err = play(
        "liars-dice", "--rules", "liars-dice(dice=2)", "--bots", "2", "--seed", "3", stdin=stdin
    )
    assert code == 0, err
    assert "Your dice:" in out and "You can:" in out
    assert "Not allowed: the last bid was" in out
    assert "Every cup is lifted" in out
    assert re.search(r"Winner: ", out) and "Traceback" not in out + err


def test_play_common_hand_scripted() -> None:
    # 'liar' is refused before any claim; 'pair 9' opens any round.
    stdin = "liar\npair 9\n" * 200
    code, out, err = play("common-hand", "--seed", "5", stdin=stdin)
    assert code == 0, err
    assert "Your dice:" in out and "Not allowed: nothing has been claimed yet" in out
    assert re.search(r"Winner: ", out) and "Traceback" not in out + err


@pytest.mark.parametrize(
    ("game", "rules", "bots"),
    [("liars-dice", "perudo", "4"), ("dudo", "openspiel", "2"), ("poker-dice", "common-hand", "2")],
)
def test_watch(game: str, rules: str, bots: str) -> None:
    code, out, err = play(game, "--rules", rules, "--watch", "--seed", "2", "--bots", bots)
    assert code == 0, err
    assert "Winner" in out and "Your dice" not in out
