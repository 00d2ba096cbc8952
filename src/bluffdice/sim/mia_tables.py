"""Mia table policies: what a player does in each information situation, as arrays.

The batch simulator cannot call a bot's `act` for a million games at once, but it can look
up a row of probabilities. A *table policy* is such a set of rows. Its situations are the
facts the character bots, `odds` (without the pass) and the solver's heads-up policies
(without the pass) decide on:

    hold    (role, floor, dice): the player holds fresh dice; `floor` is the value to
            beat (0: none, else 1 + its code); `role` 0 when the player opened the round
    answer  (role, prev, announced, called): the player answers an announcement or a
            pass; `prev` is the call before it (0: none, else 1 + code), `role` 0 when
            the player who rolled the dice under the cup opened the round, `called` 1
            when the player already announced or passed in this round

Values are coded by their place in the rule set's ranking, worst first (code 0 is the
worst value, code 20 is Mia), so "higher" is a comparison of ranks that `MiaLayout` reads
from the engine's `Ranking`. Action codes: 0-20 announce (hold) or pass (answer) that
value, then challenge, roll, give up, beat, cheers.

A hold row is the whole decision from fresh dice to announcement. Where blind
announcements are allowed, a table folds the choice to look into it: a bot that looks
with chance q plays q times its row for the dice plus (1 - q) times its blind row. No one
else ever sees whether the roller looked, so the game plays the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from bluffdice.games.mia.rules import MiaRules
from bluffdice.games.mia.values import JOKER, MIA
from bluffdice.games.registry import rules_string

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

VALUES_N = 21
CHALLENGE = 21
ROLL = 22
GIVE_UP = 23
BEAT = 24
CHEERS = 25
WIDTH = 26
"""Action codes per row."""

ROLES = 2
FLOORS = VALUES_N + 1


class MiaLayout:
    """The codes of one rule set: values worst first, their ranks, and which action codes
    are legal in each situation, all read from the engine's rules objects."""

    def __init__(self, rules: MiaRules) -> None:
        self.rules = rules
        ranking = rules.ranking
        self.values: tuple[int, ...] = ranking.worst_first
        self.code = {v: i for i, v in enumerate(self.values)}
        self.rank = np.array([ranking.rank(v) for v in self.values], dtype=np.int16)
        self.mia = self.code[MIA]
        self.joker = self.code[JOKER]
        from bluffdice.odds.mia import roll_distribution

        dist = roll_distribution(rules)
        self.roll_p = np.array([float(dist[v]) for v in self.values])
        # The 36 equally likely ordered rolls, as codes: sampling is one table look-up.
        sides: list[int] = []
        for v in self.values:
            sides.extend([self.code[v]] * round(float(dist[v]) * 36))
        if len(sides) != 36:  # pragma: no cover - guards an engine change
            raise AssertionError("Mia rolls should come in 36ths")
        self.sides = np.array(sides, dtype=np.int8)

    def value(self, code: int) -> int:
        return self.values[code]

    def floor_code(self, value: int | None) -> int:
        return 0 if value is None else 1 + self.code[value]

    @cached_property
    def hold_legal(self) -> BoolArray:
        """(floor, dice, action): legal after the dice were looked at."""
        legal = np.zeros((FLOORS, VALUES_N, WIDTH), dtype=bool)
        relaxed = self.rules.relaxed_raise
        for f in range(FLOORS):
            if f == 0:
                ok = np.ones(VALUES_N, dtype=bool)
            elif relaxed:
                ok = self.rank >= self.rank[f - 1]
            else:
                ok = self.rank > self.rank[f - 1]
            legal[f, :, :VALUES_N] = ok
        if self.rules.joker32:
            legal[:, self.joker, CHEERS] = True
        return legal

    @cached_property
    def answer_legal(self) -> BoolArray:
        """(announced, action): legal when answering that announcement."""
        legal = np.zeros((VALUES_N, WIDTH), dtype=bool)
        for a in range(VALUES_N):
            if a == self.mia:
                if self.rules.mia_end == "instant":
                    continue  # the dice are shown at once: no one answers a Mia
                legal[a, GIVE_UP] = legal[a, CHALLENGE] = True
                legal[a, BEAT] = self.rules.beat_mia
                continue
            legal[a, CHALLENGE] = legal[a, ROLL] = True
            if self.rules.pass_allowed:
                legal[a, :VALUES_N] = self.rank >= self.rank[a]
        return legal

    def reach(self, code: int) -> Fraction:
        """The exact chance a fresh roll is at least as good as the value `code` (the bots'
        own helper, so thresholds compare exactly as they do in the bots)."""
        from bluffdice.bots.mia_tools import reach_chance

        return reach_chance(self.rules.ranking, self.value(code))


