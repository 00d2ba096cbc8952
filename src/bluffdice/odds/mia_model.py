"""Believe or challenge? Exact chances under one simple, stated model of the players.

The static table says how often a fresh roll beats a value; at the table a player needs
more: how likely is the announcement I just heard, and what does each answer cost me?
That depends on how people play, so this module fixes one model and computes it exactly.

**The model.** Every player who rolls looks at the dice (call the roll X) and then:

1. if X may be announced after the previous announcement (strictly better; equal also
   counts under relaxed_raise; anything, for the opener of a round), announces X: the truth;
2. else, if joker32 is on and X is 32, shows cheers (the round restarts, nobody loses);
3. else lies with the smallest legal value: the lowest tier that may be announced (a tier
   of ties: each of its values equally likely). With `spread = k` the liar instead picks
   one of the k + 1 lowest legal tiers, each equally likely.

The receiver of an announcement weighs its options by expected loss (lives; sips or
points in the other modes, as the engine counts them) and picks the cheapest, preferring
to challenge (look) on a tie. Believing means rolling and announcing by the model above;
the next player then answers the same way. Whatever that player does, the cup has left
the believer: a truthful believer never loses this round, a lying one loses only if the
next player challenges. (With two players the cup would come back; the model does not
follow it there.) Passing is left out: the model never passes.

Against a Mia announcement the options are give up, look, and under beat_mia the open
roll; under `mia_end=instant` there is no choice, the dice are shown. Under strict raise
every chain of announcements reaches Mia within 20 steps, so the model is exact; under
relaxed_raise a liar may repeat the last value for ever, so the model looks `horizon`
announcements ahead and the player at the horizon must challenge.

The penalties are not restated here: each outcome is played out on the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bluffdice.games.base import CHANCE
from bluffdice.games.mia.actions import (
    Announce,
    BeatMia,
    Challenge,
    Dice,
    FirstPlayer,
    GiveUp,
    MiaAction,
    Penalty,
    Roll,
)
from bluffdice.games.mia.rules import MiaRules
from bluffdice.games.mia.state import new_game
from bluffdice.games.mia.values import JOKER, MIA, VALUES
from bluffdice.odds.mia_table import _roll_distribution

DEFAULT_HORIZON = len(VALUES)
"""Enough for any chain under strict raise: the model is then exact."""

BELIEVE = "believe"
CHALLENGE = "challenge"
GIVE_UP = "give up"
LOOK = "look"
BEAT = "beat"
SHOWN = "shown"
"""Option names. SHOWN: mia_end=instant, the dice are shown with no choice."""

_PREFERENCE = (CHALLENGE, LOOK, BEAT, GIVE_UP, BELIEVE, SHOWN)
"""On equal expected loss the earlier option is taken: when in doubt, look."""

ZERO = Fraction(0)


@dataclass(frozen=True)
class Decision:
    """What the receiver of `announced` (made after `previous`) should do, and why.

    `options` maps each available answer to the receiver's expected loss; `best` is the
    cheapest. `p_true` is the chance the announcement is true under the model.
    """

    previous: int | None
    announced: int
    p_true: Fraction
    options: Mapping[str, Fraction]
    best: str

    def loss(self, option: str) -> Fraction:
        return self.options[option]


class _Model:
    """The model for one rule set and liar's spread, with its memo tables."""

    def __init__(self, rules: MiaRules, spread: int) -> None:
        self.rules = rules
        self.spread = spread
        self.ranking = rules.ranking
        self.dist = _roll_distribution(rules)
        self._joint: dict[int | None, dict[int, dict[int, Fraction]]] = {}
        self._best: dict[tuple[int, int, int], tuple[str, dict[str, Fraction]]] = {}
        self._believe: dict[tuple[int, int], Fraction] = {}
        self._resolved: dict[tuple[int, int, str], tuple[Fraction, Fraction]] = {}

    # --- who announces what ----------------------------------------------------------

    def legal(self, previous: int | None) -> list[int]:
        """Values that may follow `previous`, worst first."""
        worst_first = tuple(reversed(self.ranking.best_first))
        if previous is None:
            return list(worst_first)
        floor = self.ranking.rank(previous)
        if self.rules.relaxed_raise:
            return [v for v in worst_first if self.ranking.rank(v) >= floor]
        return [v for v in worst_first if self.ranking.rank(v) > floor]

    def lies(self, previous: int | None) -> dict[int, Fraction]:
        """The liar's choice of announcement after `previous`, with its chances."""
        tiers: list[list[int]] = []
        for v in self.legal(previous):
            if tiers and self.ranking.rank(v) == self.ranking.rank(tiers[-1][0]):
                tiers[-1].append(v)
            else:
                tiers.append([v])
        chosen = tiers[: self.spread + 1]
        return {v: Fraction(1, len(chosen) * len(tier)) for tier in chosen for v in tier}

    def joint(self, previous: int | None) -> dict[int, dict[int, Fraction]]:
        """announcement -> dice held -> chance of both, for one fresh roll after `previous`.

        The chances that are missing make up the cheers (joker 32) of the model.
        """
        if previous in self._joint:
            return self._joint[previous]
        legal = set(self.legal(previous))
        lies = self.lies(previous)
        table: dict[int, dict[int, Fraction]] = {}
        for dice, p in self.dist.items():
            if dice in legal:
                table.setdefault(dice, {})[dice] = p
            elif not (self.rules.joker32 and dice == JOKER):
                for said, q in lies.items():
                    row = table.setdefault(said, {})
                    row[dice] = row.get(dice, ZERO) + p * q
        self._joint[previous] = table
        return table

    def posterior(self, previous: int | None, announced: int) -> dict[int, Fraction]:
        """The announcer's dice given what was announced after what."""
        row = self.joint(previous)[announced]  # every legal value has its truthful share
        total = sum(row.values(), ZERO)
        return {dice: p / total for dice, p in row.items()}

    def p_true(self, previous: int | None, announced: int) -> Fraction:
        floor = self.ranking.rank(announced)
        post = self.posterior(previous, announced)
        return sum((p for d, p in post.items() if self.ranking.rank(d) >= floor), ZERO)

    # --- what outcomes cost, played out on the engine ---------------------------------

    def resolved(self, announced: int, dice: int, answer: str) -> tuple[Fraction, Fraction]:
        """(announcer's loss, receiver's loss) when the answer ends the round."""
        key = (announced, dice, answer)
        if key not in self._resolved:
            self._resolved[key] = _play_out(self.rules, announced, dice, answer)
        return self._resolved[key]

    # --- decisions ---------------------------------------------------------------------

    def options(self, previous: int | None, announced: int, horizon: int) -> dict[str, Fraction]:
        post = self.posterior(previous, announced)

        def receiver(answer: str) -> Fraction:
            return sum((p * self.resolved(announced, d, answer)[1] for d, p in post.items()), ZERO)

        if announced == MIA:
            if self.rules.mia_end == "instant":
                return {SHOWN: receiver(SHOWN)}
            opts = {GIVE_UP: receiver(GIVE_UP), LOOK: receiver(LOOK)}
            if self.rules.beat_mia:
                opts[BEAT] = receiver(BEAT)
            return opts
        opts = {CHALLENGE: receiver(CHALLENGE)}
        if horizon > 0:
            opts[BELIEVE] = self.believe(announced, horizon)
        return opts

    def best(self, previous: int | None, announced: int, horizon: int) -> str:
        key = (-1 if previous is None else previous, announced, horizon)
        if key not in self._best:
            opts = self.options(previous, announced, horizon)
            choice = min(opts, key=lambda o: (opts[o], _PREFERENCE.index(o)))
            self._best[key] = (choice, opts)
        return self._best[key][0]

    def believe(self, announced: int, horizon: int) -> Fraction:
        """The believer's expected loss: roll, announce by the model, face the next player."""
        key = (announced, horizon)
        if key in self._believe:
            return self._believe[key]
        total = ZERO
        for said, row in self.joint(announced).items():
            if said == MIA and self.rules.mia_end == "instant":
                answer = SHOWN
            else:
                answer = self.best(announced, said, horizon - 1)
            if answer == BELIEVE:
                continue  # the cup has left the believer
            for dice, p in row.items():
                total += p * self.resolved(said, dice, answer)[0]
        self._believe[key] = total
        return total


