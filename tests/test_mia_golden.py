"""The worked example of docs/rules/mia.md, replayed move by move.

A rolls and announces 52; B rolls 43 and announces 65; C, D and A pass with 65; B
challenges A; the dice show 43 < 65, so A loses a life and B starts the next round.
"""

from __future__ import annotations

from bluffdice.games.mia import Announce, Challenge, Dice, Look, Pass, Roll
from bluffdice.games.mia.actions import (
    Announced,
    Challenged,
    Looked,
    Passed,
    Penalty,
    Revealed,
    Rolled,
    RoundStarted,
)
from tests.conftest import script

A, B, C, D = 0, 1, 2, 3


def test_worked_example_move_by_move() -> None:
    game = script("classic", 4, ["first 0"])
    assert game.state.current_player == A
    assert list(game.state.legal_actions()) == [Roll()]

    assert game.step(Roll()) == (Rolled(player=A),)
    game.step(Dice(31))  # A's real roll, which A does not tell
    assert game.step(Look()) == (Looked(player=A, value=31),)
    assert game.step(Announce(52)) == (Announced(player=A, value=52),)

    # B believes: rolls without seeing A's dice, sees 43, must bluff 65.
    assert game.state.current_player == B
    assert game.state.view(B).my_dice is None
    assert game.step(Roll()) == (Rolled(player=B),)
    game.step(Dice(43))
    game.step(Look())
    assert game.state.view(B).my_dice == 43
    assert Announce(52) not in game.state.legal_actions()  # strictly higher than 52
    game.step(Announce(65))

    # C, D and A pass with 65: no roll, nobody else learns the dice.
    for passer in (C, D, A):
        assert game.state.current_player == passer
        assert Pass(65) in game.state.legal_actions()
        assert Pass(64) not in game.state.legal_actions()
        assert game.state.view(passer).my_dice is None
        assert game.step(Pass(65)) == (Passed(player=passer, value=65),)
    assert game.state.view(B).my_dice == 43  # B still knows what B rolled

    # B must beat 65 or challenge A, who passed last and so answers for 65.
    assert game.state.current_player == B
    assert game.step(Challenge()) == (
        Challenged(player=B, announcer=A, announced=65),
        Revealed(value=43, announced=65, truthful=False),
        Penalty(player=A, amount=1, reason="caught_bluffing"),
        RoundStarted(round=2, starter=B),
    )
    assert game.state.lives == (5, 6, 6, 6)
    assert game.state.current_player == B

    assert game.record.steps == (
        "first 0", "roll", "dice 31", "look", "52", "roll", "dice 43", "look", "65",
        "pass 65", "pass 65", "pass 65", "challenge",
    )  # fmt: skip
    assert game.record.replay() == game.state
