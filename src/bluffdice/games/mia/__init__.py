"""Mia (Meyer, Meier, Maexchen): rules, values and the state machine."""

from bluffdice.games.mia import actions, state
from bluffdice.games.mia.actions import (
    Action,
    Announce,
    BeatMia,
    Challenge,
    Cheers,
    Dice,
    FirstPlayer,
    GiveUp,
    Look,
    MiaAction,
    MiaOutcome,
    Pass,
    Roll,
    parse_action,
)
from bluffdice.games.mia.rules import CLASSIC, PRESET_DOCS, PRESETS, MiaRules
from bluffdice.games.mia.state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Call,
    MiaState,
    MiaView,
    RoundSummary,
    new_game,
)
from bluffdice.games.mia.values import MIA, VALUES, Ranking, parse_value, value_of
from bluffdice.games.registry import GameSpec, tagged_structs

SPEC = GameSpec(
    name="mia",
    title="Mia",
    aliases=("meyer-game", "meier", "maexchen-game"),
    rules_cls=MiaRules,
    presets=PRESETS,
    preset_docs=PRESET_DOCS,
    new_game=new_game,
    parse_action=parse_action,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    summary="two dice under a cup, announce ever higher values, lie if you must",
    wire_types=tagged_structs(actions, state),
)

__all__ = [
    "CLASSIC",
    "MAX_PLAYERS",
    "MIA",
    "MIN_PLAYERS",
    "PRESETS",
    "PRESET_DOCS",
    "SPEC",
    "VALUES",
    "Action",
    "Announce",
    "BeatMia",
    "Call",
    "Challenge",
    "Cheers",
    "Dice",
    "FirstPlayer",
    "GiveUp",
    "Look",
    "MiaAction",
    "MiaOutcome",
    "MiaRules",
    "MiaState",
    "MiaView",
    "Pass",
    "Ranking",
    "Roll",
    "RoundSummary",
    "new_game",
    "parse_action",
    "parse_value",
    "value_of",
]
