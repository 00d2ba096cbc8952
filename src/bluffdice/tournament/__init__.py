"""Tournaments between bots: fair seating, reproducible seeds, ratings, executors."""

from bluffdice.stats import BotLine, Standings, wilson
from bluffdice.tournament.runner import TournamentConfig, make_config, plan, run_tournament

__all__ = [
    "BotLine",
    "Standings",
    "TournamentConfig",
    "make_config",
    "plan",
    "run_tournament",
    "wilson",
]
