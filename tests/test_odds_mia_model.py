"""The believe-or-challenge model: its chances by enumeration, its losses on the engine."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from bluffdice.games.base import CHANCE
from bluffdice.games.mia.actions import (
    Announce,
    BeatMia,
    Challenge,
    Cheers,
    Dice,
    FirstPlayer,
    GiveUp,
    Look,
    Penalty,
    Roll,
)
from bluffdice.games.mia.rules import PRESETS, MiaRules
from bluffdice.games.mia.state import MiaState, new_game
from bluffdice.games.mia.values import JOKER, MIA, VALUES, value_of
from bluffdice.odds import mia

CLASSIC = PRESETS["classic"]
MEYER = PRESETS["meyer"]
ROLLS = [value_of(a, b) for a, b in itertools.product(range(1, 7), repeat=2)]


def enumerate_p_true(
    rules: MiaRules, previous: int | None, announced: int, spread: int
) -> Fraction:
    """The model's chance by counting the 36 rolls (non-pips rules: one value per tier)."""
    rank = rules.ranking.rank

    def legal(v: int) -> bool:
        if previous is None:
            return True
        return rank(v) >= rank(previous) if rules.relaxed_raise else rank(v) > rank(previous)

    lowest = sorted((v for v in VALUES if legal(v)), key=rank)[: spread + 1]
    truthful = sum(r == announced for r in ROLLS)
    liars = sum(not legal(r) and not (rules.joker32 and r == JOKER) for r in ROLLS)
    lying = Fraction(liars, len(lowest)) if announced in lowest else Fraction(0)
    return truthful / (truthful + lying)


@pytest.mark.parametrize("rules", [CLASSIC, MEYER, PRESETS["doubles-ascending"]], ids=str)
@pytest.mark.parametrize("spread", [0, 2])
def test_chance_an_announcement_is_true_matches_counting_rolls(
    rules: MiaRules, spread: int
) -> None:
    order = list(reversed(rules.ranking.best_first))
    for i, previous in enumerate(order):
        if previous == MIA:
            continue
        for announced in order[i + 1 :]:
            got = mia.p_announcement_true(rules, previous, announced, spread=spread)
            assert got == enumerate_p_true(rules, previous, announced, spread), (
                previous,
                announced,
            )


def test_62_after_61_is_true_one_time_in_11() -> None:
    # 2 rolls show 62; the 20 rolls that do not beat 61 (61 itself included: 61 54 53
    # 52 51 43 42 41 32 31) all lie "62", the smallest lie.
    assert mia.p_announcement_true(CLASSIC, 61, 62) == Fraction(2, 22)
    # In Meyer 31 ranks high and 32 is cheers, never a lie: 16 liars (61 ... 41).
    assert mia.p_announcement_true(MEYER, 61, 62) == Fraction(2, 18)


def test_an_opening_announcement_is_always_true_in_the_model() -> None:
    assert all(mia.p_announcement_true(CLASSIC, None, v) == 1 for v in VALUES)


def test_challenge_costs_the_chance_the_announcement_is_true() -> None:
    believe, challenge = mia.expected_loss(CLASSIC, 61, 62)
    assert challenge == Fraction(1, 11)
    # Believing 62: 14/36 of rolls beat it; the other 22 lie 63, which the next player
    # challenges (63 after 62 is true 2 times in 24), so every one of them loses.
    assert believe == Fraction(22, 36)
    assert mia.decide(CLASSIC, 61, 62).best == mia.CHALLENGE


def test_mia_endgame_give_up_or_look() -> None:
    # After 66 only Mia is legal: 2 true rolls against 34 liars. Looking costs 2 lives
    # 1/18 of the time; giving up costs 1 for sure.
    d = mia.decide(CLASSIC, 66, MIA)
    assert d.p_true == Fraction(2, 36)
    assert d.options == {mia.LOOK: Fraction(2, 36) * 2, mia.GIVE_UP: Fraction(1)}
    assert d.best == mia.LOOK
    assert mia.expected_loss(CLASSIC, 66, MIA) == (Fraction(1), Fraction(1, 9))
    # After 65 Mia is not the smallest lie (66 is): in the model it is true; give up.
    assert mia.decide(CLASSIC, 65, MIA).best == mia.GIVE_UP
    # Mia penalty doubled: giving up costs 2.
    assert mia.expected_loss(MiaRules(mia_doubled=True), 65, MIA)[0] == 2


