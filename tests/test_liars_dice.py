"""Single-hand Liar's Dice (Dudo): bidding, the raise rules, wild ones, ones bids,
calza, palifico, how rounds end and start, and what each player may see."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec
import pytest

from bluffdice.games import CHANCE, TERMINAL, IllegalAction, RuleError, parse_rules, rules_string
from bluffdice.games.liars_dice import (
    Bid,
    BidMade,
    Calza,
    Challenge,
    Challenged,
    Dice,
    DiceChanged,
    Eliminated,
    GameOver,
    LiarsDiceState,
    Revealed,
    Rolled,
    RoundStarted,
    YourDice,
    hand_outcomes,
    new_game,
    parse_action,
)


def run(state: LiarsDiceState, *steps: str) -> tuple[LiarsDiceState, list[Any]]:
    """Apply steps in their text form; returns the state and every event."""
    events: list[Any] = []
    for text in steps:
        state, new = state.apply(parse_action(text))
        events.extend(new)
    return state, events


def at_bidding(rules: str, *hands: str) -> LiarsDiceState:
    """A game with seat 0 to open, every cup rolled as given (`"dice 11356"`...); a
    shorter hand stands for a player who has lost dice before."""
    state = new_game(parse_rules(rules), len(hands))
    if state.phase == "seat":
        state = state.apply(parse_action("first 0")).state
    state = msgspec.structs.replace(state, dice=tuple(len(h) - 5 for h in hands))
    state, _ = run(state, *hands)
    assert state.phase == "bid"
    return state


# --- a whole challenged round, move by move ----------------------------------------------


def test_golden_round_of_dudo_bluff_caught() -> None:
    state = new_game(parse_rules("dudo"), 3)
    assert state.current_player == CHANCE
    state, events = run(
        state,
        "first 0",
        "dice 11356",
        "dice 22456",
        "dice 33366",
        "3x3",
        "4x3",
        "2x1",  # ones: half of 4, rounded up
        "7x6",  # back from 2 ones needs 2*2+1 = 5 or more
        "liar",
    )
    assert events == [
        RoundStarted(round=1, starter=0, dice=(5, 5, 5), palifico=False),
        Rolled(player=0, count=5),
        YourDice(player=0, dice=(1, 1, 3, 5, 6)),
        Rolled(player=1, count=5),
        YourDice(player=1, dice=(2, 2, 4, 5, 6)),
        Rolled(player=2, count=5),
        YourDice(player=2, dice=(3, 3, 3, 6, 6)),
        BidMade(player=0, quantity=3, face=3),
        BidMade(player=1, quantity=4, face=3),
        BidMade(player=2, quantity=2, face=1),
        BidMade(player=0, quantity=7, face=6),
        Challenged(player=1, bidder=0, quantity=7, face=6),
        # sixes: 1 + two wild ones, 1, 2 = 6 < 7: the bidder was bluffing
        Revealed(
            hands=((1, 1, 3, 5, 6), (2, 2, 4, 5, 6), (3, 3, 3, 6, 6)),
            quantity=7,
            face=6,
            count=6,
            wild=1,
        ),
        DiceChanged(player=0, change=-1, dice=4, reason="caught_bluffing"),
        RoundStarted(round=2, starter=0, dice=(4, 5, 5), palifico=False),
    ]
    assert state.phase == "roll" and state.dice == (4, 5, 5)
    assert state.chance_outcomes()[0][0] == Dice((1, 1, 1, 1))  # seat 0 rolls 4 dice now
    summary = state.last_round
    assert summary is not None and summary.count == 6 and summary.call == "liar"
    assert [str(b.quantity) + "x" + str(b.face) for b in summary.bids] == [
        "3x3",
        "4x3",
        "2x1",
        "7x6",
    ]


def test_challenger_loses_when_the_bid_holds_and_starts_next_round() -> None:
    state = at_bidding("liars-dice", "dice 11356", "dice 22456", "dice 33366")
    state, events = run(state, "6x3", "liar")  # threes: 1 + 2 wild + 3 = 6
    assert DiceChanged(player=1, change=-1, dice=4, reason="lost_challenge") in events
    assert state.dice == (5, 4, 5) and state.starter == 1


# --- the three raise rules (and the loose reading of the third) ------------------------


@pytest.mark.parametrize(
    "rule,allowed,refused",
    [
        # rule 1: higher quantity of any face, or the same quantity of a higher face
        ("reset-face", ["3x5", "4x2", "4x6"], ["3x3", "2x6"]),
        # rule 2: higher quantity of the same face, or any quantity of a higher face
        ("reset-quantity", ["4x4", "1x5", "2x6"], ["4x3", "3x3", "3x4"]),
        # rule 3: higher quantity of the same face, or the same quantity of a higher face
        ("strict", ["4x4", "3x6"], ["4x5", "2x6", "4x3"]),
        # rule 3 read loosely: nothing goes down, something goes up
        ("no-lowering", ["4x5", "3x5", "4x4"], ["2x6", "4x3"]),
    ],
)
def test_raise_rules(rule: str, allowed: list[str], refused: list[str]) -> None:
    state = at_bidding(f"liars-dice(raise={rule},wild=off)", "dice 12345", "dice 23456")
    state, _ = run(state, "3x4")
    legal = set(state.legal_actions())
    for text in allowed:
        assert parse_action(text) in legal, text
        state.apply(parse_action(text))
    for text in refused:
        assert parse_action(text) not in legal, text
        with pytest.raises(IllegalAction, match="last bid was 3 fours"):
            state.apply(parse_action(text))


def test_bids_are_bounded_by_the_dice_in_play() -> None:
    state = at_bidding("liars-dice(dice=2)", "dice 12", "dice 23")
    assert max(a.quantity for a in state.legal_actions() if isinstance(a, Bid)) == 4
    with pytest.raises(IllegalAction, match="only 4 dice in play"):
        state.apply(Bid(5, 6))
    with pytest.raises(IllegalAction, match="dice show 1 to 6"):
        state.apply(Bid(1, 7))


# --- wild faces ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wild,count",
    [("ones", 2 + 4), ("off", 2), ("highest", 2 + 2)],  # fives (+ wild) among the cups
)
def test_wild_faces_count_as_the_bid_face(wild: str, count: int) -> None:
    state = at_bidding(f"liars-dice(wild={wild},dice=3)", "dice 155", "dice 116", "dice 136")
    state, events = run(state, "1x5", "liar")
    revealed = next(e for e in events if isinstance(e, Revealed))
    assert revealed.count == count


def test_wild_ones_cannot_be_bid_without_the_ones_option() -> None:
    state = at_bidding("liars-dice", "dice 11111", "dice 22222")
    assert all(a.face != 1 for a in state.legal_actions() if isinstance(a, Bid))
    with pytest.raises(IllegalAction, match="ones are wild"):
        state.apply(Bid(2, 1))


# --- bids on ones (ones_bids) ----------------------------------------------------------


def test_ones_bids_halve_and_double() -> None:
    state = at_bidding("dudo", "dice 11356", "dice 22456")
    with pytest.raises(IllegalAction, match="may not open on ones"):
        state.apply(Bid(2, 1))
    after_five = run(state, "5x4")[0]
    assert Bid(3, 1) in after_five.legal_actions()  # half of 5, rounded up
    with pytest.raises(IllegalAction, match="at least 3 ones"):
        after_five.apply(Bid(2, 1))
    on_ones = run(after_five, "3x1")[0]
    assert Bid(4, 1) in on_ones.legal_actions()
    assert Bid(7, 2) in on_ones.legal_actions()  # 2*3+1
    with pytest.raises(IllegalAction, match="at least 7 dice"):
        on_ones.apply(Bid(6, 6))
    # ones are counted once when ones are bid (no double counting of wild ones)
    _, events = run(on_ones, "liar")
    assert next(e for e in events if isinstance(e, Revealed)).count == 2


def test_ones_bids_need_wild_ones() -> None:
    with pytest.raises(RuleError, match="needs wild=ones"):
        parse_rules("liars-dice(wild=off,ones_bids=on)")


# --- calza -----------------------------------------------------------------------------


def test_calza_right_wins_a_die_back_and_the_caller_starts() -> None:
    state = at_bidding("perudo", "dice 1356", "dice 22456", "dice 33366")
    state, events = run(state, "4x5", "calza")  # fives: 5 and wild 1, 5: 3, not 4
    assert DiceChanged(player=1, change=-1, dice=4, reason="calza_wrong") in events
    assert state.starter == 1

    state = at_bidding("perudo", "dice 1356", "dice 22456", "dice 33366")
    state, events = run(state, "3x5", "calza")  # fives: 5 and wild 1, 5 = exactly 3
    assert DiceChanged(player=1, change=0, dice=5, reason="calza_right") in events  # full cup
    state = at_bidding("perudo", "dice 1356", "dice 22456", "dice 33366")
    state, events = run(state, "1x2", "2x2", "calza")  # twos: 1 wild + 2 = 3 != 2
    assert DiceChanged(player=2, change=-1, dice=4, reason="calza_wrong") in events


def test_calza_gives_back_a_lost_die() -> None:
    state = at_bidding("perudo", "dice 1356", "dice 22456", "dice 33366")
    state, events = run(state, "1x2", "3x2", "4x6", "calza")  # sixes: 1+1 +1 +2 = 5
    assert DiceChanged(player=0, change=-1, dice=3, reason="calza_wrong") in events
    state = at_bidding("perudo", "dice 1356", "dice 22456", "dice 33366")
    state, events = run(state, "1x2", "3x2", "5x6", "calza")
    assert DiceChanged(player=0, change=1, dice=5, reason="calza_right") in events
    assert state.starter == 0


def test_calza_is_refused_when_off_or_before_a_bid() -> None:
    state = at_bidding("dudo", "dice 12345", "dice 12345")
    with pytest.raises(IllegalAction, match="nothing has been bid"):
        state.apply(Calza())
    with pytest.raises(IllegalAction, match="calza is off"):
        run(state, "1x2")[0].apply(Calza())


# --- palifico --------------------------------------------------------------------------


def _down_to_one(rules: str, players: int = 3) -> LiarsDiceState:
    """Seat 0 holds two dice and loses one: the next round is theirs to open."""
    hands = ["dice 23", "dice 22456", "dice 33366"][:players]
    state = at_bidding(rules, *hands)
    return run(state, "7x6", "liar")[0]


def test_palifico_round_fixes_the_face_and_ones_are_not_wild() -> None:
    state = _down_to_one("perudo")
    assert state.palifico and state.starter == 0 and state.dice == (1, 5, 5)
    state, _ = run(state, "dice 1", "dice 11456", "dice 33366")
    assert Bid(1, 1) in state.legal_actions()  # ones may open a palifico round
    state, _ = run(state, "2x3")
    assert set(state.legal_actions()) - {Challenge(), Calza()} == {Bid(q, 3) for q in range(3, 12)}
    with pytest.raises(IllegalAction, match="palifico round: the face stays threes"):
        state.apply(Bid(3, 4))
    state, events = run(state, "3x3", "liar")  # threes, ones not wild: exactly 3
    assert next(e for e in events if isinstance(e, Revealed)).wild == 0
    assert not state.palifico


def test_palifico_only_once_and_only_with_three_players() -> None:
    assert not _down_to_one("perudo", players=2).palifico
    assert not _down_to_one("dudo").palifico  # option off
    state = _down_to_one("perudo")
    assert state.palifico_done == (True, False, False)
    state = msgspec.structs.replace(state, palifico=False, dice=(2, 5, 5))
    state = run(state, "dice 23", "dice 22456", "dice 33366", "7x6", "liar")[0]
    assert state.dice[0] == 1 and not state.palifico


# --- how rounds and games end ----------------------------------------------------------


def test_eliminated_loser_hands_the_start_to_the_next_player_and_last_wins() -> None:
    state = at_bidding("liars-dice(dice=1)", "dice 2", "dice 3", "dice 4")
    state, events = run(state, "3x6", "liar")
    assert Eliminated(player=0) in events and state.starter == 1
    state, events = run(state, "dice 5", "dice 5", "2x5", "liar")
    assert Eliminated(player=2) in events
    assert state.current_player == TERMINAL
    assert events[-1] == GameOver(winners=(1,), losers=(0, 2), standings=(1, 2, 0))
    assert state.returns() == (-0.5, 1.0, -0.5)


def test_single_round_ends_at_the_first_challenge_zero_sum() -> None:
    state = at_bidding("dudo-single-round", "dice 12345", "dice 12345", "dice 12345")
    state, events = run(state, "9x6", "liar")
    assert state.is_terminal and isinstance(events[-1], GameOver)
    assert state.returns() == (-1.0, 0.5, 0.5)
    assert sum(state.returns()) == 0


def test_a_showdown_sets_every_field_of_the_state_it_builds() -> None:
    """The showdown passes the new state's fields by position (with keywords, CPython
    builds a dict for a call this long): the order it relies on, and fields of the same
    type not swapped, at the end of a round and of a game."""
    assert LiarsDiceState.__struct_fields__ == (
        "rules", "players", "phase", "turn", "round", "moves", "starter", "dice", "hands",
        "palifico", "palifico_done", "bid", "bidder", "bids", "eliminated", "eliminated_in",
        "last_round", "result",
    )  # fmt: skip
    state = at_bidding("perudo", "dice 1", "dice 22222", "dice 33333")
    before = state
    state, events = run(state, "2x4", "liar")  # one die short: seat 0 is out, 1 opens
    assert (state.rules, state.players, state.moves) == (before.rules, 3, before.moves + 2)
    assert (state.phase, state.turn, state.round, state.starter) == ("roll", 1, 2, 1)
    assert (state.dice, state.hands) == ((0, 5, 5), ((), (), ()))
    assert (state.bid, state.bidder, state.bids) == (None, -1, ())
    assert (state.eliminated, state.eliminated_in, state.result) == ((0,), (1,), None)
    assert (state.palifico, state.palifico_done) == (False, (False, False, False))
    assert state.last_round is not None and state.last_round.round == 1
    assert events[-1] == RoundStarted(round=2, starter=1, dice=(0, 5, 5), palifico=False)
    state, events = run(state, "dice 11111", "dice 22222", "5x4", "liar")
    state, events = run(state, "dice 11111", "dice 2222", "9x2", "liar")
    assert state.dice == (0, 4, 4) and state.round == 4
    over = at_bidding("dudo-single-round", "dice 12345", "dice 12345")
    end, events = run(over, "2x3", "liar")
    assert (end.phase, end.turn, end.round, end.starter) == ("over", -1, 1, 0)
    assert (end.moves, end.palifico_done) == (over.moves + 2, over.palifico_done)
    assert (end.hands, end.palifico) == (((), ()), False)
    assert (end.bid, end.bidder, end.bids) == (None, -1, ())
    assert end.result == events[-1] and end.dice == (5, 4)


def test_openspiel_preset_is_one_die_sixes_wild_player_zero_first() -> None:
    rules = parse_rules("openspiel")
    assert rules_string(rules) == (
        "liars-dice(dice=1,wild=highest,single_round=on,start=first-seat)"
    )
    state = new_game(rules, 2)
    assert state.phase == "roll" and state.turn == 0
    state, events = run(state, "dice 6", "dice 3", "2x3", "liar")  # the 6 is wild
    assert state.returns() == (1.0, -1.0)


# --- chance, views, text forms ---------------------------------------------------------


def test_a_cup_is_rolled_as_one_sorted_hand_with_exact_odds() -> None:
    outcomes = hand_outcomes(5, 6)
    assert len(outcomes) == 252
    assert sum(p for _, p in outcomes) == 1
    odds = dict(outcomes)
    assert odds[(1, 1, 1, 1, 1)] == Fraction(1, 7776)
    assert odds[(1, 2, 3, 4, 5)] == Fraction(120, 7776)
    assert odds[(2, 2, 3, 3, 3)] == Fraction(10, 7776)


def test_views_hold_only_the_viewers_own_dice() -> None:
    state = at_bidding("dudo", "dice 11356", "dice 22456", "dice 33366")
    for player, hand in enumerate(state.hands):
        view = state.view(player)
        assert view.my_dice == hand
        encoded = msgspec.json.encode(view)
        for other, other_hand in enumerate(state.hands):
            if other != player:
                assert msgspec.json.encode(other_hand) not in encoded
    assert state.view(None).my_dice is None
    assert state.view(0).legal_actions and not state.view(1).legal_actions
    assert all(not v.view(1).my_dice or v.view(1) == state.view(1) for v in [state])
    for variant in state.indistinguishable(1):
        assert variant.view(1) == state.view(1)


def test_text_forms_round_trip() -> None:
    for text in ["3x5", "3 fives", "3 5", "bid 3 5", "3 x 5", "3×5"]:
        assert parse_action(text) == Bid(3, 5)
    assert parse_action("liar") == parse_action("challenge") == parse_action("dudo")
    assert parse_action("dice 63351") == Dice((1, 3, 3, 5, 6))
    state = at_bidding("perudo", "dice 11356", "dice 22456", "dice 33366")
    state = run(state, "3x3")[0]
    for action in state.legal_actions():
        assert parse_action(str(action)) == action
    with pytest.raises(ValueError, match="not a Liar's Dice action"):
        parse_action("banana")


def test_refused_actions_change_nothing() -> None:
    state = at_bidding("dudo", "dice 11356", "dice 22456")
    before = msgspec.structs.replace(state)
    for bad in [Challenge(), Bid(0, 3), Bid(11, 3), "3x3", None, Dice((1, 2, 3, 4, 5))]:
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert state == before
    roll = new_game(parse_rules("openspiel"), 2)
    for bad in [Dice((7,)), Dice((1, 2)), Bid(1, 2), Dice([3])]:  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            roll.apply(bad)


def test_player_counts() -> None:
    with pytest.raises(RuleError):
        new_game(parse_rules("dudo"), 9)
    with pytest.raises(RuleError):
        new_game(parse_rules("dudo"), 1)


def test_a_bid_is_whole_numbers_kept_in_the_rules_own_form_and_the_record_replays() -> None:
    """A bot may hand over numpy integers: the game keeps the legal bid itself, so events
    hold plain ints and the record reads `2x6` and replays. Numbers that only equal a
    bid (2.0, True) would be written `2.0x6` or `Truex6`, which no record can replay:
    they are refused, and so is a bid that is no number at all, never a crash."""
    import numpy as np

    from bluffdice.dealer import Game

    game = Game.new(parse_rules("openspiel"), 2)
    game.step(Dice((3,)))
    game.step(Dice((6,)))
    for bad in [Bid(2.0, 6), Bid(True, 6), Bid("3", 5), Bid(3, None)]:  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="whole numbers"):
            game.state.apply(bad)
    events = game.step(Bid(np.int64(2), np.int64(6)))  # type: ignore[arg-type]
    assert events == (BidMade(player=0, quantity=2, face=6),)
    assert type(events[0].quantity) is int and game.steps[-1] == "2x6"
    msgspec.json.encode(events)
    game.step(Challenge())
    assert game.record.replay() == game.state


@pytest.mark.parametrize(
    "rules,last,bid,reason",
    [
        # nothing is left to bid: only liar
        ("openspiel", "2x6", "2x5", "nothing beats 2 sixes with 2 dice in play: call liar"),
        # sixes are the top face: only a higher quantity will do, no "face higher than 6"
        ("openspiel", "1x6", "1x5", "the last bid was 1 sixes: bid more than 1 dice of any face$"),
        (
            "liars-dice(dice=2,raise=strict,start=first-seat)",
            "1x6",
            "1x5",
            "the last bid was 1 sixes: bid more than 1 sixes$",
        ),
    ],
)
def test_refusals_never_suggest_a_bid_that_does_not_exist(
    rules: str, last: str, bid: str, reason: str
) -> None:
    hands = ["dice 3", "dice 4"] if "dice=2" not in rules else ["dice 34", "dice 45"]
    state = run(new_game(parse_rules(rules), 2), *hands, last)[0]
    with pytest.raises(IllegalAction, match=reason):
        state.apply(parse_action(bid))


def test_leaving_ones_beyond_the_dice_in_play_says_so() -> None:
    state = run(at_bidding("dudo(dice=2)", "dice 12", "dice 34"), "2x3", "2x1")[0]
    assert Bid(3, 1) in state.legal_actions()
    with pytest.raises(IllegalAction, match="would need 5 dice, more than the 4 in play; bid"):
        state.apply(Bid(4, 6))


# --- plain bids on ones (ones_bids=plain) ------------------------------------------------


def test_plain_ones_are_the_lowest_face_without_conversion() -> None:
    state = at_bidding("liars-dice(ones_bids=plain,start=first-seat)", "dice 11356", "dice 22456")
    legal = state.legal_actions()
    assert legal[:6] == tuple(Bid(1, f) for f in range(1, 7))  # a round may open on ones
    after = run(state, "2x1")[0]
    assert Bid(2, 2) in after.legal_actions() and Bid(1, 6) not in after.legal_actions()
    high = run(state, "3x6")[0]
    assert high.legal_actions()[0] == Bid(4, 1)  # no halving: ones rank as any face
    with pytest.raises(IllegalAction, match="more than 3 dice of any face"):
        high.apply(Bid(2, 1))
    # A bid on ones counts the ones alone; on another face they count as wild.
    _, events = run(after, "liar")
    assert next(e for e in events if isinstance(e, Revealed)).count == 2
    _, events = run(state, "3x5", "liar")
    assert next(e for e in events if isinstance(e, Revealed)).count == 4


def test_old_ones_bids_words_read_as_before_and_plain_needs_wild_ones() -> None:
    for text in ("dudo", "liars-dice(ones_bids)", "liars-dice(ones_bids=true)"):
        assert parse_rules(text).ones_bids == "on"
        assert rules_string(parse_rules(text)) == "liars-dice(ones_bids=on)"
    assert parse_rules("liars-dice(ones_bids=no)") == parse_rules("liars-dice")
    assert "ones_bids=off" in rules_string(parse_rules("liars-dice"), full=True)
    with pytest.raises(RuleError, match="ones_bids=plain needs wild=ones"):
        parse_rules("liars-dice(ones_bids=plain,wild=highest)")
    with pytest.raises(RuleError, match="ones_bids is one of off, on, plain, not True"):
        parse_rules("dudo").__class__(ones_bids=True)  # type: ignore[arg-type]


# --- unequal cups (cups=3:2) -----------------------------------------------------------


def test_unequal_cups_deal_each_seat_its_own_number_of_dice() -> None:
    rules = parse_rules("liars-dice(cups=3:2,single_round=on,start=first-seat)")
    assert (rules.dice, rules.cups) == (3, (3, 2))
    state = new_game(rules, 2)
    assert state.dice == (3, 2) and state.total == 5
    assert {len(o.dice) for o, _ in state.chance_outcomes()} == {3}
    state, events = run(state, "dice 136", "dice 25")
    assert state.phase == "bid" and state.hands == ((1, 3, 6), (2, 5))
    assert Bid(5, 6) in state.legal_actions() and Bid(6, 2) not in state.legal_actions()
    assert [e.count for e in events if isinstance(e, Rolled)] == [3, 2]
    end, events = run(state, "2x5", "liar")  # a one and a five
    assert end.is_terminal and end.returns() == (1.0, -1.0)


def test_cups_are_refused_unless_one_per_seat_in_a_single_round() -> None:
    with pytest.raises(RuleError, match="needs single_round=on"):
        parse_rules("liars-dice(cups=3:2)")
    with pytest.raises(RuleError, match="names 2 seats, but the table seats 3"):
        new_game(parse_rules("openspiel(cups=3:2)"), 3)
    with pytest.raises(RuleError, match="needs dice=3, the largest cup"):
        parse_rules("openspiel(cups=3:2,dice=2)")
    with pytest.raises(RuleError, match="must be whole numbers from 1 to 10"):
        parse_rules("openspiel(cups=3:11)")
    # Written 3,2 or 3:2, stored once; a full rule string without cups stays as before.
    assert parse_rules("openspiel(cups=3,2)") == parse_rules("openspiel(cups=3:2)")
    assert rules_string(parse_rules("openspiel(cups=3,2)")).endswith("cups=3:2)")
    assert "cups" not in rules_string(parse_rules("openspiel"), full=True)


def test_a_game_with_unequal_cups_is_narrated_recorded_and_replayed() -> None:
    from bluffdice.dealer import Game
    from bluffdice.games.record import Record
    from bluffdice.narration import plain, words_for

    rules = parse_rules("liars-dice(cups=2:1,single_round=on,ones_bids=plain)")
    game = Game.new(rules, 2)
    events = list(game.step(parse_action("first 1")))
    said = words_for(rules).describe(events[0], ["Ada", "Bob"], viewer=0)
    assert said is not None and "3 dice in play, cups of 2 and 1" in plain(said)
    for step in ("dice 12", "dice 1", "1x1", "3x1", "liar"):
        game.step(parse_action(step))
    assert game.state.returns() == (-1.0, 1.0)  # Bob bid 3 ones and there are 3
    record = msgspec.json.decode(msgspec.json.encode(game.record), type=Record)
    assert record.replay() == game.state
