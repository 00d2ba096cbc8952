"""`mia-best`: the strongest method this project has for the Mia table at hand.

At every move it looks at its view and plays, in this order:

1. `match`: exactly two players alive under rules whose match the solver solves as it
   is played (lives mode, at most 9 lives, a round the Mia solver takes, and the pass
   off or limited by `pass_limit`): the equilibrium of the whole match
   (`bluffdice solve mia --match`, kept by `bluffdice.solve.match_policy`) at the
   state of the lives, the round's opener's first. A game that starts heads-up solves
   a missing match on first use (minutes for 6 lives, with a progress bar on stderr)
   and caches it; a game that starts with more players plays the match only where it
   is already at hand, so that no table waits for a solve in mid-game.
2. `shark`: everywhere else, the strongest Mia heuristic by docs/strength.md (the
   highest win rate at 3, 4 and 6 players). It hears every event, so its records of
   the others are whole when it plays.

Where the pass is on and unlimited (`classic`), the solver plays the match under
`pass_limit=1`, a different game: there the match strategy lost 45.9 % of 10,000 classic
games to `shark` and 45.8 % to `cfr` (whose policies pass back), while under
`classic(pass_limit=1)`, the game it solves, it won 51.4 % against each (see
docs/strength.md). So such rules get `shark`.

Nodes the match policy has no row for (a chain of passes its own play never reaches)
are folded back within its pass cap as the `cfr` bot folds them; where that finds
nothing either, `shark` decides. It says which it plays: `stand_in` names `shark`
where that plays a table from the start, `method` the choice for a view, and `moves`
counts the moves by method.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bluffdice.bots.base import Bot, register_bot
from bluffdice.bots.cfr import MAX_PASSES, _mia_rules, _sample
from bluffdice.bots.mia_shark import SharkBot
from bluffdice.games.base import BluffdiceError, Event
from bluffdice.games.mia import Look, MiaAction, MiaView, Roll, parse_action
from bluffdice.games.registry import parse_rules

MATCH = "match"
HEURISTIC = "shark"


@lru_cache(maxsize=64)
def match_text(rules_text: str) -> str | None:
    """The rule string of the match the solver plays for these rules, or None where it
    takes none (see `bluffdice.solve.match_policy.match_text`) or would solve another
    game (an unlimited pass, which the solver limits to one)."""
    from bluffdice.solve import match_policy

    try:
        rules = parse_rules(rules_text, game="mia")
    except BluffdiceError:
        return None
    if rules.pass_allowed and rules.pass_limit == 0:
        return None
    return match_policy.match_text(rules)


def alive(view: MiaView) -> list[int]:
    """The seats still in the game, by the view's public lives and outs."""
    return [i for i in range(view.players) if not view.out[i] and view.lives[i] > 0]


def match_state(view: MiaView) -> tuple[int, int] | None:
    """(lives of the round's opener, lives of the other) heads-up, else None. The opener
    is the first caller of the round, or this seat before anyone has called."""
    seats = alive(view)
    if len(seats) != 2 or view.player not in seats:
        return None
    opener = view.calls[0].player if view.calls else view.player
    other = seats[1] if seats[0] == opener else seats[0]
    return view.lives[opener], view.lives[other]


@register_bot
class MiaBestBot(Bot[MiaView, MiaAction]):
    """Plays the solved match heads-up with lives, else `shark`."""

    name = "mia-best"
    games = ("mia",)
    description = (
        "the strongest method for the table: the solved heads-up match with lives "
        "(solve mia --match) when two are left, else shark"
    )
    in_default_mix = False
    """It plays another bot's method at full tables: a tournament seats it on request."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.shark = SharkBot(self.rng)
        self.moves: Counter[str] = Counter()

    @classmethod
    def stand_in(cls, rules: Any, players: int) -> str | None:
        """`shark` where it plays the table from the start (three players or more, or
        rules the match solver does not take); heads-up, None: the match is solved
        here when missing, so that a tournament's workers find it cached."""
        from bluffdice.games.registry import rules_string

        text = match_text(rules_string(rules))
        if players != 2 or text is None:
            return HEURISTIC
        from bluffdice.solve import match_policy

        match_policy.obtain(text)
        return None

    def method(self, view: MiaView) -> str:
        """What it plays at this view: `match` or `shark`."""
        text = match_text(view.rules)
        if text is None or match_state(view) is None:
            return HEURISTIC
        from bluffdice.solve import match_policy

        if view.players == 2 or match_policy.find(text) is not None:
            return MATCH
        return HEURISTIC

    def observe(self, events: Sequence[Event]) -> None:
        """`shark` hears everything, whichever plays: its records stay whole."""
        self.shark.observe(events)

    def act(self, view: MiaView) -> MiaAction:
        method = self.method(view)
        if method == MATCH:
            if view.phase == "open":
                action: MiaAction | None = Roll()
            elif Look() in view.legal_actions:
                action = Look()  # the solved round always looks: see bluffdice.solve.mia
            else:
                action = self._match(view)
            if action is not None:
                self.moves[MATCH] += 1
                return action
        self.moves[HEURISTIC] += 1
        return self.shark.act(view)

    def _match(self, view: MiaView) -> MiaAction | None:
        """A move sampled from the match policy at this lives state, or None where it has
        nothing to say."""
        from bluffdice.solve import match_policy, mia

        text = match_text(view.rules)
        state = match_state(view)
        rules = _mia_rules(view.rules)
        if text is None or state is None or rules is None or view.player is None:
            return None
        found = match_policy.obtain(text) if view.players == 2 else match_policy.find(text)
        policy = found.policy(*state) if found is not None else None
        if policy is None:
            return None
        ranking = rules[1]
        calls = [(c.player, c.kind, c.value) for c in view.calls]
        opener = calls[0][0] if calls else view.player
        try:
            if view.phase == "hold":
                info = mia.hold_info(ranking, calls, view.player, opener)
            else:
                info = mia.answer_info(ranking, calls, opener)
        except (ValueError, IndexError):
            return None
        hand = str(view.my_dice) if view.my_dice is not None else None
        dist = policy.distribution(mia.key_text(info), hand)
        passes = len(info[2]) - 1
        if not dist and passes > 0:
            cap = parse_rules(text, game="mia").pass_limit
            dist = policy.distribution(mia.key_text(mia.fold(info, cap)), hand)
            if dist and passes >= MAX_PASSES:  # two players passing for ever: stop
                dist = {a: p for a, p in dist.items() if not a.startswith("pass")}
        if not dist:
            return None
        action = parse_action(_sample(dist, self.rng))
        return action if action in view.legal_actions else None
