"""The Mia presenter: what a player may type, what the table shows, how events read."""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

import pytest
from rich.console import Console, RenderableType
from rich.text import Text

from bluffdice.games import parse_rules
from bluffdice.games.mia import Announce, BeatMia, Challenge, GiveUp, Look, Pass, Roll
from bluffdice.games.mia.actions import (
    CheersShown,
    GameOver,
    MiaAttempt,
    Penalty,
    Rolled,
    RoundStarted,
)
from bluffdice.terminal import presenter_for
from bluffdice.terminal.mia import MiaPresenter
from tests.conftest import script

NAMES = ["Ada", "Honest", "Bluffer"]


def render(thing: RenderableType) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=120).print(thing)
    return buffer.getvalue()


def plain(markup: str | None) -> str:
    assert markup is not None
    return Text.from_markup(markup).plain


def presenter(rules: str = "classic") -> MiaPresenter:
    made = presenter_for(parse_rules(rules))
    assert isinstance(made, MiaPresenter)
    return made


def view_after(rules: str, steps: list[str], player: int = 0) -> Any:
    return script(rules, 3, steps).state.view(player)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("54", Announce(54)),
        ("5 4", Announce(54)),
        ("4,5", Announce(54)),
        ("mia", Announce(21)),
        ("roll", Roll()),
        ("r", Roll()),
        ("believe", Roll()),
        ("look", Look()),
        ("challenge", Challenge()),
        ("liar", Challenge()),
        ("c", Challenge()),
        ("pass 65", Pass(65)),
        ("p 65", Pass(65)),
        ("give-up", GiveUp()),
        ("beat", BeatMia()),
    ],
)
def test_what_people_type_reads_as_moves(text: str, action: Any) -> None:
    view = view_after("classic", ["first 1", "roll", "dice 43", "52"])
    assert presenter().parse(text, view) == action


def test_a_bare_pass_repeats_the_last_announcement() -> None:
    view = view_after("classic", ["first 2", "roll", "dice 43", "62"])
    assert presenter().parse("pass", view) == Pass(62)


def test_dice_and_nonsense_are_not_moves() -> None:
    view = view_after("classic", ["first 0"])
    with pytest.raises(ValueError, match="the dealer rolls the dice"):
        presenter().parse("dice 43", view)
    with pytest.raises(ValueError, match="is not a Mia action"):
        presenter().parse("banana", view)


def test_the_table_shows_lives_history_turn_and_only_the_viewers_dice() -> None:
    steps = ["first 1", "roll", "dice 43", "look", "52", "pass 62"]
    mine = render(presenter().table(view_after("classic", steps, 0), NAMES))
    assert "Ada (you)" in mine
    assert "Honest 52 → Bluffer passed 62" in mine
    assert "announced 62" in mine
    assert "▶   Ada" in mine
    assert "Your dice" not in mine and "43" not in mine  # Honest's dice stay hidden
    holder = render(presenter().table(view_after("classic", steps, 1), NAMES))
    assert "Your dice: 43" in holder


def test_lives_are_hearts_and_other_modes_show_score_or_drinks() -> None:
    steps = ["first 0", "roll", "dice 43", "52", "challenge"]
    assert "♥♥♥♥♥·" in render(presenter().table(view_after("classic", steps, 0), NAMES))
    drunk = presenter("drinking").scoreline(view_after("drinking", steps, 0), NAMES)
    assert drunk.startswith("Drunk:") and "1 sip" in drunk
    score = presenter("maexchen").scoreline(
        view_after("maexchen", steps[:3] + ["52", "challenge"], 0), NAMES
    )
    assert score.startswith("Score:") and "+1" in score and "+0" in score


def test_hints_name_the_moves_and_the_odds_of_believing() -> None:
    p = presenter()
    assert "roll" in p.hint(view_after("classic", ["first 0"]))
    holding = p.hint(
        view_after("classic", ["first 1", "roll", "dice 43", "52", "roll", "dice 31"], 2)
    )
    assert "look" in holding and "blind" in holding and "53 up to 21 (Mia)" in holding
    looked = view_after(
        "classic", ["first 1", "roll", "dice 43", "52", "roll", "dice 31", "look"], 2
    )
    assert "your 31 is too low: bluff" in p.hint(looked)
    responding = p.hint(view_after("classic", ["first 2", "roll", "dice 43", "54"]))
    assert "believe 54: a roll beats it 50%" in responding and "pass 54" in responding
    facing_mia = p.hint(view_after("classic", ["first 2", "roll", "dice 43", "21"]))
    assert "give-up" in facing_mia and "beat" not in facing_mia
    assert "beat" in presenter("mia(beat_mia=on)").hint(
        view_after("mia(beat_mia=on)", ["first 2", "roll", "dice 43", "21"])
    )