@dataclass
class MiaTable:
    """A table policy for one Mia rule set: `hold[role, floor, dice]` and
    `answer[role, prev, announced, called]` are distributions over action codes."""

    name: str
    rules: MiaRules
    hold: FloatArray
    answer: FloatArray
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def empty(cls, name: str, rules: MiaRules) -> MiaTable:
        return cls(
            name=name,
            rules=rules,
            hold=np.zeros((ROLES, FLOORS, VALUES_N, WIDTH)),
            answer=np.zeros((ROLES, FLOORS, VALUES_N, 2, WIDTH)),
        )

    def check(self) -> list[str]:
        """Rows that are not distributions over legal actions (reachable or not)."""
        layout = layout_of(self.rules)
        broken = []
        hold_ok = np.broadcast_to(layout.hold_legal, self.hold.shape)
        answer_ok = np.broadcast_to(layout.answer_legal[None, None, :, None, :], self.answer.shape)
        for name, arr, ok in (("hold", self.hold, hold_ok), ("answer", self.answer, answer_ok)):
            if np.any(arr < 0) or np.any(arr[~ok] > 1e-9):
                broken.append(f"{self.name}: {name} puts weight on an illegal action")
            sums = arr.sum(axis=-1)
            expected = ok.any(axis=-1).astype(float)
            if not np.allclose(sums, expected, atol=1e-6):
                broken.append(f"{self.name}: a {name} row does not sum to 1")
        return broken


_LAYOUTS: dict[MiaRules, MiaLayout] = {}


def layout_of(rules: MiaRules) -> MiaLayout:
    found = _LAYOUTS.get(rules)
    if found is None:
        found = _LAYOUTS[rules] = MiaLayout(rules)
    return found


def _uniform(mask: BoolArray) -> FloatArray:
    """Uniform over the legal actions; all zeros where nothing is legal (a situation that
    cannot arise, such as holding dice over a Mia)."""
    m = mask.astype(float)
    total = m.sum(axis=-1, keepdims=True)
    rows: FloatArray = np.divide(m, total, out=np.zeros_like(m), where=total > 0)
    return rows


def _fold_look(
    rules: MiaRules, looked: FloatArray, blind: FloatArray, p_look: FloatArray
) -> FloatArray:
    """Hold rows from a looked row per dice and a blind row (see the module docstring)."""
    if not rules.blind:
        return looked
    q = p_look[..., None, None]
    return q * looked + (1.0 - q) * blind[:, :, None, :]


# --- table forms of the character bots -------------------------------------------------


def random_table(rules: MiaRules) -> MiaTable:
    """`random`: a uniformly random legal action (looking counts as one of them)."""
    layout = layout_of(rules)
    table = MiaTable.empty("random", rules)
    legal = np.broadcast_to(layout.hold_legal, table.hold.shape)
    looked = _uniform(legal)
    # Blind: the view offers look plus every announcement (cheers needs a look).
    announce = legal[..., 0, :].copy()  # dice 0 is never the joker's: announcements only
    announce[..., CHEERS] = False
    blind = _uniform(announce)
    p_look = 1.0 / (1.0 + announce.sum(axis=-1))
    table.hold = _fold_look(rules, looked, blind, p_look)
    answer = np.broadcast_to(layout.answer_legal[None, None, :, None, :], table.answer.shape)
    table.answer = _uniform(answer)
    return table


def _announceable(layout: MiaLayout, floor: int) -> list[int]:
    return [int(c) for c in np.flatnonzero(layout.hold_legal[floor, 0, :VALUES_N])]


def _step_up(values: list[int], start: int, steps: int) -> int:
    """`bots.mia_tools.step_up` on codes (the same list order, worst first)."""
    index = values.index(start) if start in values else 0
    return values[min(index + steps, len(values) - 1)]


