"""The catalogue of games as plain data: each game with its presets, each rule set with
every option, its value, default and meaning.

`bluffdice rules --json` prints it and the server's /api/games and /api/rules serve it,
so it lives here, below both front ends, rather than in either. Everything is read from
the registry and the rules classes' `option(...)` declarations: a new game, option or
preset appears without touching this module.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bluffdice.games.registry import GameSpec, game_of, preset_name, rules_string
from bluffdice.games.rulestring import OptionInfo, allowed_text, option_infos


def game_entry(spec: GameSpec) -> dict[str, Any]:
    """One game: its names, player counts, default rules and presets."""
    return {
        "name": spec.name,
        "title": spec.title,
        "aliases": list(spec.aliases),
        "summary": spec.summary,
        "players": [spec.min_players, spec.max_players],
        "default": rules_string(spec.default_rules()),
        "presets": [
            {
                "name": name,
                "rules": rules_string(preset),
                "description": spec.preset_docs.get(name, ""),
            }
            for name, preset in spec.presets.items()
        ],
    }


def option_entry(info: OptionInfo, value: Any, default: Any) -> dict[str, Any]:
    """One option of a rule set, with what it may be and whether it differs from the
    game's default."""
    return {
        "key": info.key,
        "value": value,
        "default": default,
        "changed": value != default,
        "meaning": info.doc,
        "allowed": allowed_text(info, default),
        "choices": dict(info.choice_docs),
        "minimum": info.minimum,
        "maximum": info.maximum,
    }


def ruleset_entry(chosen: Any) -> dict[str, Any]:
    """One rule set: its game, canonical string, preset name (if it is one) and options."""
    spec = game_of(chosen)
    default = spec.default_rules()
    names = {f.metadata["bluffdice"]["key"] or f.name: f.name for f in option_fields(chosen)}
    options = [
        option_entry(info, getattr(chosen, names[key]), getattr(default, names[key]))
        for key, info in option_infos(type(chosen)).items()
    ]
    return {
        "game": spec.name,
        "title": spec.title,
        "rules": rules_string(chosen),
        "preset": preset_name(chosen),
        "options": options,
    }


def option_fields(chosen: Any) -> list[dataclasses.Field[Any]]:
    """The rules object's fields declared with `option(...)`."""
    return [f for f in dataclasses.fields(chosen) if "bluffdice" in f.metadata]
