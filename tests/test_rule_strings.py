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


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mia(lives=x)", "mia option lives must be a whole number from 1 to 99; got 'x'"),
        ("mia(mode)", "mia option mode needs a value (lives, drinking, score)"),
        ("mia(lives)", "mia option lives needs a value (a whole number from 1 to 99)"),
        ("mia(pips=2)", "mia option pips takes on or off, not '2'"),
        (
            "mia(lives=" + "1" * 30 + ")",
            "mia option lives must be a whole number from 1 to 99; got a number of 30 digits",
        ),
        ("mia(livz=1)", "unknown mia option 'livz' (did you mean lives?); options are: lives, "),
        ("mia(zzzzzz=1)", "unknown mia option 'zzzzzz'; options are: lives, doubles_ascending"),
        ("liars-dice(wild=on)", "liars-dice option wild must be one of ones, off, highest; got"),
        ("mia(relaxed_raise=on,pass=on)", "mia option relaxed_raise=on forbids the pass: also"),
        ("liars-dice(ones_bids,wild=off)", "liars-dice option ones_bids=on needs wild=ones: "),
        ("mia(=3)", "option without a name in rule string 'mia(=3)'"),
    ],
)
def test_a_rule_error_carries_its_template_and_the_terminal_english(
    text: str, message: str
) -> None:
    """The web page words a bad rule string from the error's key and parameters (the
    catalogue's rule.* texts); the terminal prints its English, which the key and the
    parameters make again, word for word."""
    from bluffdice.games.rule_texts import RULE_TEXTS

    def english(key: str, params: dict[str, object]) -> str:
        said = {
            k: english(v["key"], v["params"]) if isinstance(v, dict) else v
            for k, v in params.items()
        }
        return RULE_TEXTS[key].format(**said)

    parse_rules.cache_clear()
    with pytest.raises(RuleError) as caught:
        parse_rules(text)
    error = caught.value
    assert str(error).startswith(message)
    assert error.key in RULE_TEXTS
    assert english(error.key, error.params) == str(error)
    assert all(isinstance(v, str | int | dict) for v in error.params.values())


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