def _character(
    name: str,
    rules: MiaRules,
    announce: Callable[[MiaLayout, int, int, list[int]], dict[int, float]],
    answer: Callable[[MiaLayout, int, int, int], dict[int, float]],
) -> MiaTable:
    """A `Character` bot as a table: it always looks, then `announce(layout, dice, floor,
    values)` or `answer(layout, prev, announced, called)` give its action distribution."""
    layout = layout_of(rules)
    table = MiaTable.empty(name, rules)
    for f in range(FLOORS):
        values = _announceable(layout, f)
        for d in range(VALUES_N):
            legal = np.flatnonzero(layout.hold_legal[f, d])
            if len(legal) == 0:
                continue
            row = {int(legal[0]): 1.0} if len(legal) == 1 else announce(layout, d, f, values)
            for a, p in row.items():
                table.hold[:, f, d, a] += p
    for p in range(FLOORS):
        for a in range(VALUES_N):
            if not layout.answer_legal[a].any():
                continue
            for c in (0, 1):
                for act, prob in answer(layout, p, a, c).items():
                    table.answer[:, p, a, c, act] += prob
    return table


def liar_table(rules: MiaRules) -> MiaTable:
    """`liar` (bots.mia_characters.LiarBot)."""
    from bluffdice.bots.mia_characters import LiarBot

    lie = LiarBot.lie_rate

    def announce(layout: MiaLayout, d: int, f: int, values: list[int]) -> dict[int, float]:
        row: dict[int, float] = {}
        truth_ok = d in values
        p_lie = lie if truth_ok else 1.0
        if truth_ok:
            row[d] = 1.0 - lie
        p_rest = p_lie
        if layout.mia in values:
            row[layout.mia] = row.get(layout.mia, 0.0) + p_lie * 0.08
            p_rest = p_lie * 0.92
        start = d if truth_ok else values[0]
        for steps in (2, 3, 4, 5):
            v = _step_up(values, start, steps)
            row[v] = row.get(v, 0.0) + p_rest / 4
        return row

    def answer(layout: MiaLayout, p: int, a: int, c: int) -> dict[int, float]:
        if a == layout.mia:
            return {CHALLENGE: 0.7, GIVE_UP: 0.3}
        return {CHALLENGE: 1.0} if layout.reach(a) < Fraction(1, 2) else {ROLL: 1.0}

    return _character("liar", rules, announce, answer)


def lucky_table(rules: MiaRules) -> MiaTable:
    """`lucky` (bots.mia_characters.LuckyBot)."""
    from bluffdice.bots.mia_characters import LuckyBot

    high = LuckyBot.high

    def announce(layout: MiaLayout, d: int, f: int, values: list[int]) -> dict[int, float]:
        row: dict[int, float] = {}
        weight = 1.0
        if rules.joker32 and d == layout.joker:
            row[CHEERS] = 0.5
            weight = 0.5
        below_mia = [v for v in values if v != layout.mia] or values
        claims = below_mia[-high:]
        for claim in claims:
            pick = d if d in values and layout.rank[d] >= layout.rank[claim] else claim
            row[pick] = row.get(pick, 0.0) + weight / len(claims)
        return row

    def answer(layout: MiaLayout, p: int, a: int, c: int) -> dict[int, float]:
        if a == layout.mia:
            return {BEAT: 1.0} if rules.beat_mia else {CHALLENGE: 0.15, GIVE_UP: 0.85}
        if layout.reach(a) < Fraction(1, 10):
            return {CHALLENGE: 0.3, ROLL: 0.7}
        return {ROLL: 1.0}

    return _character("lucky", rules, announce, answer)


def chain_table(rules: MiaRules) -> MiaTable:
    """`chain` (bots.mia_characters.ChainBot)."""

    def announce(layout: MiaLayout, d: int, f: int, values: list[int]) -> dict[int, float]:
        row: dict[int, float] = {}
        start = d if d in values else values[0]
        for steps in (1, 2):
            inflated = _step_up(values, start, steps)
            pick = start if inflated == layout.mia and start != layout.mia else inflated
            row[pick] = row.get(pick, 0.0) + 0.5
        return row

    def answer(layout: MiaLayout, p: int, a: int, c: int) -> dict[int, float]:
        if a == layout.mia:
            return {CHALLENGE: 0.5, GIVE_UP: 0.5}
        options = [int(v) for v in np.flatnonzero(layout.answer_legal[a, :VALUES_N])]
        if options and c == 0:
            below_mia = [v for v in options if v != layout.mia] or options
            row: dict[int, float] = {}
            for steps in (1, 2):
                v = _step_up(below_mia, a, steps)
                row[v] = row.get(v, 0.0) + 0.5
            return row
        return {CHALLENGE: 1.0} if layout.reach(a) < Fraction(2, 5) else {ROLL: 1.0}

    return _character("chain", rules, announce, answer)


