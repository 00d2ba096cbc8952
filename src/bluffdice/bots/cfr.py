"""`cfr`: plays the equilibrium that `bluffdice solve` computed, from its view only.

Mia. The bot finds the policy of the round its rules play heads-up (the shipped
policies cover `maexchen`, the `classic` round, which `drinking` and every number of
lives share, and `doubles-ascending`; see `bluffdice.solve.policy.shipped_names`). Other
rule sets the solver takes are solved the first time the bot meets them (pass cap 1, a
few hundred CFR+ iterations, some seconds) and kept for the process. It always looks at
its dice, then samples its action from the policy at the public node (the calls since
the last roll, the value they had to beat) for the dice it holds.

Chains of passes longer than the policy's pass cap are folded back into it
(`bluffdice.solve.mia.fold`: the two passes before the last call are dropped until the
chain fits), and after `MAX_PASSES` passes between two rolls the bot stops passing, so
two `cfr` bots never pass for ever. It falls back on a plain rule where the policy has
nothing to say: rule sets the solver does not take (relaxed raise, joker 32), chains of
passes among more than two players, and nodes its own play never reaches. The rule: a
player who knows the dice under the cup challenges exactly when they fall short of the
announcement, else rolls; otherwise the `honest` bot decides.

With more than two players the heads-up policy is played as if the player it answers
(or who answers it) were its only opponent; the round's opener takes the opener's part.
Each round is played to be won: lives, sips and scores beyond the round are not weighed.

Liar's Dice. Two players with equal cups and a rule set the solver takes: the shipped
`openspiel` policy, or one solved on first use when the tree is small (up to
`MAX_FRESH_NODES`). Otherwise the `odds` bot decides.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bluffdice.bots.base import Bot, load_bot, register_bot
from bluffdice.games.base import BluffdiceError, Event, RuleError
from bluffdice.games.liars_dice import LiarsDiceAction, LiarsDiceView
from bluffdice.games.mia import MiaAction, MiaView, Ranking
from bluffdice.games.registry import parse_rules

FRESH_ITERATIONS = 400
MAX_PASSES = 8
"""Beyond this many passes between two rolls the bot stops passing (no endless game)."""
MAX_FRESH_NODES = 200_000
FALLBACK = {"mia": "honest", "liars-dice": "odds"}
"""The bot that decides where no policy does, by game (any other game: random)."""


@lru_cache(maxsize=32)
def _policy_for(game: str, spec_key: str) -> Any:
    """The shipped policy whose spec matches, else a freshly solved one, else None."""
    import json

    from bluffdice.solve import problems
    from bluffdice.solve.policy import shipped, shipped_index

    spec_json = json.loads(spec_key)
    for name, entry in shipped_index().items():
        if entry["game"] == game and _same_spec(game, entry["spec"], spec_json):
            return shipped(name)
    return _solve_fresh(game, spec_json, problems)


def _same_spec(game: str, shipped_spec: dict[str, Any], wanted: dict[str, Any]) -> bool:
    if game == "mia":
        keys = ("ranking", "pass_allowed", "mia_end", "beat_mia")
        return all(shipped_spec.get(k) == wanted.get(k) for k in keys)
    from bluffdice.solve import liars_dice as ld

    # As specs, not dicts: a spec shipped before an option existed has its default.
    return ld.DudoSpec(**shipped_spec) == ld.DudoSpec(**wanted)


def _solve_fresh(game: str, spec_json: dict[str, Any], problems: Any) -> Any:
    from bluffdice.solve import Solver, TreeTooLarge, mia
    from bluffdice.solve import liars_dice as ld
    from bluffdice.solve.policy import Policy, extract

    try:
        if game == "mia":
            spec = problems.mia_spec_from_json(spec_json)
            if spec.pass_allowed:
                spec = mia.MiaRoundSpec(**{**spec.__dict__, "pass_cap": 1})
            public = mia.build(spec, max_nodes=MAX_FRESH_NODES)
            key_text: Any = mia.key_text
        else:
            dspec = ld.DudoSpec(**spec_json)
            public = ld.build(dspec, max_nodes=MAX_FRESH_NODES)
            key_text = ld.key_text
    except (TreeTooLarge, RuleError):
        return None
    solver = Solver(public, "cfr+")
    solver.iterate(FRESH_ITERATIONS)
    e = solver.exploitability()
    return Policy(
        game=game,
        rules="",
        spec=spec_json,
        title=public.title,
        nodes=extract(public, solver.average_strategy(), key_text),
        solver={"algorithm": "cfr+", "iterations": FRESH_ITERATIONS},
        exploitability=e.exploitability,
        nash_conv=e.nash_conv,
        value=e.value,
    )


def _sample(dist: dict[str, float], rng: random.Random) -> str:
    pick = rng.random() * sum(dist.values())
    for label, p in dist.items():
        pick -= p
        if pick < 0:
            return label
    return next(reversed(dist))


@register_bot
class CfrBot(Bot[MiaView | LiarsDiceView, MiaAction | LiarsDiceAction]):
    """Samples its moves from a CFR equilibrium of the rules it plays."""

    name = "cfr"
    games = ("mia", "liars-dice")
    description = "plays a solved equilibrium (CFR+): bluffs and calls in the right proportions"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._fallbacks: dict[str, Bot] = {}
        self.fallback_moves = 0
        self.policy_moves = 0

    @classmethod
    def stand_in(cls, rules: Any, players: int) -> str | None:
        """The fallback bot that plays a table no policy covers: Liar's Dice with other
        than two players, or rules the solver does not take or cannot solve small;
        Mia rules the solver does not take. (At a heads-up Liar's Dice table the
        policy is found, or solved, here: the first move would do it anyway.)"""
        from bluffdice.games.registry import game_of, rules_string

        game = game_of(rules).name
        text = rules_string(rules)
        if game == "mia":
            return None if _mia_rules(text) is not None else FALLBACK["mia"]
        if game == "liars-dice":
            spec = _ld_spec(text, rules.dice) if players == 2 else None
            if spec is None or _policy_for("liars-dice", spec) is None:
                return FALLBACK["liars-dice"]
            return None
        return FALLBACK.get(game, "random")

    def observe(self, events: Sequence[Event]) -> None:
        """The equilibrium needs nothing beyond the view."""

    def act(self, view: MiaView | LiarsDiceView) -> MiaAction | LiarsDiceAction:
        if isinstance(view, MiaView):
            return self.act_mia(view)
        return self.act_liars_dice(view)

    def act_mia(self, view: MiaView) -> MiaAction:
        """`act` at a Mia table (for a bot that hands its heads-up play to this one)."""
        from bluffdice.games.mia import Look, Roll

        if view.phase == "open":
            return Roll()
        if Look() in view.legal_actions:
            return Look()  # always look: see bluffdice.solve.mia
        action = self._act_mia(view)
        if action is not None:
            self.policy_moves += 1
            return action
        self.fallback_moves += 1
        known = self._knows_the_dice(view)
        if known is not None:
            return known
        found: MiaAction = self._fallback(view)
        return found

    def act_liars_dice(self, view: LiarsDiceView) -> LiarsDiceAction:
        """`act` at a Liar's Dice table."""
        action = self._act_liars_dice(view)
        if action is not None:
            self.policy_moves += 1
            return action
        self.fallback_moves += 1
        found: LiarsDiceAction = self._fallback(view)
        return found

    def _fallback(self, view: MiaView | LiarsDiceView) -> Any:
        """The fallback bot's move: a bot found by name, of the view's game."""
        name = FALLBACK.get(view.game, "random")
        bot = self._fallbacks.get(view.game)
        if bot is None:
            bot = self._fallbacks[view.game] = load_bot(name, view.game, self.rng)
        return bot.act(view)

    # --- Mia ------------------------------------------------------------------------

    def _act_mia(self, view: MiaView) -> MiaAction | None:
        from bluffdice.games.mia import parse_action
        from bluffdice.solve import mia

        legal = view.legal_actions
        rules = _mia_rules(view.rules)
        if rules is None:
            return None
        spec, ranking = rules
        policy = _policy_for("mia", spec)
        if policy is None:
            return None
        me = view.player
        assert me is not None  # a seat's view: a bot never plays as a spectator
        calls = [(c.player, c.kind, c.value) for c in view.calls]
        opener = calls[0][0] if calls else me
        try:
            if view.phase == "hold":
                info = mia.hold_info(ranking, calls, me, opener)
            else:
                info = mia.answer_info(ranking, calls, opener)
        except (ValueError, IndexError):
            return None
        hand = str(view.my_dice) if view.my_dice is not None else None
        dist = policy.distribution(mia.key_text(info), hand)
        passes = len(info[2]) - 1
        if not dist and passes > 0:
            cap = int(policy.spec.get("pass_cap") or 0)
            dist = policy.distribution(mia.key_text(mia.fold(info, cap)), hand)
            if dist and passes >= MAX_PASSES:  # two players passing for ever: stop
                dist = {a: p for a, p in dist.items() if not a.startswith("pass")}
        if not dist:
            return None
        action = parse_action(_sample(dist, self.rng))
        return action if action in legal else None

    def _knows_the_dice(self, view: MiaView) -> MiaAction | None:
        """Answering a pass over dice it saw: challenge exactly when they fall short."""
        from bluffdice.games.mia import Challenge, Roll

        if view.phase != "respond" or view.my_dice is None or view.announced is None:
            return None
        rules = _mia_rules(view.rules)
        if rules is None:
            return None
        ranking = rules[1]
        if ranking.rank(view.my_dice) < ranking.rank(view.announced):
            return Challenge()
        return Roll() if Roll() in view.legal_actions else None

    # --- Liar's Dice ----------------------------------------------------------------

    def _act_liars_dice(self, view: LiarsDiceView) -> LiarsDiceAction | None:
        from bluffdice.games.liars_dice import parse_action
        from bluffdice.solve import liars_dice as ld

        if view.players != 2 or view.my_dice is None or len(set(view.dice)) != 1:
            return None
        spec = _ld_spec(view.rules, view.dice[0])
        if spec is None:
            return None
        policy = _policy_for("liars-dice", spec)
        if policy is None:
            return None
        key = ld.key_text(tuple((b.quantity, b.face) for b in view.bids))
        dist = policy.distribution(key, "".join(map(str, view.my_dice)))
        if not dist:
            return None
        action = parse_action(_sample(dist, self.rng))
        return action if action in view.legal_actions else None


@lru_cache(maxsize=64)
def _mia_rules(text: str) -> tuple[str, Ranking] | None:
    """(spec key, ranking) of a Mia rule string, or None if the solver cannot take it."""
    import json

    from bluffdice.solve import mia, problems

    try:
        rules = parse_rules(text, game="mia")
        spec = mia.spec_from_rules(rules)
    except BluffdiceError:
        return None
    return json.dumps(problems.spec_json(spec), sort_keys=True), rules.ranking


@lru_cache(maxsize=64)
def _ld_spec(text: str, dice: int) -> str | None:
    import json
    from dataclasses import asdict

    from bluffdice.solve import liars_dice as ld

    try:
        rules = parse_rules(text, game="liars-dice")
        if rules.calza:
            return None
        spec = ld.spec_of(rules, (dice, dice))
    except BluffdiceError:
        return None
    return json.dumps(asdict(spec), sort_keys=True)
