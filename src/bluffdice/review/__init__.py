"""Review a finished (or abandoned) game from one player's seat: every decision rated.

`review_game(record, seat, names)` rebuilds the game at a table, walks the log, and for
each move of `seat` rates the decision from that seat's view at the time (what the
player knew), then adds the revealed truth. The result is plain data (`Review.to_json`)
for the terminal, `--json` and web pages alike.
"""

from bluffdice.review.rating import Rater, Rating, Review
from bluffdice.review.walk import review_game

__all__ = ["Rater", "Rating", "Review", "review_game"]