# --- tables read from the bots themselves -------------------------------------------


def _hold_view(rules: MiaRules, role: int, floor: int, dice: int) -> Any:
    """A real engine view of seat `me` holding `dice` it looked at, over `floor`."""
    layout = layout_of(rules)
    state = _start(rules)
    from bluffdice.games.mia import Call

    me = role if floor else 0  # seat 0 opens; role 1 without a floor cannot happen
    fval = layout.value(floor - 1) if floor else 0
    calls: tuple[Any, ...] = ()
    if floor and me == 0:  # the opener rolls again: it called, then seat 1 called fval
        calls = (Call(0, "announce", fval), Call(1, "announce", fval))
    elif floor:  # seat 1 answers the opener's fval
        calls = (Call(0, "announce", fval),)
    state = msgspec.structs.replace(
        state,
        phase="hold",
        turn=me,
        dice=layout.value(dice),
        roller=me,
        looked=True,
        announced=fval,
        announcer=(1 - me) if floor else -1,
        calls=calls,
    )
    return state.view(me)


def _answer_view(rules: MiaRules, role: int, prev: int, announced: int) -> Any:
    """A real engine view of seat 1 answering seat 0's `announced` after `prev`."""
    from bluffdice.games.mia import Call

    layout = layout_of(rules)
    a = layout.value(announced)
    calls: tuple[Any, ...]
    if prev == 0:
        calls = (Call(0, "announce", a),)
    else:
        p = layout.value(prev - 1)
        calls = (Call(1, "announce", p), Call(0, "announce", a))
        if role == 0:
            calls = (Call(0, "announce", p), *calls)
    state = msgspec.structs.replace(
        _start(rules),
        phase="mia" if a == MIA else "respond",
        turn=1,
        dice=layout.value(0),
        roller=0,
        looked=True,
        announced=a,
        announcer=0,
        calls=calls,
    )
    return state.view(1)


def _start(rules: MiaRules) -> Any:
    from bluffdice.games.mia import FirstPlayer, new_game

    return new_game(rules, 2).apply(FirstPlayer(0)).state


Chooser = Callable[[Any], dict[Any, float]]
"""A view -> distribution over engine actions."""


def action_code(layout: MiaLayout, action: Any) -> int:
    """The action code of an engine action."""
    from bluffdice.games.mia import Announce, BeatMia, Challenge, Cheers, GiveUp, Pass, Roll

    if isinstance(action, Announce | Pass):
        return layout.code[action.value]
    codes = {Challenge: CHALLENGE, Roll: ROLL, GiveUp: GIVE_UP, BeatMia: BEAT, Cheers: CHEERS}
    return codes[type(action)]


def engine_action(layout: MiaLayout, code: int, answering: bool) -> Any:
    """The engine action of a code (a value code is a pass when answering)."""
    from bluffdice.games.mia import Announce, BeatMia, Challenge, Cheers, GiveUp, Pass, Roll

    if code < VALUES_N:
        value = layout.value(code)
        return Pass(value) if answering else Announce(value)
    return {
        CHALLENGE: Challenge(),
        ROLL: Roll(),
        GIVE_UP: GiveUp(),
        BEAT: BeatMia(),
        CHEERS: Cheers(),
    }[code]


def queried_table(name: str, rules: MiaRules, choose: Chooser) -> MiaTable:
    """A table from a function that answers real engine views (the bot's own code)."""
    layout = layout_of(rules)
    table = MiaTable.empty(name, rules)
    for role in range(ROLES):
        for f in range(FLOORS):
            for d in range(VALUES_N):
                if not layout.hold_legal[f, d].any():
                    continue
                for action, p in choose(_hold_view(rules, role, f, d)).items():
                    table.hold[role, f, d, action_code(layout, action)] += p
    for role in range(ROLES):
        for prev in range(FLOORS):
            for a in range(VALUES_N):
                if not layout.answer_legal[a].any():
                    continue
                row = np.zeros(WIDTH)
                for action, p in choose(_answer_view(rules, role, prev, a)).items():
                    row[action_code(layout, action)] += p
                table.answer[role, prev, a, :, :] = row
    return table


def _deterministic(bot_name: str) -> Chooser:
    import random

    from bluffdice.bots.base import load_bot

    bot = load_bot(bot_name, "mia", random.Random(0))

    def choose(view: Any) -> dict[Any, float]:
        return {bot.act(view): 1.0}

    return choose


