"""Numbers for learning agents: every action and chance outcome of a rule set gets a fixed
index, and every view becomes a fixed-size float vector.

The encodings read views only (`state.view(player)`), so an agent trained on them sees
exactly what a human at the table sees. Both adapters (PettingZoo, OpenSpiel) use them.

Mia actions, in this order (values worst first, in the rule set's own ranking):
announce each of the 21 values, pass with each of them, challenge, roll, look, give up,
beat, cheers: 48 in all.

Liar's Dice actions: every bid `q x f` for q from 1 to all the dice in play and every
face, quantity-major (`1x1, 1x2, ...`), then liar, then calza.

The Mia observation vector, seats counted from the observer (0 = me, 1 = the next player
clockwise, ...), `P` players:

    phase               6   open, hold, respond, mia, over, another player's turn
    my dice            22   none, then each value (worst first) if I rolled and looked
    looked              1
    announced          22   none, then the value standing now
    previous call      22   none, then the value called before it this round
    announcer         P+1   none, then the seat that called the standing value
    passes              1   calls since the last announcement, / 10
    called              P   seats that called in this round
    left                P   lives left / starting lives (lives mode), else score or sips
                            / rounds
    out                 P   seats knocked out
    round               1   round / rounds (score and drinking), else round / 100

Common hand actions: every claim (lowest first), liar, then every reroll (the faces put
back, fewest dice first, then lowest faces): 533 with straights, 531 without.

The common-hand observation vector (two players):

    phase               4   answer or open, name a hand after my reroll, another
                            player's turn (or dice being rolled), over
    my dice             6   how many of my dice show each face, / 5
    claim        claims+1   none, then the standing claim
    claimer             3   none, then the seat that claimed it
    rerolled            1   dice the claimer rolled again just before the claim, / 5
    rerolling           1   dice being rolled again now, / 5
    claims              1   claims this round, / 20
    left                2   lives left / starting lives
    round               1   round / 100

The Liar's Dice observation vector:

    my hand          faces  how many of my dice show each face, / dice
    cups                P   each seat's dice, / dice
    last bid     bids + 1   none, then the standing bid
    bidder            P+1   none, then the seat that bid it
    palifico            1
    bids                1   bids this round, / 20
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from bluffdice.games.liars_dice.dice import hand_outcomes
from bluffdice.games.registry import game_of, parse_rules

FloatArray = npt.NDArray[np.float32]
GAMES = ("mia", "liars-dice", "common-hand")


class Encoding:
    """Indices and observation vectors for one rule set and number of players."""

    def __init__(self, rules: Any, players: int) -> None:
        if isinstance(rules, str):
            rules = parse_rules(rules)
        self.rules = rules
        self.game = game_of(rules).name
        if self.game not in GAMES:
            raise ValueError(f"no learning encoding for {self.game}")
        self.players = players
        self.actions: tuple[Any, ...] = self._actions()
        self.action_index = {a: i for i, a in enumerate(self.actions)}
        self.chance: tuple[Any, ...] = self._chance()
        self.chance_index = {c: i for i, c in enumerate(self.chance)}

    # --- actions and chance outcomes ------------------------------------------------------

    def _actions(self) -> tuple[Any, ...]:
        if self.game == "mia":
            from bluffdice.games.mia import (
                Announce,
                BeatMia,
                Challenge,
                Cheers,
                GiveUp,
                Look,
                Pass,
                Roll,
            )

            values = self.rules.ranking.worst_first
            return (
                *(Announce(v) for v in values),
                *(Pass(v) for v in values),
                Challenge(),
                Roll(),
                Look(),
                GiveUp(),
                BeatMia(),
                Cheers(),
            )
        if self.game == "common-hand":
            from bluffdice.games import common_hand as ch

            table = self.rules.table
            rerolls = _every_hand(ch.Reroll, ch.state.DICE, ch.state.FACES)
            return (*table.claims, ch.Challenge(), *rerolls)
        from bluffdice.games import liars_dice as ld

        ladder = self.rules.ladder
        total = self.rules.dice * self.players
        bids = [
            ladder.bid(q, f) for q in range(1, total + 1) for f in range(1, self.rules.faces + 1)
        ]
        return (*bids, ld.Challenge(), ld.Calza())

    def _chance(self) -> tuple[Any, ...]:
        from bluffdice.games import liars_dice as ld

        if self.game == "common-hand":
            from bluffdice.games import common_hand as ch

            hands = _every_hand(ch.Dice, ch.state.DICE, ch.state.FACES)
            return (*hands, *(ch.FirstPlayer(i) for i in range(self.players)))
        if self.game == "mia":
            from bluffdice.games.mia import Dice, FirstPlayer
            from bluffdice.games.mia.values import VALUES

            return (*(Dice(v) for v in VALUES), *(FirstPlayer(i) for i in range(self.players)))
        hands = _every_hand(ld.Dice, self.rules.dice, self.rules.faces)
        return (*hands, *(ld.FirstPlayer(i) for i in range(self.players)))

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def mask(self, legal: Any) -> npt.NDArray[np.int8]:
        """1 for each legal action's index."""
        m = np.zeros(len(self.actions), dtype=np.int8)
        for action in legal:
            m[self.action_index[action]] = 1
        return m

    def legal_indices(self, legal: Any) -> list[int]:
        return sorted(self.action_index[a] for a in legal)

    # --- observations ---------------------------------------------------------------------

    @cached_property
    def size(self) -> int:
        P = self.players
        if self.game == "mia":
            return 6 + 22 + 1 + 22 + 22 + (P + 1) + 1 + P + P + P + 1
        if self.game == "common-hand":
            return 4 + 6 + len(self.rules.table.claims) + 1 + (P + 1) + 3 + P + 1
        bids = len(self.actions) - 2
        faces: int = self.rules.faces
        return faces + P + bids + 1 + P + 1 + 1 + 1

    def observe(self, view: Any) -> FloatArray:
        """The observation vector of a view (see the module docstring)."""
        out = np.zeros(self.size, dtype=np.float32)
        if self.game == "mia":
            self._mia(view, out)
        elif self.game == "common-hand":
            self._common_hand(view, out)
        else:
            self._liars_dice(view, out)
        return out

    def _seat(self, view: Any, seat: int | None) -> int:
        """`seat` counted from the observer (0 = the observer)."""
        me = view.player if view.player is not None else 0
        return 0 if seat is None else (seat - me) % self.players

    def _mia(self, view: Any, out: FloatArray) -> None:
        P = self.players
        rules = self.rules
        code = {v: i for i, v in enumerate(rules.ranking.worst_first)}
        i = 0
        phases = ("open", "hold", "respond", "mia", "over")
        mine = view.player is not None and view.turn == view.player
        if view.phase == "over":
            out[4] = 1
        elif not mine:
            out[5] = 1
        elif view.phase in phases:
            out[phases.index(view.phase)] = 1
        i = 6
        out[i + (0 if view.my_dice is None else 1 + code[view.my_dice])] = 1
        i += 22
        out[i] = float(view.looked)
        i += 1
        out[i + (0 if view.announced is None else 1 + code[view.announced])] = 1
        i += 22
        prev = view.calls[-2].value if len(view.calls) >= 2 else None
        out[i + (0 if prev is None else 1 + code[prev])] = 1
        i += 22
        out[i + (0 if view.announcer is None else 1 + self._seat(view, view.announcer))] = 1
        i += P + 1
        announce = max((k for k, c in enumerate(view.calls) if c.kind == "announce"), default=-1)
        out[i] = min(1.0, (len(view.calls) - 1 - announce) / 10) if announce >= 0 else 0.0
        i += 1
        for c in view.calls:
            out[i + self._seat(view, c.player)] = 1
        i += P
        for seat in range(P if view.out else 0):  # nothing before the first seat is drawn
            r = self._seat(view, seat)
            if rules.mode == "lives":
                out[i + r] = view.lives[seat] / rules.lives
            else:
                out[i + r] = view.score[seat] / rules.rounds
            out[i + P + r] = float(view.out[seat])
        i += 2 * P
        out[i] = min(1.0, view.round / (rules.rounds if rules.mode != "lives" else 100))

    def _common_hand(self, view: Any, out: FloatArray) -> None:
        P = self.players
        rules = self.rules
        mine = view.player is not None and view.turn == view.player
        if view.phase == "over":
            out[3] = 1
        elif not mine:
            out[2] = 1
        else:
            out[1 if view.phase == "raise" else 0] = 1
        for d in view.my_dice or ():
            out[4 + d - 1] += 1 / 5
        i = 10
        claims = rules.table.claims
        out[i + (0 if view.claim is None else 1 + rules.table.index[view.claim])] = 1
        i += len(claims) + 1
        out[i + (0 if view.claimer is None else 1 + self._seat(view, view.claimer))] = 1
        i += P + 1
        out[i] = view.calls[-1].rerolled / 5 if view.calls else 0.0
        out[i + 1] = view.rerolling / 5
        out[i + 2] = min(1.0, len(view.calls) / 20)
        i += 3
        for seat, left in enumerate(view.lives):  # no lives before the first seat is drawn
            out[i + self._seat(view, seat)] = left / rules.lives
        i += P
        out[i] = min(1.0, view.round / 100)

    def _liars_dice(self, view: Any, out: FloatArray) -> None:
        P = self.players
        rules = self.rules
        for d in view.my_dice or ():
            out[d - 1] += 1 / rules.dice
        i = rules.faces
        for seat in range(len(view.dice)):  # no cups before the first seat is drawn
            out[i + self._seat(view, seat)] = view.dice[seat] / rules.dice
        i += P
        bids = len(self.actions) - 2
        out[i + (0 if view.bid is None else 1 + self.action_index[view.bid])] = 1
        i += bids + 1
        out[i + (0 if view.bidder is None else 1 + self._seat(view, view.bidder))] = 1
        i += P + 1
        out[i] = float(view.palifico)
        out[i + 1] = min(1.0, len(view.bids) / 20)


