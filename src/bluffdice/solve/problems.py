"""From a game and a rule set to the public game the solver works on.

One place knows which games the solver can take and how: the CLI, the bot and the
benchmarks all come through `problem(...)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from bluffdice.games.base import RuleError
from bluffdice.games.registry import get_game, parse_rules, rules_string
from bluffdice.solve import liars_dice, mia
from bluffdice.solve.tree import PublicGame

DEFAULT_RULES = {"mia": "maexchen", "liars-dice": "openspiel"}


@dataclass
class Problem:
    """A public game with what it takes to name it, save it and explain it."""

    game: str  # the registry name: mia, liars-dice
    rules: Any
    spec: Any  # MiaRoundSpec or DudoSpec
    public: PublicGame
    key_text: Callable[[Any], str]

    @property
    def rules_text(self) -> str:
        return rules_string(self.rules)

    @property
    def title(self) -> str:
        return self.public.title

    def spec_json(self) -> dict[str, Any]:
        return spec_json(self.spec)


def spec_json(spec: Any) -> dict[str, Any]:
    """A spec as plain JSON values (the ranking flattened into its options)."""
    data = asdict(spec)
    if isinstance(spec, mia.MiaRoundSpec):
        data["ranking"] = asdict(spec.ranking)
    return data


def mia_spec_from_json(data: dict[str, Any]) -> mia.MiaRoundSpec:
    from bluffdice.games.mia.values import Ranking

    fields = dict(data)
    fields["ranking"] = Ranking(**fields["ranking"])
    return mia.MiaRoundSpec(**fields)


def problem(
    game: str,
    rules: str | Any | None = None,
    pass_cap: int | None = None,
    max_nodes: int = 4_000_000,
) -> Problem:
    """The public game of `game` under `rules` (a rule string, rules object or None for
    the solver's default preset). RuleError for games or rules it cannot solve."""
    spec_game = get_game(game)
    name = spec_game.name
    if name not in DEFAULT_RULES:
        raise RuleError(f"the solver handles {' and '.join(DEFAULT_RULES)}, not {name}")
    if rules is None:
        rules = DEFAULT_RULES[name]
    if isinstance(rules, str):
        rules = parse_rules(rules, game=name)
    if name == "mia":
        if pass_cap is not None and pass_cap < 0:
            raise RuleError("--pass-cap must be 0 or more")
        mspec = mia.spec_from_rules(rules, pass_cap)
        return Problem(name, rules, mspec, mia.build(mspec, max_nodes), mia.key_text)
    if pass_cap is not None:
        raise RuleError("--pass-cap is a Mia option")
    dspec = liars_dice.spec_from_rules(rules)
    return Problem(name, rules, dspec, liars_dice.build(dspec, max_nodes), liars_dice.key_text)
