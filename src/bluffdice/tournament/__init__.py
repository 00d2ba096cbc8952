"""Tournaments between bots: fair seating, reproducible seeds, ratings, executors."""

from bluffdice.tournament.runner import TournamentConfig, make_config, plan, run_tournament
from bluffdice.tournament.stats import BotLine, Standings, wilson

__all__ = [
    "BotLine",
    "Standings",
    "TournamentConfig",
    "make_config",
    "plan",
    "run_tournament",
    "wilson",
]
