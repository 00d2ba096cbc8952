"""The Liar's Dice review rates a bid by the next player's answer: checked on the exact
equilibrium of the heads-up one-die game (bluffdice.solve, shipped as the openspiel
policy), where the right answer is known, and on the minimal bid it used to call best."""

from __future__ import annotations

from typing import Any

from bluffdice.games import get_game, parse_rules
from bluffdice.review.liars_dice import LiarsDiceRater
from bluffdice.solve.policy import shipped

SURE = 0.9
"""An equilibrium that makes one move at least this often says what the move is."""


def position(rules: Any, steps: list[str]) -> Any:
    spec = get_game("liars-dice")
    state = spec.new_game(rules, 2)
    for text in steps:
        state = state.apply(spec.parse_action(text)).state
    return state


def best(rules: Any, state: Any) -> str | None:
    seat = state.current_player
    rating = LiarsDiceRater(rules, 2).rate(1, 1, state, seat, state.view(seat).legal_actions[0])
    assert rating is not None
    return rating.best


def test_where_the_equilibrium_calls_the_review_calls() -> None:
    rules = parse_rules("openspiel")
    policy = shipped("liars-dice-openspiel")
    checked = 0
    for key in policy.nodes:
        bids = key.split(",") if key else []
        for hand in "123456":
            dist = policy.distribution(key, hand)
            if not dist or dist.get("liar", 0.0) < SURE:
                continue
            other = "1" if hand != "1" else "2"  # the view never shows it
            cups = [hand, other] if len(bids) % 2 == 0 else [other, hand]
            state = position(rules, [f"dice {cups[0]}", f"dice {cups[1]}", *bids])
            assert best(rules, state) == "liar", (key, hand)
            checked += 1
    assert checked > 10_000


def test_an_opening_the_equilibrium_is_sure_of_is_the_reviews_best() -> None:
    rules = parse_rules("openspiel")
    policy = shipped("liars-dice-openspiel")
    sure = 0
    for hand in "123456":
        dist = policy.distribution("", hand)
        assert dist is not None
        move, p = max(dist.items(), key=lambda item: item[1])
        if p >= SURE:
            assert best(rules, position(rules, [f"dice {hand}", "dice 1"])) == move, hand
            sure += 1
    assert sure >= 2  # a four opens 1x4, a five 1x5


def test_the_minimal_bid_is_not_best_with_twelve_dice_and_three_fives() -> None:
    rules = parse_rules("liars-dice(dice=6)")
    state = position(rules, ["first 0", "dice 234555", "dice 112366"])
    chosen = best(rules, state)
    assert chosen not in ("1x2", "1x3")
    quantity, face = map(int, str(chosen).split("x"))
    assert face == 5 and quantity >= 3  # a bid on the fives it holds, which the next may doubt