def _every_hand(make: Any, dice: int, faces: int) -> tuple[Any, ...]:
    """`make(hand)` for every sorted hand of 1 to `dice` dice, fewest dice first."""
    return tuple(
        make(hand) for count in range(1, dice + 1) for hand, _ in hand_outcomes(count, faces)
    )


class Recall:
    """What each player has seen so far, event by event: the information state of
    perfect recall, one string per player, grown as events come (tree-walking
    algorithms copy a state at every node, so a copy must be cheap: strings are shared)."""

    _text: dict[Any, str] = {}
    """Event -> its JSON text, shared by all recalls (games repeat the same events)."""

    def __init__(self, players: int) -> None:
        self.strings = [f"p{p}|" for p in range(players)]

    def add(self, events: Any) -> None:
        from bluffdice.games.base import visible_to

        texts = Recall._text
        for event in events:
            text = texts.get(event)
            if text is None:
                import msgspec

                if len(texts) > 100_000:
                    texts.clear()
                text = texts[event] = msgspec.json.encode(event).decode()
            for seat, seen in enumerate(self.strings):
                if visible_to(event, seat):  # (no JSON text ends in "|")
                    self.strings[seat] = seen + text if seen[-1] == "|" else f"{seen}|{text}"

    def __deepcopy__(self, memo: dict[int, Any]) -> Recall:
        return self.copy()

    def copy(self) -> Recall:
        other = Recall(0)
        other.strings = list(self.strings)
        return other

    def string(self, player: int) -> str:
        return self.strings[player]
