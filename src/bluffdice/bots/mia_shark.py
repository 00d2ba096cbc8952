"""`shark`: reads each opponent at a full table, plays the solved equilibrium heads-up.

A Mia game at a table of three or more is decided in two phases.

While three or more players are alive, what matters is reading the others. `shark`
answers announcements as `adaptive` does (the exact odds, corrected per opponent by how
often their claims proved lies and how often they challenge). Its own announcements go
further: it learns, for each opponent, how often they challenge a claim as a function of
how doubtful the claim looks by the plain odds (the `odds` bot's margin between
challenging and believing, in five bands), and when its roll falls short it lies with the
value the next player is least likely to challenge, instead of the smallest lie (among lies as
safe, the highest: the next player has more to beat). A roll that is good enough is
announced as it is. It also prices believing a claim by those reads: rolling costs the
chance the roll falls short times the chance the next player challenges the safest lie.

Once two players are left the game is a heads-up match, where the equilibrium of the
solved round (`bluffdice solve`, the `cfr` bot's policy) cannot be exploited and wins
most rounds against every heuristic bot: `shark` switches to it. Heads-up from the start
it plays the equilibrium throughout. Rule sets the solver does not take stay with the
full-table play throughout.

Heads-up it also takes the policy's pass gap (`bluffdice.solve.pass_gap`: the policy was
solved with two passes between rolls and takes a third for a draw), but only against a
player it has seen behave as the gap needs (make a third pass; for the no-pass-back rule,
check passes by its own dice): against others those moves lose, so it never assumes.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence

from bluffdice.bots.base import register_bot
from bluffdice.bots.cfr import CfrBot
from bluffdice.bots.mia_odds import AdaptiveBot, ClaimModel, _next_alive, claim_model, current_claim
from bluffdice.games.base import Event
from bluffdice.games.mia import MiaAction, MiaView
from bluffdice.games.mia.actions import Challenged, Passed, Revealed, Rolled
from bluffdice.games.mia.values import MIA

BANDS = (-0.3, -0.1, 0.0, 0.15)
"""Edges of the doubt bands: the `odds` margin (challenge minus believe cost, negated)."""

PRIOR_WEIGHT = 2.0
"""Pseudo-answers behind each band's prior: the `odds` bot's own verdict there."""


def doubt(model: ClaimModel, previous: int | None, value: int) -> float:
    """How much more a plain-odds receiver expects to lose by believing `value` (said
    after `previous`) than by challenging it: above 0, the `odds` bot challenges."""
    p_true = model.p_true(previous, value, value, 0.0, 1)
    return model.believe[value] - p_true * model.fail_cost[value]


def band(margin: float) -> int:
    return bisect_left(BANDS, margin)


@register_bot
class SharkBot(AdaptiveBot):
    """Per-opponent challenge reading at a full table; the solved round heads-up."""

    name = "shark"
    description = "reads each opponent at a full table; plays the solved equilibrium heads-up"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.heads_up = CfrBot(self.rng)
        # player -> per band [challenges, answers], the last for Mia (looks, answers)
        self.reads: dict[int, list[list[float]]] = {}
        # player -> [challenges of its passes that caught a lie, that met the truth]
        self.pass_checks: dict[int, list[int]] = {}
        self._checked_by: int | None = None
        # players seen to answer a second pass of shark's by a challenge or a roll
        self.no_third_pass: set[int] = set()
        # players seen to make a third pass (or later) between two rolls
        self.third_passers: set[int] = set()

    def observe(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, Passed) and event.player != self._me and self._passes_made() >= 2:
                self.third_passers.add(event.player)
            if isinstance(event, Challenged | Rolled) and self._after_my_second_pass():
                self.no_third_pass.add(event.player)
            if isinstance(event, Challenged):
                mine = bool(self._calls) and self._calls[-1].player == self._me
                passed = mine and self._calls[-1].kind == "pass"
                self._checked_by = event.player if passed else None
            elif isinstance(event, Revealed) and self._checked_by is not None:
                row = self.pass_checks.setdefault(self._checked_by, [0, 0])
                row[0 if event.truthful is False else 1] += 1
                self._checked_by = None
            super().observe([event])

    def _passes_made(self) -> int:
        """Passes since the last announcement of the round so far."""
        calls = self._calls
        start = max((i for i, c in enumerate(calls) if c.kind == "announce"), default=-1)
        return 0 if start < 0 else len(calls) - 1 - start

    def _after_my_second_pass(self) -> bool:
        calls = self._calls
        if not calls or calls[-1].player != self._me or calls[-1].kind != "pass":
            return False
        return self._passes_made() >= 2

    def checks_passes_by_its_dice(self, player: int) -> bool:
        """Whether `player`, answering passes of its own announcements, has been seen to
        challenge them only when its dice fell short (as a player who looks at what it
        holds does), at least once. A player who challenges a pass of a true value
        answers by the odds instead, and passing it back pays."""
        caught, met = self.pass_checks.get(player, (0, 0))
        return caught > 0 and met == 0

    def act(self, view: MiaView) -> MiaAction:
        alive = sum(1 for gone in view.out if not gone)
        if alive == 2:
            self.catch_up(view)  # keep reading the opponent's lies
            action = self.pass_gap_action(view)
            return self.heads_up.act_mia(view) if action is None else action
        return super().act(view)

    def pass_gap_action(self, view: MiaView) -> MiaAction | None:
        """Heads-up, where `bluffdice.solve.pass_gap` found the policy's folded passes
        can be taken: as the round's opener once a pass has been made, the best response
        (where it differs from the policy); as the other player, the policy without its
        passes when answering the opener's announcement (and a challenge or a roll where
        a third pass would be due). None elsewhere, and under rules whose policy is not
        the one it answers."""
        from bluffdice.bots.cfr import _mia_rules, _policy_for, _sample
        from bluffdice.games.mia import Look, parse_action
        from bluffdice.solve import mia, pass_gap
        from bluffdice.solve.policy import shipped

        if view.phase != "respond" or not view.calls or Look() in view.legal_actions:
            return None
        rules = _mia_rules(view.rules)
        if rules is None:
            return None
        other = next(i for i, gone in enumerate(view.out) if not gone and i != view.player)
        if other not in self.third_passers:
            return None  # the gap is there against a player who makes third passes
        role = 0 if view.calls[0].player == view.player else 1
        if role == 0 and other in self.no_third_pass:
            return None  # the opener's gap needs a player who passes a second pass on
        gap = pass_gap.shipped_gaps().get(role)
        if gap is None or _policy_for("mia", rules[0]) is not shipped(gap.policy):
            return None
        calls = [(c.player, c.kind, c.value) for c in view.calls]
        try:
            info = mia.answer_info(rules[1], calls, view.calls[0].player)
        except (ValueError, IndexError):
            return None
        hand = str(view.my_dice) if view.my_dice is not None else None
        key = mia.key_text(info)
        label = gap.action(key, hand)
        opener = view.calls[0].player
        if label is None and gap.no_pass_at == len(info[2]) - 1:
            if not self.checks_passes_by_its_dice(opener):
                return None
            dist = shipped(gap.policy).distribution(key, hand) or {}
            kept = {a: p for a, p in dist.items() if not a.startswith("pass")}
            if len(kept) == len(dist) or not kept:
                return None  # the policy makes no pass here: it decides itself
            label = _sample(kept, self.rng)
        if label is None:
            return None
        action = parse_action(label)
        return action if action in view.legal_actions else None

    # --- announcing ----------------------------------------------------------------

    def challenge_chance(self, player: int, margin: float) -> float:
        b = band(margin)
        challenges, answers = self._read(player)[b]
        prior = 0.9 if margin > 0 else 0.1
        return (challenges + prior * PRIOR_WEIGHT) / (answers + PRIOR_WEIGHT)

    def lie_risk(self, model: ClaimModel, player: int, previous: int | None) -> float:
        """The chance `player` challenges the least doubtful lie above `previous`."""
        lies = [
            v for v in model.worst_first if previous is None or model.rank[v] > model.rank[previous]
        ]
        plain = [v for v in lies if v != MIA]
        if not plain:
            return self.mia_look_chance(player) if lies else 1.0
        return min(self.challenge_chance(player, doubt(model, previous, v)) for v in plain)

    def mia_look_chance(self, player: int) -> float:
        looks, answers = self._read(player)[-1]
        return (looks + 0.5 * PRIOR_WEIGHT) / (answers + PRIOR_WEIGHT)

    def believe_cost(self, view: MiaView, model: ClaimModel, announced: int) -> float:
        """Expected lives lost by rolling to beat `announced`: a roll that beats it is
        announced and passes the cup on; one that falls short is a lie the next player
        challenges as often as they have been seen to."""
        floor = model.rank[announced]
        short = sum(p for d, p in model.dist.items() if model.rank[d] <= floor)
        return short * self.lie_risk(model, _next_alive(view), announced)

    def answer(self, view: MiaView) -> MiaAction:
        from bluffdice.games.mia import Challenge, GiveUp, Pass, Roll

        legal = view.legal_actions
        if view.players < 3 or GiveUp() in legal or Roll() not in legal:
            return super().answer(view)
        model = claim_model(view.rules)
        announced = view.announced
        assert announced is not None
        p_true = self.truth_chance(view, model)
        costs: dict[MiaAction, float] = {
            Challenge(): p_true * model.fail_cost[announced],
            Roll(): self.believe_cost(view, model, announced),
        }
        nxt = _next_alive(view)
        if Pass(announced) in legal and sum(1 for c in view.calls if c.player == view.player) == 0:
            costs[Pass(announced)] = (1.0 - p_true) * self.challenge_rate(nxt) + 1e-9
        return min(costs, key=lambda a: costs[a])

    def announce(self, view: MiaView, values: list[int]) -> int:
        assert view.my_dice is not None
        if view.my_dice in values or view.players < 3:
            return super().announce(view, values)
        model = claim_model(view.rules)
        previous = view.announced
        nxt = _next_alive(view)
        lies = [v for v in values if v != MIA] or values
        chance = {v: self.challenge_chance(nxt, doubt(model, previous, v)) for v in lies}
        return min(lies, key=lambda v: chance[v] - 1e-9 * model.rank[v])

    # --- learning how each opponent answers -----------------------------------------

    def _read(self, player: int) -> list[list[float]]:
        return self.reads.setdefault(player, [[0.0, 0.0] for _ in range(len(BANDS) + 2)])

    def _answered(self, player: int, challenged: bool) -> None:
        if self._awaiting is not None and player != self._awaiting and self._rules is not None:
            claim = current_claim(self._calls)
            if claim is not None:
                model = claim_model(self._rules)
                reads = self._read(player)
                if claim.current == MIA:
                    row = reads[-1]
                else:
                    row = reads[band(doubt(model, claim.previous, claim.current))]
                row[0] += challenged
                row[1] += 1
        super()._answered(player, challenged)