def test_beat_mia_option_is_offered_and_costs_the_chance_of_missing_21() -> None:
    d = mia.decide(MiaRules(beat_mia=True), 65, MIA)
    assert d.options[mia.BEAT] == Fraction(34, 36)


def test_instant_mia_leaves_no_choice() -> None:
    maexchen = PRESETS["maexchen"]
    believe, challenge = mia.expected_loss(maexchen, 66, MIA)
    assert believe == challenge == mia.p_announcement_true(maexchen, 66, MIA)
    assert list(mia.decide(maexchen, 66, MIA).options) == [mia.SHOWN]


def test_relaxed_raise_uses_the_horizon_and_stays_a_chance() -> None:
    relaxed = MiaRules(relaxed_raise=True, pass_allowed=False)
    for v in (54, 62, 66):
        for horizon in (1, 3, 10):
            believe, challenge = mia.expected_loss(relaxed, v, v, horizon=horizon)
            assert 0 <= believe <= 1 and 0 <= challenge <= 1
    # Equal is legal, so a liar repeats the value: 62 after 62.
    assert mia.p_announcement_true(relaxed, 62, 62) == Fraction(2, 2 + 20)


def test_strict_raise_is_exact_whatever_the_longer_horizon() -> None:
    for v in (31, 54, 62):
        assert mia.expected_loss(CLASSIC, None, v) == mia.expected_loss(
            CLASSIC, None, v, horizon=40
        )


def test_bad_questions_are_refused() -> None:
    with pytest.raises(ValueError, match="may not follow"):
        mia.decide(CLASSIC, 62, 61)
    with pytest.raises(ValueError, match="after Mia"):
        mia.decide(CLASSIC, MIA, 66)
    with pytest.raises(ValueError, match="not a Mia value"):
        mia.decide(CLASSIC, None, 77)
    with pytest.raises(ValueError, match="spread"):
        mia.p_announcement_true(CLASSIC, None, 62, spread=-1)
    with pytest.raises(ValueError, match="horizon"):
        mia.expected_loss(CLASSIC, None, 62, horizon=0)


# --- the believer's loss, played out on the engine -------------------------------------


def penalties(events: tuple[object, ...], player: int) -> int:
    return sum(e.amount for e in events if isinstance(e, Penalty) and e.player == player)


def believe_on_engine(rules: MiaRules, announced: int) -> Fraction:
    """Seat 1 believes seat 0's `announced` and plays the model on the engine; seat 2
    answers by `mia.decide`. Returns seat 1's expected loss over the engine's dice."""
    state: MiaState = new_game(rules, players=3).apply(FirstPlayer(0)).state
    state = state.apply(Roll()).state.apply(Dice(42)).state
    state = state.apply(Announce(announced)).state.apply(Roll()).state
    assert state.current_player == CHANCE
    total = Fraction(0)
    for outcome, p in state.chance_outcomes():
        held = state.apply(outcome).state
        if not held.looked:
            held = held.apply(Look()).state
        legal = [a for a in held.legal_actions() if isinstance(a, Announce)]
        rolled = outcome.value
        if Announce(rolled) in legal:
            action: object = Announce(rolled)
        elif rules.joker32 and rolled == JOKER:
            action = Cheers()
        else:
            action = legal[0]  # the engine lists announcements worst first
        step = held.apply(action)
        if not isinstance(action, Announce) or step.state.turn != 2 or step.state.phase == "open":
            total += p * penalties(step.events, 1)
            continue
        answer = mia.decide(rules, announced, action.value).best
        if answer == mia.BELIEVE:
            continue  # the cup has left seat 1
        reply = {mia.CHALLENGE: Challenge(), mia.LOOK: Challenge(), mia.GIVE_UP: GiveUp()}
        after = step.state.apply(reply.get(answer, BeatMia()))
        if after.state.current_player == CHANCE:
            for beat, q in after.state.chance_outcomes():
                total += p * q * penalties(after.state.apply(beat).events, 1)
        else:
            total += p * penalties(after.events, 1)
    return total


@pytest.mark.parametrize(
    "rules",
    [CLASSIC, MEYER, MiaRules(mia_doubled=True, beat_mia=True), PRESETS["maexchen"]],
    ids=lambda r: r.text,
)
def test_believe_loss_agrees_with_the_engine(rules: MiaRules) -> None:
    for announced in (31, 43, 54, 62, 65, 11, 66):
        believe, _ = mia.expected_loss(rules, None, announced)
        assert believe == believe_on_engine(rules, announced), announced
