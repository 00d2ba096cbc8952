"""Bots and moves that mypy must reject, for `tests/test_typecheck.py`: each line that
mypy must flag ends with `# expect: <error code>`; every other line must pass."""

from __future__ import annotations

from bluffdice.bots.mia_tools import MiaBot
from bluffdice.games.liars_dice import Bid, LiarsDiceView
from bluffdice.games.mia import MiaAction, MiaView, Roll, new_game


class PlaysMia(MiaBot):
    def act(self, view: MiaView) -> MiaAction:
        return Roll()


class BidsAtMia(MiaBot):
    def act(self, view: MiaView) -> MiaAction:
        return Bid(2, 3)  # expect: return-value


class ReadsAnotherGame(MiaBot):
    def act(self, view: LiarsDiceView) -> MiaAction:  # expect: override
        return Roll()


def bid_in_a_mia_game() -> None:
    state = new_game("classic", players=2)
    state.apply(Roll())
    state.apply(Bid(2, 3))  # expect: arg-type
