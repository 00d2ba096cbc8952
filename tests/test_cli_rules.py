"""`bluffdice rules`: the list of games and presets, one rule set explained, and errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.games import games, parse_rules, rules_string
from bluffdice.games.rulestring import option_infos

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["rules", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_the_list_names_every_game_and_preset_with_its_description() -> None:
    code, out, _ = run()
    assert code == 0
    for spec in games():
        assert spec.name in out
        for name in spec.presets:
            assert name in out
            first_words = " ".join(spec.preset_docs.get(name, "").split()[:3])
            assert first_words in out


def test_the_json_list_parses_and_its_rule_strings_give_back_the_presets() -> None:
    code, out, _ = run("--json")
    assert code == 0
    data = json.loads(out)
    listed = {g["name"]: g for g in data["games"]}
    assert set(listed) == {spec.name for spec in games()}
    for spec in games():
        entry = listed[spec.name]
        assert entry["players"] == [spec.min_players, spec.max_players]
        for preset in entry["presets"]:
            assert parse_rules(preset["rules"]) == spec.presets[preset["name"]]
            assert preset["description"] == spec.preset_docs[preset["name"]]


def test_one_rule_set_as_json_has_every_option_with_value_default_and_meaning() -> None:
    code, out, _ = run("meyer(lives=3)", "--json")
    assert code == 0
    data = json.loads(out)
    rules = parse_rules("meyer(lives=3)")
    assert data["game"] == "mia"
    assert data["rules"] == rules_string(rules)
    assert parse_rules(data["rules"]) == rules
    assert data["preset"] is None
    infos = option_infos(type(rules))
    assert [o["key"] for o in data["options"]] == list(infos)
    by_key = {o["key"]: o for o in data["options"]}
    assert by_key["lives"]["value"] == 3 and by_key["lives"]["default"] == 6
    assert by_key["lives"]["allowed"] == "a whole number from 1 to 99"
    assert by_key["little_mia"]["value"] is True and by_key["little_mia"]["changed"]
    assert {k for k, o in by_key.items() if o["changed"]} == {"lives", "little_mia", "joker32"}
    assert by_key["mia_end"]["choices"] == dict(infos["mia_end"].choice_docs)
    assert by_key["pass"]["meaning"] == infos["pass"].doc


def test_a_preset_is_recognised_as_such() -> None:
    assert json.loads(run("maexchen", "--json")[1])["preset"] == "maexchen"


def test_the_text_view_explains_each_option_and_its_choices() -> None:
    code, out, _ = run("mia(pass=off)")
    assert code == 0
    assert "pass = off (default on)" in out
    for key, info in option_infos(type(parse_rules("mia"))).items():
        assert f"{key} = " in out
        for choice in info.choices:
            assert f"{choice}:" in out
    assert "Allowed: on or off." in out


def test_a_bad_rule_string_is_refused_on_stderr_with_exit_2() -> None:
    code, out, err = run("mia(lifes=3)")
    assert code == 2
    assert out == ""
    assert "unknown mia option 'lifes' (did you mean lives?)" in " ".join(err.split())
    code, _, err = run("mia(mode=party)", "--json")
    assert code == 2
    assert "must be one of" in err
    code, _, err = run("nonsense")
    assert code == 2 and "unknown preset or game" in err
