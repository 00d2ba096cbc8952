"""What a bad rule string is told, as templates with parameters.

The terminal prints the English; the web page gets the same key and parameters and says
it from its message catalogue (`static/i18n/*.json`, keys `rule.*`), so a Russian lobby
shows a Russian error for `mia(lives=x)`. `RULE_TEXTS` is the one English source:
tests/test_web_i18n.py checks that the catalogue's English equals it and that every other
language translates it. A parameter is a value the user wrote (quoted, as `clip` does),
an identifier (a game, an option, a list of options), a number, or another template
(`Words`) such as the values an option accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

RULE_TEXTS: Final[dict[str, str]] = {
    "rule.unreadable": (
        "cannot read rule string {text}: write a preset or game name, optionally followed "
        "by options in brackets, e.g. mia(lives=3,little_mia=on)"
    ),
    "rule.emptyOption": "empty option in rule string {text}",
    "rule.unnamedOption": "option without a name in rule string {text}",
    "rule.unknownName": "unknown preset or game {name}; known names are: {known}",
    "rule.unknownGame": "unknown game {name}; games are: {games}",
    "rule.otherGame": "{name} is a rule set of {game}, not of {wanted}",
    "rule.unknownOption": "unknown {game} option {option}; options are: {options}",
    "rule.unknownOption.hint": (
        "unknown {game} option {option} (did you mean {hint}?); options are: {options}"
    ),
    "rule.twice": "{game} option {option} is given twice",
    "rule.onOff": "{game} option {option} takes on or off, not {value}",
    "rule.needsValue": "{game} option {option} needs a value ({allowed})",
    "rule.choice": "{game} option {option} must be one of {choices}; got {value}",
    "rule.badValue": "{game} option {option} must be {allowed}; got {value}",
    "rule.digits": "{game} option {option} must be {allowed}; got a number of {digits} digits",
    "rule.allowed.onOff": "on or off",
    "rule.allowed.range": "a whole number from {low} to {high}",
    "rule.allowed.number": "a whole number",
    "rule.allowed.value": "a value",
    "rule.allowed.numbers": "whole numbers from {low} to {high}, one per seat, as in 3:2",
    "rule.mia.relaxedPass": "mia option relaxed_raise=on forbids the pass: also set pass=off",
    "rule.ld.onesBids": (
        "liars-dice option ones_bids={value} needs wild=ones: without wild ones, ones are an "
        "ordinary face and can always be bid"
    ),
    "rule.ld.cupsSingleRound": (
        "liars-dice option cups needs single_round=on: unequal cups start a one-round game "
        "(in a longer game the cups follow from the dice lost)"
    ),
    "rule.ld.cupsCount": (
        "liars-dice option cups names the dice of each seat, two or more; got {cups}"
    ),
    "rule.ld.cupsDice": (
        "liars-dice option cups={cups} needs dice={largest}, the largest cup: leave dice out "
        "and it follows"
    ),
}


@dataclass(frozen=True, eq=False)
class Words:
    """One template of `RULE_TEXTS` with its parameters; `str()` is its English."""

    key: str
    params: dict[str, Any]

    def __str__(self) -> str:
        return RULE_TEXTS[self.key].format(**{k: str(v) for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        """{"key", "params"} for the page; nested templates nested the same way."""
        return {"key": self.key, "params": json_params(self.params)}


def words(key: str, **params: Any) -> Words:
    if key not in RULE_TEXTS:
        raise KeyError(key)
    return Words(key, params)


def json_params(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as the page reads them: numbers as they are, templates as
    {"key", "params"}, anything else as its text."""
    return {
        name: value.to_json()
        if isinstance(value, Words)
        else value
        if isinstance(value, int | float) and not isinstance(value, bool)
        else str(value)
        for name, value in params.items()
    }
