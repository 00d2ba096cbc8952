"""The `openspiel` preset is OpenSpiel's liars_dice, history for history.

Skipped where open-spiel (the `bench` extra) is not installed. For every deal of the one-
die game the whole game tree is walked in both engines side by side: the same legal
moves at every node, and the same payoffs at every end. Games that agree there have the
same equilibrium value (-7/258 for the first bidder).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bluffdice.games import CHANCE, parse_rules
from bluffdice.games.liars_dice import Bid, Challenge, Dice, LiarsDiceState, new_game

pyspiel = pytest.importorskip("pyspiel")


def _bid_id(action: Any, faces: int, total: int) -> int:
    """OpenSpiel's action id under reset-face bidding: (quantity-1)*faces + face-1."""
    if isinstance(action, Challenge):
        return total * faces
    assert isinstance(action, Bid)
    return (action.quantity - 1) * faces + action.face - 1


def _deal(ours: LiarsDiceState, theirs: Any, hands: list[tuple[int, ...]]) -> LiarsDiceState:
    for hand in hands:
        assert ours.current_player == CHANCE and theirs.is_chance_node()
        ours = ours.apply(Dice(hand)).state
        for die in hand:  # OpenSpiel rolls one die at a time and sorts afterwards
            theirs.apply_action(die - 1)
    return ours


def _walk(ours: LiarsDiceState, theirs: Any, faces: int, total: int) -> int:
    """Compare both trees below these states; returns the number of ends compared."""
    if ours.is_terminal:
        assert theirs.is_terminal()
        assert list(ours.returns()) == theirs.returns()
        return 1
    assert ours.current_player == theirs.current_player()
    legal = ours.legal_actions()
    assert [_bid_id(a, faces, total) for a in legal] == theirs.legal_actions()
    ends = 0
    for action in legal:
        child = theirs.clone()
        child.apply_action(_bid_id(action, faces, total))
        ends += _walk(ours.apply(action).state, child, faces, total)
    return ends


@pytest.mark.parametrize("hands", [[(1,), (6,)], [(4,), (4,)], [(6,), (2,)]])
def test_whole_tree_of_a_deal_matches_openspiel(hands: list[tuple[int, ...]]) -> None:
    game = pyspiel.load_game("liars_dice")
    ours = _deal(new_game("openspiel", 2), game.new_initial_state(), hands)
    theirs = game.new_initial_state()
    for hand in hands:
        for die in hand:
            theirs.apply_action(die - 1)
    # 12 bids, each either made or skipped, every sequence ended by a challenge.
    assert _walk(ours, theirs, faces=6, total=2) == 2**12 - 1


def test_chance_nodes_match_openspiel_in_distribution() -> None:
    ours = new_game("openspiel", 2)
    outcomes = ours.chance_outcomes()
    assert [(o.dice, p) for o, p in outcomes] == [((f,), pytest.approx(1 / 6)) for f in range(1, 7)]
    assert sum(p for _, p in outcomes) == 1


def _reset_quantity_id(action: Any, faces: int, total: int) -> int:
    """OpenSpiel's action id under reset-quantity bidding: (face-1)*total + quantity-1."""
    if isinstance(action, Challenge):
        return total * faces
    assert isinstance(action, Bid)
    return (action.face - 1) * total + action.quantity - 1


@pytest.mark.parametrize(
    "rule,dice,faces",
    [
        ("reset-face", 2, 6),
        ("reset-face", 2, 3),
        ("reset-face", 3, 4),
        # OpenSpiel's rule of the same name; its bids are numbered face first
        ("reset-quantity", 1, 6),
        ("reset-quantity", 2, 3),
        ("reset-quantity", 3, 4),
    ],
)
def test_random_playthroughs_match_openspiel_with_more_dice(
    rule: str, dice: int, faces: int
) -> None:
    rules = parse_rules(f"openspiel(dice={dice},faces={faces},raise={rule})")
    game = pyspiel.load_game(
        "liars_dice", {"numdice": dice, "dice_sides": faces, "bidding_rule": rule}
    )
    action_id = _bid_id if rule == "reset-face" else _reset_quantity_id
    rng = random.Random(dice * 10 + faces)
    total = 2 * dice
    for _ in range(50):
        ours = new_game(rules, 2)
        theirs = game.new_initial_state()
        hands = [tuple(sorted(rng.randint(1, faces) for _ in range(dice))) for _ in range(2)]
        ours = _deal(ours, theirs, hands)
        while not ours.is_terminal:
            legal = ours.legal_actions()
            assert sorted(action_id(a, faces, total) for a in legal) == theirs.legal_actions()
            action = legal[-1] if rng.random() < 0.3 else rng.choice(legal)
            ours = ours.apply(action).state
            theirs.apply_action(action_id(action, faces, total))
        assert theirs.is_terminal()
        assert list(ours.returns()) == theirs.returns()