def honest_table(rules: MiaRules) -> MiaTable:
    """`honest` (deterministic: read from the bot itself)."""
    return queried_table("honest", rules, _deterministic("honest"))


def odds_table(rules: MiaRules) -> MiaTable:
    """`odds` (deterministic: read from the bot itself); without the pass only, since
    with it the bot weighs the claim behind a chain of passes."""
    return queried_table("odds", rules, _deterministic("odds"))


def cfr_table(rules: MiaRules) -> MiaTable:
    """`cfr`: the solver's policy, with the bot's own fallback (`honest`) where the policy
    has no row or names an illegal action; without the pass only."""
    from bluffdice.bots import cfr
    from bluffdice.games.mia import parse_action
    from bluffdice.solve import mia as solve_mia

    text = rules_string(rules)
    found = cfr._mia_rules(text)
    honest = _deterministic("honest")
    if found is None:
        return queried_table("cfr", rules, honest)
    spec, ranking = found
    policy = cfr._policy_for("mia", spec)

    def choose(view: Any) -> dict[Any, float]:
        if policy is None:
            return honest(view)
        calls = [(c.player, c.kind, c.value) for c in view.calls]
        opener = calls[0][0] if calls else view.player
        if view.phase == "hold":
            info = solve_mia.hold_info(ranking, calls, view.player, opener)
        else:
            info = solve_mia.answer_info(ranking, calls, opener)
        hand = str(view.my_dice) if view.my_dice is not None else None
        dist = policy.distribution(solve_mia.key_text(info), hand)
        if not dist:
            return honest(view)
        total = sum(dist.values())
        out: dict[Any, float] = {}
        missing = 0.0
        for label, p in dist.items():
            action = parse_action(label)
            if action in view.legal_actions:
                out[action] = out.get(action, 0.0) + p / total
            else:
                missing += p / total
        if missing > 0:
            for action, p in honest(view).items():
                out[action] = out.get(action, 0.0) + missing * p
        return out

    table = queried_table("cfr", rules, choose)
    table.meta["policy"] = None if policy is None else policy.title
    return table


TABLE_BOTS: dict[str, Callable[[MiaRules], MiaTable]] = {
    "random": random_table,
    "honest": honest_table,
    "liar": liar_table,
    "lucky": lucky_table,
    "chain": chain_table,
    "odds": odds_table,
    "cfr": cfr_table,
}


def why_not_tabular(bot: str, rules: MiaRules) -> str | None:
    """None if `bot` has a table form under `rules`, else the reason it has none."""
    if bot not in TABLE_BOTS:
        return f"{bot} keeps state or reads more than the table's situations"
    if rules.pass_allowed and rules.pass_limit:
        return "the table does not count passes in a row (pass_limit): use the engine"
    if bot in ("odds", "cfr") and rules.pass_allowed:
        return f"{bot} weighs the claim behind a chain of passes, which the table does not hold"
    return None


_CACHE: dict[tuple[str, MiaRules], MiaTable] = {}


def table_for(bot: str, rules: MiaRules) -> MiaTable:
    """The table form of a built-in bot (cached per rule set); ValueError if it has none."""
    why = why_not_tabular(bot, rules)
    if why is not None:
        raise ValueError(why)
    key = (bot, rules)
    if key not in _CACHE:
        _CACHE[key] = TABLE_BOTS[bot](rules)
    return _CACHE[key]


def situation_of(state: Any) -> tuple[str, tuple[int, ...]]:
    """The table situation of an engine state where a player decides: ("hold", (role,
    floor, dice)) or ("answer", (role, prev, announced, called)); the simulator computes
    the same numbers from its arrays."""
    layout = layout_of(state.rules)
    calls = state.calls
    opener = calls[0].player if calls else state.turn
    if state.phase == "hold":
        floor = layout.floor_code(calls[-1].value) if calls else 0
        return "hold", (int(state.turn != opener), floor, layout.code[state.dice])
    prev = layout.floor_code(calls[-2].value) if len(calls) >= 2 else 0
    called = int(any(c.player == state.turn for c in calls))
    role = int(state.roller != opener)
    return "answer", (role, prev, layout.code[state.announced], called)


def row_of(table: MiaTable, state: Any) -> FloatArray:
    """The table's distribution over action codes in an engine state."""
    kind, index = situation_of(state)
    row: FloatArray = table.hold[index] if kind == "hold" else table.answer[index]
    return row