@lru_cache(maxsize=32)
def _model(rules: MiaRules, spread: int) -> _Model:
    return _Model(rules, spread)


def _play_out(rules: MiaRules, announced: int, dice: int, answer: str) -> tuple[Fraction, Fraction]:
    """Play a round on the engine: seat 0 holds `dice` and announces, seat 1 answers.

    Returns what seat 0 (the announcer) and seat 1 (the receiver) lose on average; an
    open roll against Mia (beat) is averaged over the engine's own dice chances.
    """
    state = new_game(rules, players=3).apply(FirstPlayer(0)).state
    state = state.apply(Roll()).state.apply(Dice(dice)).state
    step = state.apply(Announce(announced))
    if answer == SHOWN:
        return _losses(step.events, Fraction(1))
    action: dict[str, MiaAction] = {
        CHALLENGE: Challenge(),
        LOOK: Challenge(),
        GIVE_UP: GiveUp(),
        BEAT: BeatMia(),
    }
    step = step.state.apply(action[answer])
    if step.state.current_player != CHANCE:
        return _losses(step.events, Fraction(1))
    announcer, receiver = ZERO, ZERO
    for outcome, p in step.state.chance_outcomes():
        a, r = _losses(step.state.apply(outcome).events, p)
        announcer, receiver = announcer + a, receiver + r
    return announcer, receiver