def test_the_chance_to_beat_an_announcement_is_exact() -> None:
    # docs/rules/mia.md: 54 is the median roll; a fresh roll beats 55 3 times in 36.
    assert presenter().beat_chance(54) == Fraction(1, 2)
    assert presenter().beat_chance(55) == Fraction(3, 36)
    assert presenter("mia(relaxed_raise=on)").beat_chance(55) == Fraction(4, 36)


def test_penalties_read_in_the_currency_of_the_rules() -> None:
    lost = Penalty(player=1, amount=2, reason="mia_found")
    assert (
        plain(presenter().event(lost, NAMES, 0))
        == "Honest loses 2 lives (looked under a real Mia)."
    )
    you = Penalty(player=0, amount=1, reason="caught_bluffing")
    assert plain(presenter().event(you, NAMES, 0)) == "You lose 1 life (caught bluffing)."
    stiff = Penalty(player=1, amount=1, reason="gave_up", stiff=True)
    assert "Honest drinks a stiff drink" in plain(presenter("drinking").event(stiff, NAMES, 0))
    assert "Ada loses the round (-1)" in plain(presenter("maexchen").event(you, NAMES, None))


def test_a_round_break_sits_before_the_next_round_or_at_the_game_end() -> None:
    p = presenter()
    penalty = Penalty(player=1, amount=1, reason="caught_bluffing")
    assert p.round_break([Rolled(player=0)]) is None
    assert p.round_break([RoundStarted(round=1, starter=0)]) is None
    assert p.round_break([penalty, RoundStarted(round=2, starter=1)]) == 1
    over = GameOver(winners=(0,), losers=(1,), standings=(0, 1))
    assert p.round_break([penalty, over]) == 1


def test_reveal_shows_the_dice_under_the_cup_and_who_rolled_them() -> None:
    state = script("classic", 3, ["first 1", "roll", "dice 43", "52"]).state
    assert presenter().reveal(state, NAMES) == "Cup: [bold]43[/], rolled by [yellow]Honest[/]."
    assert presenter().reveal(script("classic", 3, ["first 1"]).state, NAMES) is None


def test_the_result_names_winner_loser_and_standings() -> None:
    rules = "mia(lives=1,end=first_out)"
    game = script(rules, 3, ["first 1", "roll", "dice 43", "52", "challenge"])
    shown = render(presenter(rules).result(game.state.view(0), NAMES))
    assert "Winners: You, Bluffer" in shown
    assert "Lost: Honest" in shown
    standings = [line.split()[:2] for line in shown.splitlines() if line[:1].isdigit()]
    assert standings == [["1", "Ada"], ["2", "Bluffer"], ["3", "Honest"]]


def test_names_are_escaped_so_markup_in_them_prints_as_typed() -> None:
    names = ["[bold]x[/]", "Honest", "Bluffer"]
    line = presenter().event(Rolled(player=0), names, None)
    assert line is not None
    assert render(line).strip() == "[bold]x[/] rolls."


def test_every_game_registers_a_presenter_of_its_own() -> None:
    from bluffdice.games import games

    for spec in games():
        assert presenter_for(spec.default_rules()).game == spec.name


def test_an_open_roll_against_mia_and_cheers_read_plainly() -> None:
    p = presenter("meyer(beat_mia=on)")
    assert plain(p.event(MiaAttempt(player=1, value=42), NAMES, 0)) == (
        "The open roll shows 42: not a Mia."
    )
    assert "Mia is beaten" in plain(p.event(MiaAttempt(player=1, value=21), NAMES, 0))
    assert plain(p.event(CheersShown(player=2), NAMES, 0)).startswith("Bluffer shows a 32: cheers!")
