"""Rule sets as short strings: `mia(lives=3,little_mia=on,pass=off)`.

Every rules class is a frozen dataclass whose fields are declared with `option(...)`. This
module reads those declarations, so a new rule field is parsed, printed, validated and
listed by `bluffdice rules` without writing any more code.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from bluffdice.errors import clip
from bluffdice.games.base import RuleError
from bluffdice.games.rule_texts import Words, words

MAX_DIGITS = 18
"""The longest whole number an option takes as text (a 64-bit integer's worth)."""

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


@dataclass(frozen=True)
class OptionInfo:
    """How one rule field is written and explained."""

    key: str
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    choice_docs: Mapping[str, str] = dataclasses.field(default_factory=dict)
    written_at_default: bool = True


def option(
    default: Any,
    doc: str,
    *,
    key: str | None = None,
    choices: Mapping[str, str] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    written_at_default: bool = True,
) -> Any:
    """Declare a rule field: its default, its meaning and the values it accepts.

    `choices` maps each allowed word to what it means; `key` is the name in rule strings
    when the Python name differs (`pass` is a keyword). A choice among words that include
    `on` and `off` reads like a switch too: `true`, `yes`, `1` and the bare key mean on,
    `false`, `no`, `0` mean off. A tuple default makes a list of whole numbers (`3:2`),
    each from `minimum` to `maximum`. `written_at_default=False` leaves the option out of
    the full rule string while it has its default: for an option added later whose
    default only restates others (so a stored rule string from before it stays the same).
    """
    info = {
        "doc": doc,
        "key": key,
        "choices": dict(choices or {}),
        "minimum": minimum,
        "maximum": maximum,
        "written_at_default": written_at_default,
    }
    return field(default=default, metadata={"bluffdice": info})


def option_infos(rules_cls: type) -> dict[str, OptionInfo]:
    """Map each rule-string key to its description, in declaration order."""
    out: dict[str, OptionInfo] = {}
    for f in fields(rules_cls):
        meta = f.metadata.get("bluffdice")
        if meta is None:
            continue
        key = meta["key"] or f.name
        out[key] = OptionInfo(
            key=key,
            doc=meta["doc"],
            choices=tuple(meta["choices"]),
            minimum=meta["minimum"],
            maximum=meta["maximum"],
            choice_docs=meta["choices"],
            written_at_default=meta["written_at_default"],
        )
    return out


def _field_names(rules_cls: type) -> dict[str, str]:
    """Rule-string key -> dataclass field name."""
    names: dict[str, str] = {}
    for f in fields(rules_cls):
        meta = f.metadata.get("bluffdice")
        if meta is not None:
            names[meta["key"] or f.name] = f.name
    return names


def describe_value(value: Any) -> str:
    """How a field value is written in a rule string."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ":".join(str(v) for v in value)
    return str(value)


def allowed_text(info: OptionInfo, default: Any) -> str:
    """A short phrase naming the values an option accepts."""
    return str(allowed_words(info, default))


def allowed_words(info: OptionInfo, default: Any) -> Words | str:
    """`allowed_text` as a template (a list of choices is the rule string's own words)."""
    if isinstance(default, bool):
        return words("rule.allowed.onOff")
    if info.choices:
        return ", ".join(info.choices)
    if isinstance(default, tuple):
        return words("rule.allowed.numbers", low=info.minimum, high=info.maximum)
    if isinstance(default, int):
        if info.minimum is not None and info.maximum is not None:
            return words("rule.allowed.range", low=info.minimum, high=info.maximum)
        return words("rule.allowed.number")
    return words("rule.allowed.value")


def _convert(game: str, info: OptionInfo, default: Any, raw: str | None) -> Any:
    where = {"game": game, "option": info.key}
    if isinstance(default, bool):
        if raw is None:
            return True
        word = raw.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise RuleError.said("rule.onOff", **where, value=clip(raw))
    switch = {"on", "off"} <= set(info.choices)
    if raw is None and switch:
        return "on"
    if raw is None:
        raise RuleError.said("rule.needsValue", **where, allowed=allowed_words(info, default))
    raw = raw.strip()
    if info.choices:
        word = raw.lower().replace("_", "-")
        if switch and word in _TRUE | _FALSE:
            return "on" if word in _TRUE else "off"
        for choice in info.choices:
            if word == choice.replace("_", "-"):
                return choice
        choices = ", ".join(info.choices)
        raise RuleError.said("rule.choice", **where, choices=choices, value=clip(raw))
    if isinstance(default, tuple):
        return _numbers(game, info, raw)
    if isinstance(default, int):
        allowed = allowed_words(info, default)
        if not re.fullmatch(r"[+-]?\d+", raw):
            raise RuleError.said("rule.badValue", **where, allowed=allowed, value=clip(raw))
        if len(raw) > MAX_DIGITS:  # int() refuses 4300 digits and more; no option needs 19
            raise RuleError.said("rule.digits", **where, allowed=allowed, digits=len(raw))
        number = int(raw)
        if (info.minimum is not None and number < info.minimum) or (
            info.maximum is not None and number > info.maximum
        ):
            raise RuleError.said("rule.badValue", **where, allowed=allowed, value=number)
        return number
    return raw


def _numbers(game: str, info: OptionInfo, raw: str) -> tuple[int, ...]:
    """A list option's whole numbers, written `3:2` (or `3,2`); empty: none."""
    where = {"game": game, "option": info.key}
    allowed = words("rule.allowed.numbers", low=info.minimum, high=info.maximum)
    if not raw:
        return ()
    parts = re.split(r"\s*[:,]\s*", raw)
    if len(raw) > 200 or not all(re.fullmatch(r"\d{1,3}", part) for part in parts):
        raise RuleError.said("rule.badValue", **where, allowed=allowed, value=clip(raw))
    numbers = tuple(int(part) for part in parts)
    low = info.minimum if info.minimum is not None else 0
    high = info.maximum if info.maximum is not None else max(numbers)
    for number in numbers:
        if not low <= number <= high:
            raise RuleError.said("rule.badValue", **where, allowed=allowed, value=number)
    return numbers


_CALL = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def split_rule_string(text: str) -> tuple[str, list[tuple[str, str | None]]]:
    """`name(a=1,b)` -> ("name", [("a", "1"), ("b", None)])."""
    match = _CALL.match(text)
    if match is None:
        raise RuleError.said("rule.unreadable", text=clip(text))
    name = match.group(1).lower()
    body = match.group(2)
    pairs: list[tuple[str, str | None]] = []
    if body is not None and body.strip():
        for part in body.split(","):
            if not part.strip():
                raise RuleError.said("rule.emptyOption", text=clip(text))
            key, eq, value = part.partition("=")
            if not eq and key.strip().isdigit() and pairs and pairs[-1][1] is not None:
                # `cups=3,2`: a bare number goes on with the list of the option before.
                last_key, last_value = pairs[-1]
                pairs[-1] = (last_key, f"{last_value},{key.strip()}")
                continue
            key = key.strip().lower().replace("-", "_")
            if not key:
                raise RuleError.said("rule.unnamedOption", text=clip(text))
            pairs.append((key, value if eq else None))
    return name, pairs


def apply_options(game: str, base: Any, pairs: list[tuple[str, str | None]]) -> Any:
    """Return `base` with the options from a rule string set, validating each one."""
    rules_cls = type(base)
    infos = option_infos(rules_cls)
    names = _field_names(rules_cls)
    normalized = {k.replace("-", "_"): k for k in infos}
    changes: dict[str, Any] = {}
    for key, raw in pairs:
        real_key = normalized.get(key)
        if real_key is None:
            short = len(key) <= 40  # matching a 100 KB key would take minutes
            hint = difflib.get_close_matches(key, list(normalized), n=1) if short else []
            unknown = {"game": game, "option": clip(key), "options": ", ".join(infos)}
            if hint:
                raise RuleError.said("rule.unknownOption.hint", **unknown, hint=normalized[hint[0]])
            raise RuleError.said("rule.unknownOption", **unknown)
        if names[real_key] in changes:
            raise RuleError.said("rule.twice", game=game, option=real_key)
        default = getattr(base, names[real_key])
        changes[names[real_key]] = _convert(game, infos[real_key], default, raw)
    implied = getattr(rules_cls, "implied_changes", None)
    if implied is not None:
        changes = implied(changes)
    try:
        return dataclasses.replace(base, **changes)
    except RuleError:
        raise
    except (TypeError, ValueError) as exc:  # pragma: no cover - a validator's own words
        raise RuleError(str(exc)) from exc


def format_rules(game: str, rules: Any, full: bool = False) -> str:
    """The canonical rule string: the game name and every option that is not default.

    `full=True` writes every option, defaults included: what a stored game keeps, so
    that a default changed in a later version never replays it under other rules.
    """
    default = type(rules)()
    parts = []
    names = _field_names(type(rules))
    infos = option_infos(type(rules))
    for key, name in names.items():
        value = getattr(rules, name)
        at_default = value == getattr(default, name)
        if (full and infos[key].written_at_default) or not at_default:
            parts.append(f"{key}={describe_value(value)}")
    return f"{game}({','.join(parts)})" if parts else game