def _losses(events: tuple[object, ...], weight: Fraction) -> tuple[Fraction, Fraction]:
    announcer, receiver = ZERO, ZERO
    for event in events:
        if isinstance(event, Penalty):
            if event.player == 0:
                announcer += weight * event.amount
            elif event.player == 1:
                receiver += weight * event.amount
    return announcer, receiver


def _check(rules: MiaRules, previous: int | None, announced: int, spread: int) -> _Model:
    if spread < 0:
        raise ValueError(f"spread counts tiers above the smallest lie: 0 or more, not {spread}")
    model = _model(rules, spread)
    model.ranking.rank(announced)  # a ValueError for a value that is not one
    if previous is not None:
        model.ranking.rank(previous)
        if previous == MIA:
            raise ValueError("nothing is announced after Mia: the round ends with give up or look")
    if announced not in model.legal(previous):
        rule = "equal or beat" if rules.relaxed_raise else "beat"
        raise ValueError(f"{announced} may not follow {previous}: an announcement must {rule} it")
    return model


def p_announcement_true(
    rules: MiaRules, previous: int | None, announced: int, *, spread: int = 0
) -> Fraction:
    """The chance that `announced`, made after `previous` (None: opening), is true.

    Under the module's model: the announcer rolled fresh, told the truth when the roll
    was legal, else showed cheers (32 under joker32) or told the smallest legal lie.
    True means the dice are at least as good as announced, as a challenge judges it.
    """
    return _check(rules, previous, announced, spread).p_true(previous, announced)


def decide(
    rules: MiaRules,
    previous: int | None,
    announced: int,
    *,
    spread: int = 0,
    horizon: int = DEFAULT_HORIZON,
) -> Decision:
    """Every answer to `announced` with the receiver's expected loss, and the best one."""
    if horizon < 1:
        raise ValueError(f"the horizon must be at least 1 announcement, not {horizon}")
    model = _check(rules, previous, announced, spread)
    opts = model.options(previous, announced, horizon)
    best = min(opts, key=lambda o: (opts[o], _PREFERENCE.index(o)))
    ordered = {o: opts[o] for o in _PREFERENCE if o in opts}
    return Decision(previous, announced, model.p_true(previous, announced), ordered, best)


def lie_answers(
    rules: MiaRules,
    announced: int,
    *,
    spread: int = 0,
    horizon: int = DEFAULT_HORIZON,
) -> dict[int, str]:
    """If you believe `announced` and your roll does not let you follow it truthfully:
    each lie the model tells, mapped to the next player's best answer to it."""
    model = _check(rules, None, announced, spread)
    if announced == MIA:
        raise ValueError("Mia cannot be believed by rolling: give up, look or beat")
    return {
        lie: SHOWN
        if lie == MIA and rules.mia_end == "instant"
        else model.best(announced, lie, horizon - 1)
        for lie in model.lies(announced)
    }


def expected_loss(
    rules: MiaRules,
    previous: int | None,
    announced: int,
    *,
    spread: int = 0,
    horizon: int = DEFAULT_HORIZON,
) -> tuple[Fraction, Fraction]:
    """(believe, challenge): the receiver's expected loss for each answer, by the model.

    Against Mia, believe is giving up and challenge is looking; under mia_end=instant
    both are what the shown dice cost.
    """
    d = decide(rules, previous, announced, spread=spread, horizon=horizon)
    if SHOWN in d.options:
        return d.options[SHOWN], d.options[SHOWN]
    if announced == MIA:
        return d.options[GIVE_UP], d.options[LOOK]
    return d.options[BELIEVE], d.options[CHALLENGE]


def announcer_loss(
    rules: MiaRules,
    previous: int | None,
    announced: int,
    dice: int,
    *,
    spread: int = 0,
    horizon: int = DEFAULT_HORIZON,
) -> tuple[str, Fraction]:
    """What announcing `announced` over `previous` costs an announcer who holds `dice`:
    the model's next player answers as `decide` says (not knowing the announcer's dice),
    and a believed announcement costs the announcer nothing this round (the cup has left
    them). Returns (the next player's answer, the announcer's expected loss)."""
    if horizon < 1:
        raise ValueError(f"the horizon must be at least 1 announcement, not {horizon}")
    model = _check(rules, previous, announced, spread)
    model.ranking.rank(dice)
    if announced == MIA and rules.mia_end == "instant":
        answer = SHOWN
    else:
        answer = model.best(previous, announced, horizon)
    if answer == BELIEVE:
        return answer, ZERO
    return answer, model.resolved(announced, dice, answer)[0]
