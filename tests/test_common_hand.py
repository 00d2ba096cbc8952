"""Common hand (two-player poker dice): hand ranking, what a claim promises, rerolls,
challenges, lives, and what each player may see."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from bluffdice.games import IllegalAction, RuleError, parse_rules
from bluffdice.games.common_hand import (
    Call,
    Challenge,
    Challenged,
    Claim,
    Claimed,
    CommonHandState,
    Dice,
    GameOver,
    LifeLost,
    Reroll,
    Revealed,
    Rolled,
    RoundStarted,
    YourDice,
    claim_keys,
    describe_key,
    hand_key,
    new_game,
    parse_action,
    parse_claim,
)
from bluffdice.games.common_hand.hands import CATEGORY_RANK
from bluffdice.games.common_hand.rules import CommonHandRules


def run(state: CommonHandState, *steps: str) -> tuple[CommonHandState, list[Any]]:
    events: list[Any] = []
    for text in steps:
        state, new = state.apply(parse_action(text))
        events.extend(new)
    return state, events


def at_claim(rules: str, mine: str, theirs: str) -> CommonHandState:
    """Seat 0 opens; the cups hold `mine` (seat 0) and `theirs` (seat 1)."""
    state = new_game(parse_rules(rules), 2)
    if state.phase == "seat":
        state = state.apply(parse_action("first 0")).state
    return run(state, mine, theirs)[0]


def test_golden_round_with_a_reroll_and_a_failed_challenge() -> None:
    state = new_game(parse_rules("common-hand"), 2)
    state, events = run(
        state,
        "first 0",
        "dice 99TKA",  # seat 0: a pair of nines
        "dice JJJQA",  # seat 1: three jacks
        "pair A",  # a bluff
        "three J",  # the truth
        "reroll T K A",  # seat 0 keeps the nines
        "dice 99A",  # ... and rolls two more nines: four nines
        "four 9",
        "liar",
    )
    four_nines = Claim("four", 1)
    assert events == [
        RoundStarted(round=1, starter=0),
        Rolled(player=0, count=5),
        YourDice(player=0, dice=(1, 1, 2, 5, 6)),
        Rolled(player=1, count=5),
        YourDice(player=1, dice=(3, 3, 3, 4, 6)),
        Claimed(player=0, claim=Claim("pair", 6)),
        Claimed(player=1, claim=Claim("three", 3)),
        Rolled(player=0, count=3),
        YourDice(player=0, dice=(1, 1, 1, 1, 6)),
        Claimed(player=0, claim=four_nines),
        Challenged(player=1, claimer=0, claim=four_nines),
        Revealed(hands=((1, 1, 1, 1, 6), (3, 3, 3, 4, 6)), claimer=0, claim=four_nines, held=True),
        LifeLost(player=1, lives=2, reason="lost_challenge"),
        RoundStarted(round=2, starter=1),
    ]
    assert state.lives == (3, 2) and state.phase == "roll"
    summary = state.last_round
    assert summary is not None and summary.loser == 1 and summary.held
    assert summary.calls == (
        Call(0, Claim("pair", 6)),
        Call(1, Claim("three", 3)),
        Call(0, four_nines, rerolled=3),
    )


def test_hand_ranking() -> None:
    order = [
        "9TJQA",  # nothing
        "99TJK",  # pair of nines
        "TTJQA",  # pair of tens
        "99TTA",  # two pair tens and nines
        "99AAK",  # two pair aces and nines
        "JJJ9A",  # three jacks
        "9TJQK",  # straight to the king
        "TJQKA",  # straight to the ace
        "999KK",  # full house nines over kings
        "KKK99",  # full house kings over nines
        "QQQQ9",  # four queens
        "99999",  # five nines
    ]
    keys = [hand_key(tuple(sorted(parse_action("dice " + h).dice))) for h in order]  # type: ignore[union-attr]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert describe_key(keys[8]) == "full house, nines over kings"
    assert hand_key((2, 3, 4, 5, 6), straights=False)[0] == CATEGORY_RANK["nothing"]


def test_the_claim_ladder() -> None:
    assert len(claim_keys(True)) == 6 + 15 + 6 + 2 + 30 + 6 + 6
    assert len(claim_keys(False)) == 69
    table = CommonHandRules().table
    full_nines_kings = (1, 1, 1, 5, 5)
    # a claim promises the caller's own five dice make at least that hand
    assert table.makes(full_nines_kings, Claim("pair", 6))
    assert table.makes(full_nines_kings, Claim("full-house", 1, 5))
    assert not table.makes(full_nines_kings, Claim("full-house", 1, 6))
    assert not table.makes((5, 5, 1, 2, 3), Claim("pair", 6))


def test_answers_to_a_claim() -> None:
    state = at_claim("common-hand", "dice 99TKA", "dice JJJQA")
    assert Challenge() not in state.legal_actions()  # nothing to challenge yet
    assert not any(isinstance(a, Reroll) for a in state.legal_actions())  # the opener names
    with pytest.raises(IllegalAction, match="nothing has been claimed"):
        state.apply(Challenge())
    state = run(state, "two-pair K T")[0]
    legal = state.legal_actions()
    assert Challenge() in legal
    assert Claim("two-pair", 5, 2) not in legal and Claim("two-pair", 5, 3) in legal
    with pytest.raises(IllegalAction, match="name a higher hand"):
        state.apply(Claim("pair", 6))
    # seat 1 holds J J J Q A: any non-empty choice of those dice, 4*2*2 - 1 of them
    rerolls = [a for a in legal if isinstance(a, Reroll)]
    assert len(rerolls) == 15 and Reroll((3, 3, 3, 4, 6)) in rerolls
    with pytest.raises(IllegalAction, match="only reroll dice you hold"):
        state.apply(Reroll((1,)))
    state = run(state, "reroll Q A")[0]
    assert state.phase == "reroll" and state.view(1).my_dice == (3, 3, 3)
    state = run(state, "dice JQ")[0]
    assert state.phase == "raise" and state.hands[1] == (3, 3, 3, 3, 4)
    assert Challenge() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="you rerolled"):
        state.apply(Challenge())
    with pytest.raises(IllegalAction, match="once a turn"):
        state.apply(Reroll((4,)))
    state, events = run(state, "four J", "liar")
    assert LifeLost(player=0, lives=2, reason="lost_challenge") in events


def test_bluff_caught_and_top_claim() -> None:
    state = at_claim("common-hand(lives=1)", "dice 99TKA", "dice JJJQA")
    state = run(state, "five A")[0]
    assert state.legal_actions() == (Challenge(),)  # nothing is higher than five aces
    state, events = run(state, "liar")
    assert (
        Revealed(
            hands=((1, 1, 2, 5, 6), (3, 3, 3, 4, 6)), claimer=0, claim=Claim("five", 6), held=False
        )
        in events
    )
    assert events[-1] == GameOver(winners=(1,), losers=(0,), standings=(1, 0))
    assert state.returns() == (-1.0, 1.0)


def test_rerolls_and_straights_can_be_turned_off() -> None:
    state = run(at_claim("common-hand(reroll=off)", "dice 99TKA", "dice JJJQA"), "pair K")[0]
    assert not any(isinstance(a, Reroll) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="rerolling is off"):
        state.apply(Reroll((6,)))
    state = at_claim("common-hand(straights=off)", "dice 99TKA", "dice JJJQA")
    with pytest.raises(IllegalAction, match="straights do not count"):
        state.apply(Claim("straight", 6))


def test_views_never_hold_the_other_cup() -> None:
    state = run(at_claim("common-hand", "dice 99TKA", "dice JJJQA"), "pair A")[0]
    assert state.view(0).my_dice == (1, 1, 2, 5, 6)
    assert state.view(1).my_dice == (3, 3, 3, 4, 6)
    assert state.view(None).my_dice is None
    assert msgspec.json.encode([1, 1, 2, 5, 6]) not in msgspec.json.encode(state.view(1))
    for variant in state.indistinguishable(0):
        assert variant.view(0) == state.view(0)


def test_text_forms() -> None:
    assert parse_claim("a pair of aces") == parse_claim("pair A") == Claim("pair", 6)
    assert parse_claim("two pair 10 K") == Claim("two-pair", 5, 2)
    assert parse_claim("full house kings over tens") == Claim("full-house", 5, 2)
    assert parse_claim("straight high") == parse_claim("straight 10 to A") == Claim("straight", 6)
    assert parse_claim("straight low") == Claim("straight", 5)
    assert parse_claim("three 1") == Claim("three", 1)  # faces 1..6 count up from the nine
    assert parse_action("reroll 9 9 10") == Reroll((1, 1, 2))
    assert parse_action("dice A9T") == Dice((1, 2, 6))
    for claim in CommonHandRules().table.claims:
        assert parse_action(str(claim)) == claim
    for bad in ["pair", "two pair K K", "straight Q", "full house A A", "banana"]:
        with pytest.raises(ValueError):
            parse_action(bad)


def test_two_players_only() -> None:
    with pytest.raises(RuleError, match="two players"):
        new_game(parse_rules("poker-dice"), 3)


def test_malformed_claims_and_rerolls_are_refused_with_a_reason() -> None:
    state = at_claim("common-hand", "dice 99TKA", "dice JJJQA")
    for bad in [Claim("pair", 7), Claim("pair", 0), Claim("nothing", 6), Claim("bogus", 1)]:
        with pytest.raises(IllegalAction, match="not a hand that can be claimed") as refused:
            state.apply(bad)
        assert "pair A" not in str(refused.value.reason.split(":")[0])  # 0 is no ace
    state = run(state, "pair K")[0]
    for bad in [Reroll([3, 3]), Reroll((3.0,)), Reroll((True,))]:  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="faces of your own dice"):
            state.apply(bad)
    with pytest.raises(IllegalAction, match="at least one"):
        state.apply(Reroll(()))
    with pytest.raises(IllegalAction, match="lowest first: reroll J Q"):
        state.apply(Reroll((4, 3)))


def test_nothing_beats_five_aces_says_so() -> None:
    state = run(at_claim("common-hand", "dice 99TKA", "dice JJJQA"), "five A")[0]
    for bad in [Reroll((3,)), Claim("five", 6), Claim("pair", 1)]:
        with pytest.raises(IllegalAction, match="nothing beats five aces: call liar"):
            state.apply(bad)


def test_a_claim_is_whole_numbers_kept_in_the_rules_own_form_and_the_record_replays() -> None:
    """numpy integers from a bot are fine and stored as plain ints; a face that only
    equals one (6.0, True) would break the record, which writes the action as text, so
    it is refused, and the game (and its record) stay as they were."""
    import numpy as np

    from bluffdice.dealer import Game

    game = Game.new(parse_rules("common-hand(start=first-seat)"), 2)
    game.step(Dice((1, 1, 2, 5, 6)))
    game.step(Dice((3, 3, 3, 4, 6)))
    with pytest.raises(IllegalAction, match="not a hand that can be claimed"):
        game.step(Claim("pair", 6.0))  # type: ignore[arg-type]
    assert game.state.claim is None and game.steps == ["dice 99TKA", "dice JJJQA"]
    game.step(Claim("pair", np.int64(6)))  # type: ignore[arg-type]
    game.step(Reroll((np.int64(3), np.int64(4))))  # type: ignore[arg-type]
    game.step(Dice((6, 6)))
    events = game.step(Claim("full-house", np.int64(6), np.int64(3)))  # type: ignore[arg-type]
    msgspec.json.encode(events)  # J J A A A
    assert game.steps[-4:] == ["pair A", "reroll J Q", "dice AA", "full-house A J"]
    game.step(Challenge())
    assert game.record.replay() == game.state
