"""Exact Mia odds for any rule set: the one module other code imports.

`value_table`, `p_beat`, `median` and friends are the static table (`mia_table`);
`p_announcement_true`, `expected_loss` and `decide` are the believe-or-challenge model
(`mia_model`, whose docstring states the model).
"""

from bluffdice.odds.mia_model import (
    BEAT,
    BELIEVE,
    CHALLENGE,
    DEFAULT_HORIZON,
    GIVE_UP,
    LOOK,
    SHOWN,
    Decision,
    announcer_loss,
    decide,
    expected_loss,
    lie_answers,
    p_announcement_true,
)
from bluffdice.odds.mia_table import (
    TierOdds,
    ValueOdds,
    median,
    median_tier,
    odds_of,
    p_beat,
    p_beat_or_tie,
    p_lose,
    p_truthful_beats,
    roll_distribution,
    tier_label,
    tier_table,
    value_table,
)

__all__ = [
    "BEAT",
    "BELIEVE",
    "CHALLENGE",
    "DEFAULT_HORIZON",
    "GIVE_UP",
    "LOOK",
    "SHOWN",
    "Decision",
    "announcer_loss",
    "TierOdds",
    "ValueOdds",
    "decide",
    "expected_loss",
    "lie_answers",
    "median",
    "median_tier",
    "odds_of",
    "p_announcement_true",
    "p_beat",
    "p_beat_or_tie",
    "p_lose",
    "p_truthful_beats",
    "roll_distribution",
    "tier_label",
    "tier_table",
    "value_table",
]
