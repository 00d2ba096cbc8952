"""Rule sets as strings: parse, print, round-trip, and errors that say what is allowed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bluffdice.games import RuleError, parse_rules, preset_name, rules_string
from bluffdice.games.mia import PRESETS, MiaRules
from bluffdice.games.rulestring import option_infos


def test_issue_example_parses_and_prints_back() -> None:
    rules = parse_rules("mia(lives=3,little_mia=on,pass=off)")
    assert rules == MiaRules(lives=3, little_mia=True, pass_allowed=False)
    assert rules_string(rules) == "mia(lives=3,little_mia=on,pass=off)"


def test_bare_flag_spaces_dashes_and_case_are_accepted() -> None:
    assert parse_rules(" Mia( Little-Mia , LIVES = 2 ) ") == MiaRules(little_mia=True, lives=2)


def test_presets_are_named_and_can_take_options() -> None:
    assert parse_rules("classic") == MiaRules()
    meyer = parse_rules("meyer(lives=3)")
    assert meyer.little_mia and meyer.joker32 and meyer.lives == 3
    for name, rules in PRESETS.items():
        assert parse_rules(name) == rules
        assert preset_name(rules) == name
        assert parse_rules(rules_string(rules)) == rules


def test_relaxed_raise_turns_the_pass_off_and_refuses_both_on() -> None:
    assert parse_rules("mia(relaxed_raise)").pass_allowed is False
    with pytest.raises(RuleError, match="forbids the pass"):
        parse_rules("mia(relaxed_raise=on,pass=on)")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mia(livs=3)", r"unknown mia option 'livs' \(did you mean lives\?\); options are: lives"),
        ("mia(lives=0)", "lives must be a whole number from 1 to 99; got 0"),
        ("mia(lives=x)", "lives must be a whole number from 1 to 99; got 'x'"),
        ("mia(pass=maybe)", "pass takes on or off"),
        ("mia(end=sometimes)", "end must be one of last_standing, first_out"),
        ("mia(mode)", "mode needs a value"),
        ("nonsense", "unknown preset or game 'nonsense'; known names are:"),
        ("mia(lives=3", "cannot read rule string"),
        ("mia(lives=3,,pips)", "empty option"),
        ("mia(pips,pips=off)", "given twice"),
    ],
)
def test_bad_rule_strings_say_what_is_allowed(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        parse_rules(text)


def _rules_strategy() -> st.SearchStrategy[MiaRules]:
    infos = option_infos(MiaRules)

    @st.composite
    def build(draw: st.DrawFn) -> MiaRules:
        relaxed = draw(st.booleans())
        return MiaRules(
            lives=draw(st.integers(1, 99)),
            doubles_ascending=draw(st.booleans()),
            little_mia=draw(st.booleans()),
            halbmeier=draw(st.booleans()),
            pips=draw(st.booleans()),
            joker32=draw(st.booleans()),
            pass_allowed=not relaxed and draw(st.booleans()),
            pass_limit=draw(st.sampled_from([0, 0, 1, 2, 3, 99])),
            relaxed_raise=relaxed,
            blind=draw(st.booleans()),
            mia_doubled=draw(st.booleans()),
            beat_mia=draw(st.booleans()),
            mia_end=draw(st.sampled_from(infos["mia_end"].choices)),
            mia_starter=draw(st.sampled_from(infos["mia_starter"].choices)),
            end=draw(st.sampled_from(infos["end"].choices)),
            mode=draw(st.sampled_from(infos["mode"].choices)),
            rounds=draw(st.integers(1, 10000)),
        )

    return build()


mia_rules = _rules_strategy()


@given(mia_rules)
def test_every_rule_set_round_trips_through_its_string(rules: MiaRules) -> None:
    assert parse_rules(rules_string(rules)) == rules
