"""What each player's view of a Mia state holds: the spectator's view plus four fields of
their own, whatever order the views are asked for in and whatever other game was viewed
in between (`MiaState.view` builds the part everyone sees once per state)."""

from __future__ import annotations

import random

import msgspec
import pytest

from bluffdice.games import CHANCE, new_game
from bluffdice.games.mia.rules import PRESETS
from bluffdice.games.mia.state import MiaState, MiaView

OWN_FIELDS = ("player", "my_dice", "looked", "legal_actions")


def playout(rules: str, players: int, seed: int, steps: int = 400) -> list[MiaState]:
    """The states of one random game (chance drawn at random too), the first included."""
    rng = random.Random(seed)
    state = new_game(rules, players)
    states = [state]
    while not state.is_terminal and len(states) < steps:
        if state.current_player == CHANCE:
            outcomes = [o for o, _ in state.chance_outcomes()]
            action = rng.choice(outcomes)
        else:
            action = rng.choice(list(state.legal_actions()))
        state = state.apply(action).state
        assert isinstance(state, MiaState)
        states.append(state)
    return states


def expected_own(state: MiaState, player: int) -> dict[str, object]:
    """The four fields of `player`'s own, from the rules: a player sees the dice only
    after rolling and looking, while they are under the cup; only the player to act has
    legal actions."""
    roller = player == state.roller
    hidden = state.phase in ("hold", "respond", "mia")
    return {
        "player": player,
        "my_dice": state.dice if roller and state.looked and hidden else None,
        "looked": state.looked if roller else False,
        "legal_actions": tuple(state.legal_actions()) if player == state.current_player else (),
    }


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_view_is_the_public_view_plus_the_players_own_fields(preset: str) -> None:
    states = playout(preset, 4, seed=len(preset))
    others = playout("classic", 3, seed=99)
    rng = random.Random(7)
    for n, state in enumerate(states):
        recipients: list[int | None] = [None, 0, 1, 2, 3]
        rng.shuffle(recipients)
        views: dict[int | None, MiaView] = {}
        for recipient in recipients:
            views[recipient] = state.view(recipient)
            other = others[n % len(others)]
            other.view(rng.randrange(3))  # another game's state viewed in between
        public = msgspec.structs.asdict(views[None])
        assert (public["player"], public["my_dice"], public["legal_actions"]) == (None, None, ())
        for player in range(4):
            own = msgspec.structs.asdict(views[player])
            assert {k: own[k] for k in OWN_FIELDS} == expected_own(state, player)
            assert {k: v for k, v in own.items() if k not in OWN_FIELDS} == {
                k: v for k, v in public.items() if k not in OWN_FIELDS
            }
            assert state.view(player) == views[player]  # the same when asked again


def test_no_view_shows_dice_to_anyone_but_the_roller() -> None:
    for seed in range(5):
        for state in playout("classic", 4, seed):
            for player in (None, 0, 1, 2, 3):
                view = state.view(player)
                if view.my_dice is not None:
                    assert player == state.roller and state.looked
