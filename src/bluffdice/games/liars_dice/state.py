"""The single-hand Liar's Dice (Dudo) state machine: immutable, no I/O, no randomness.

Phases, and who acts in each:

    seat    chance picks the seat that opens the first round (start=random)
    roll    chance rolls the whole cup of `turn` as one sorted hand; every living
            player's cup is rolled in seat order
    bid     `turn` bids higher, calls liar on the last bid, or (calza option) calza
    over    the game has ended
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import msgspec

from bluffdice.games.base import (
    CHANCE,
    TERMINAL,
    Event,
    IllegalAction,
    Outcome,
    RuleError,
    Step,
    TableState,
    is_whole,
    ranked_outcome,
)
from bluffdice.games.liars_dice.actions import (
    Action,
    Bid,
    Calza,
    CalzaCalled,
    Challenge,
    Challenged,
    Dice,
    DiceChanged,
    Eliminated,
    FirstPlayer,
    GameOver,
    LiarsDiceAction,
    LiarsDiceOutcome,
    Revealed,
    Rolled,
    RoundStarted,
    YourDice,
)
from bluffdice.games.liars_dice.bids import SEATS, BidLadder, MoveTable, whole_numbers
from bluffdice.games.liars_dice.bids import BidCall as BidCall  # the round's record of a bid
from bluffdice.games.liars_dice.dice import cup_outcome, roll_table, zero_sum_returns
from bluffdice.games.liars_dice.rules import LiarsDiceRules

MIN_PLAYERS = 2
MAX_PLAYERS = SEATS

# Reasons for a change in a player's dice.
LOST_CHALLENGE = "lost_challenge"  # the challenged bid held: the challenger loses a die
CAUGHT_BLUFFING = "caught_bluffing"  # the challenged bid failed: the bidder loses a die
CALZA_RIGHT = "calza_right"
CALZA_WRONG = "calza_wrong"


class RoundSummary(msgspec.Struct, frozen=True, gc=False):
    """How the previous round ended, as everyone saw it (all cups were lifted). Values
    only, never in a reference cycle: untracked by the garbage collector, as states."""

    round: int
    bids: tuple[BidCall, ...]
    call: str
    caller: int
    hands: tuple[tuple[int, ...], ...]
    count: int
    changes: tuple[DiceChanged, ...]


class LiarsDiceView(msgspec.Struct, frozen=True, tag="liars-dice.view"):
    """What one player (or a spectator, `player` None) may know: never others' dice."""

    rules: str
    player: int | None
    players: int
    state_id: int
    phase: str
    turn: int
    round: int
    dice: tuple[int, ...]
    total: int
    palifico: bool
    wild: int
    my_dice: tuple[int, ...] | None
    bid: Bid | None
    bidder: int | None
    bids: tuple[BidCall, ...]
    legal_actions: tuple[LiarsDiceAction, ...]
    last_round: RoundSummary | None
    result: GameOver | None
    game: str = "liars-dice"


class LiarsDiceState(TableState[LiarsDiceRules], frozen=True, gc=False):
    """The whole truth of a single-hand game, every cup included. Players get views.

    Untracked by the garbage collector (`gc=False`): a state refers to no state, so it
    is never part of a reference cycle, and a playout makes one per move.
    """

    starter: int = -1
    dice: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    palifico: bool = False
    palifico_done: tuple[bool, ...] = ()
    bid: Bid | None = None
    bidder: int = -1
    bids: tuple[BidCall, ...] = ()
    eliminated: tuple[int, ...] = ()
    eliminated_in: tuple[int, ...] = ()
    """The round in which each of `eliminated` went out."""
    last_round: RoundSummary | None = None
    result: GameOver | None = None

    # --- the common game interface -------------------------------------------------

    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == "bid":
            return self.turn
        if phase == "over":
            return TERMINAL
        return CHANCE

    @property
    def total(self) -> int:
        """Dice in play, all cups together: the most any bid may name."""
        return sum(self.dice)

    def chance_outcomes(self) -> Sequence[tuple[LiarsDiceOutcome, Fraction]]:
        if self.phase == "roll":
            key = self.dice[self.turn] << 4 | self.rules.faces
            return (_ROLLS.get(key) or _rolls(key))[0]
        if self.phase == "seat":
            p = Fraction(1, self.players)
            return [(FirstPlayer(i), p) for i in range(self.players)]
        return ()

    def legal_actions(self) -> Sequence[LiarsDiceAction]:
        global _LAST
        last = _LAST
        if last[0] is self:  # made by a bid, or asked before
            return last[1][0]
        if self.phase != "bid":
            return ()
        ladder: BidLadder = self.rules.ladder
        key = (sum(self.dice), self.bid, self.palifico)
        table = ladder.tables.get(key) or ladder.moves(*key)
        _LAST = (self, table)
        return table[0]

    def apply(self, action: LiarsDiceAction | LiarsDiceOutcome) -> Step[LiarsDiceState]:
        """Apply a legal action or a chance outcome; IllegalAction leaves nothing changed."""
        global _LAST
        phase = self.phase
        if phase == "bid":
            last = _LAST
            try:
                move = (last[1] if last[0] is self else _moves(self))[1].get(action)
            except TypeError:  # not even hashable: certainly not an action
                move = None
            if move is None:
                raise IllegalAction(self._why_illegal(action))
            found = move.action
            if type(found) is not Bid:
                return self._showdown(found)  # liar or calza: the round ends
            # `found` is the rules' own bid: a numpy int in a bid becomes an int, so events
            # and the record hold plain numbers. The actions `legal_actions` gave are those
            # objects, so only a look-alike needs a closer look.
            if found is not action and not (isinstance(action, Bid) and whole_numbers(action)):
                raise IllegalAction(self._why_illegal(action))
            me = self.turn
            call, made = move.said[me]
            counts = self.dice
            nxt = me + 1
            if nxt == self.players:
                nxt = 0
            if not counts[nxt]:
                nxt = _next_alive(counts, me)
            state = _replace(
                self,
                bid=found,
                bidder=me,
                bids=self.bids + call,
                turn=nxt,
                moves=self.moves + 1,
            )
            # A driver asks the new state's legal actions next: they are known already.
            _LAST = (
                state,
                move.follow or self.rules.ladder.after(move, sum(counts), self.palifico),
            )
            return _step(Step, (state, made))
        if phase == "roll":
            roller = self.turn
            count = self.dice[roller]
            cup = count << 4 | self.rules.faces
            try:
                known = (_ROLLS.get(cup) or _rolls(cup))[1].get(action)
            except TypeError:  # a list among the dice: not hashable, not a roll
                known = None
            if known is None or (
                known[0] is not action
                and (
                    not isinstance(action, Dice)
                    or not isinstance(action.dice, tuple)
                    or not all(is_whole(d) for d in action.dice)
                )
            ):
                raise IllegalAction(
                    f"chance must roll {count} dice showing 1 to {self.rules.faces}, sorted "
                    "(e.g. dice " + "1" * count + ")"
                )
            dice = action.dice
            if known[0] is action:
                shown = known[1][roller] or _roll_events(roller, dice, known[1])
            else:  # dice that only look like the table's own keep their exact form
                shown = _roll_events(roller, dice, None)
            cups = list(self.hands)
            cups[roller] = dice
            hands = tuple(cups)
            # The next seat with dice rolls, or, all cups rolled, the starter bids.
            seat, players, counts = roller + 1, self.players, self.dice
            while seat < players and not counts[seat]:
                seat += 1
            if seat < players:
                state = _replace(self, hands=hands, turn=seat, moves=self.moves + 1)
            else:
                state = _replace(
                    self, hands=hands, phase="bid", turn=self.starter, moves=self.moves + 1
                )
            return _step(Step, (state, shown))
        if phase == "over":
            raise IllegalAction("the game is over")
        if (
            not isinstance(action, FirstPlayer)
            or not is_whole(action.player)
            or not 0 <= action.player < self.players
        ):
            raise IllegalAction(
                f"chance must pick the first player (first 0 .. first {self.players - 1})"
            )
        events: list[Event] = []
        state = self._start_round(action.player, 1, events)
        return _step(Step, (_replace(state, moves=self.moves + 1), tuple(events)))

    def view(self, player: int | None) -> LiarsDiceView:
        rules: LiarsDiceRules = self.rules
        mine = None
        if player is not None and self.phase in ("roll", "bid") and self.hands[player]:
            mine = self.hands[player]
        my_turn = player is not None and player == self.current_player
        return LiarsDiceView(
            rules=rules.text,
            player=player,
            players=self.players,
            state_id=self.moves,
            phase=self.phase,
            turn=self.current_player,
            round=self.round,
            dice=self.dice,
            total=self.total,
            palifico=self.palifico,
            wild=rules.ladder.wild_face(self.palifico),
            my_dice=mine,
            bid=self.bid,
            bidder=self.bidder if self.bidder >= 0 else None,
            bids=self.bids,
            legal_actions=tuple(self.legal_actions()) if my_turn else (),
            last_round=self.last_round,
            result=self.result,
        )

    def returns(self) -> tuple[float, ...]:
        """Zero-sum payoffs at the end: the winners share +1, the losers share -1."""
        if self.result is None:
            return (0.0,) * self.players
        return zero_sum_returns(self.players, self.result.winners, self.result.losers)

    def outcome(self) -> Outcome | None:
        """One player goes out per round, so the standings are the places."""
        if self.result is None:
            return None
        eliminated = tuple(zip(self.eliminated, self.eliminated_in, strict=True))
        return ranked_outcome(self.result, self.dice, eliminated, self.round)

    def default_action(self) -> LiarsDiceAction:
        """For a player out of time: call a standing bid, else open with the lowest bid."""
        legal = self.legal_actions()
        if not legal:
            raise IllegalAction(f"no player is to move in phase {self.phase}")
        return Challenge() if Challenge() in legal else legal[0]

    def indistinguishable(self, player: int | None) -> list[LiarsDiceState]:
        """States `player` cannot tell from this one: other cups hold other dice."""
        if self.phase not in ("roll", "bid"):
            return []
        faces = self.rules.faces
        variants = []
        for seat, hand in enumerate(self.hands):
            if seat == player or not hand:
                continue
            for face in (1, faces):
                other = (face,) * len(hand)
                if other != hand:
                    hands = self.hands[:seat] + (other,) + self.hands[seat + 1 :]
                    variants.append(_replace(self, hands=hands))
        return variants

    def invariants(self) -> list[str]:
        """Facts that hold in every reachable state; returns the broken ones."""
        if self.phase == "seat":
            return []
        rules: LiarsDiceRules = self.rules
        broken = []
        if any(not 0 <= d <= rules.dice for d in self.dice):
            broken.append(f"dice counts out of range: {self.dice}")
        if set(self.eliminated) != {p for p in range(self.players) if self.dice[p] == 0}:
            broken.append(f"eliminated {self.eliminated} but dice {self.dice}")
        alive = sum(1 for d in self.dice if d)
        if self.phase != "over":
            if alive < 2:
                broken.append("the game goes on with fewer than two players")
            if self.dice[self.turn] == 0:
                broken.append(f"eliminated player {self.turn} is to act or roll")
        if self.phase == "bid":
            for p in range(self.players):
                if len(self.hands[p]) != self.dice[p]:
                    broken.append(f"player {p} holds {self.hands[p]} but owns {self.dice[p]}")
            if self.bid is not None and not 1 <= self.bid.quantity <= self.total:
                broken.append(f"bid {self.bid} with {self.total} dice in play")
        if self.phase == "over" and self.result is None:
            broken.append("game over without a result")
        return broken

    # --- derived facts ----------------------------------------------------------------

    def next_alive(self, player: int) -> int:
        """The next player after `player`, clockwise, who still has dice."""
        return _next_alive(self.dice, player)

    def alive_from(self, player: int) -> int:
        """`player` if still in, else the next living player after them."""
        return player if self.dice[player] else self.next_alive(player)

    # --- transitions --------------------------------------------------------------

    def _showdown(self, action: LiarsDiceAction) -> Step[LiarsDiceState]:
        """Liar or calza on the standing bid: lift the cups, count, settle the die and end
        the round (or the game). The last move of every single-round game, so it is one
        pass that builds one new state."""
        me, bidder, bid = self.turn, self.bidder, self.bid
        assert bid is not None  # liar and calza are only legal after a bid
        rules: LiarsDiceRules = self.rules
        quantity, face = bid.quantity, bid.face
        wild = rules.ladder.wild[self.palifico]
        counted = (face, wild)  # a wild die counts as the bid's face
        hands = self.hands
        count = 0
        for hand in hands:
            for d in hand:
                if d in counted:
                    count += 1
        said: Event
        if type(action) is Challenge:
            call = "liar"
            said = Challenged(player=me, bidder=bidder, quantity=quantity, face=face)
            if count >= quantity:
                player, delta, reason = me, -1, LOST_CHALLENGE
            else:
                player, delta, reason = bidder, -1, CAUGHT_BLUFFING
        else:
            call = "calza"
            said = CalzaCalled(player=me, bidder=bidder, quantity=quantity, face=face)
            if count == quantity:
                player, delta, reason = me, +1, CALZA_RIGHT
            else:
                player, delta, reason = me, -1, CALZA_WRONG
        counts = self.dice
        before = counts[player]  # at least 1: the caller and the bidder both play
        after = before + delta
        full = rules.cups[player] if rules.cups else rules.dice
        if after > full:  # a right calza with a full cup wins nothing
            after = full
        cups = list(counts)
        cups[player] = after
        dice = tuple(cups)
        changed = DiceChanged(player=player, change=after - before, dice=after, reason=reason)
        summary = RoundSummary(
            round=self.round,
            bids=self.bids,
            call=call,
            caller=me,
            hands=hands,
            count=count,
            changes=(changed,),
        )
        shown: tuple[Event, ...] = (
            said,
            Revealed(hands=hands, quantity=quantity, face=face, count=count, wild=wild),
            changed,
        )
        eliminated, eliminated_in = self.eliminated, self.eliminated_in
        if after == 0:
            eliminated += (player,)
            eliminated_in += (self.round,)
            shown += _ELIMINATED[player]
        n = self.players
        left = n
        result: GameOver | None = None
        if rules.single_round:
            result = _single_round_result(n, player, delta > 0)
        else:
            left -= dice.count(0)
            if left <= 1:
                alive = tuple(p for p in range(n) if dice[p])
                result = GameOver(
                    winners=alive, losers=eliminated, standings=alive + eliminated[::-1]
                )
        if result is not None:
            phase, turn, number, starter = "over", -1, self.round, self.starter
            palifico, done = False, self.palifico_done
            shown += (result,)
        else:
            # The loser of a challenge, or the calza caller, opens the next round; a player
            # first down to one die, with three or more left, makes it a palifico round.
            starter = player if call == "liar" else me
            if not dice[starter]:
                starter = _next_alive(dice, starter)
            done = self.palifico_done
            palifico = (
                rules.palifico and delta < 0 and after == 1 and not done[player] and left >= 3
            )
            if palifico:
                done = done[:player] + (True,) + done[player + 1 :]
            phase, turn, number = "roll", 0, self.round + 1
            while not dice[turn]:  # every living cup is rolled, in seat order
                turn += 1
            shown += (RoundStarted(round=number, starter=starter, dice=dice, palifico=palifico),)
        # Every field by position, in declaration order (tests/test_liars_dice.py checks
        # it): with keywords, this many arguments make CPython build a dict for the call,
        # which costs more than the rest of the showdown's state.
        state = LiarsDiceState(
            self.rules,
            n,  # players
            phase,
            turn,
            number,  # round
            self.moves + 1,
            starter,
            dice,
            ((),) * n,  # hands
            palifico,
            done,  # palifico_done
            None,  # bid
            -1,  # bidder
            (),  # bids
            eliminated,
            eliminated_in,
            summary,  # last_round
            result,
        )
        return _step(Step, (state, shown))

    def _start_round(
        self, starter: int, number: int, events: list[Event], palifico: bool = False
    ) -> LiarsDiceState:
        n = self.players
        if number == 1:
            dice: tuple[int, ...] = self.rules.starting_cups(n)
            first: dict[str, Any] = {"hands": ((),) * n, "palifico_done": (False,) * n}
        else:
            dice, first = self.dice, {}
        events.append(RoundStarted(round=number, starter=starter, dice=dice, palifico=palifico))
        first_roller = 0
        while not dice[first_roller]:
            first_roller += 1
        return _replace(
            self,
            dice=dice,
            phase="roll",
            turn=first_roller,
            starter=starter,
            round=number,
            palifico=palifico,
            **first,
        )

    def _why_illegal(self, action: object) -> str:
        """A sentence saying why `action` is refused here and what would be accepted."""
        ladder = self.rules.ladder
        if isinstance(action, Bid):
            return ladder.refusal(self.total, self.bid, self.palifico, action)
        if isinstance(action, Challenge | Calza) and self.bid is None:
            return "nothing has been bid yet: open the round with a bid, e.g. 1x" + str(
                ladder.biddable_faces(self.palifico)[-1]
            )
        if isinstance(action, Calza):
            return "calza is off in these rules: raise the bid or call liar"
        if isinstance(action, Action):
            return f"{action} is not allowed now"
        return f"{action!r} is not a Liar's Dice action: bid (3x5), call liar, or calza"

    # --- physical dice (fair dice sources) -------------------------------------------

    def physical_roll(self) -> tuple[int, int]:
        """(dice, faces) behind this chance node: the seat draw is one die with a face per
        player, a roll is the roller's whole cup."""
        if self.phase == "seat":
            return 1, self.players
        if self.phase == "roll":
            return self.dice[self.turn], self.rules.faces
        raise IllegalAction(f"no dice are rolled in phase {self.phase}")

    def outcome_of_roll(self, dice: Sequence[int]) -> LiarsDiceOutcome:
        """A cup is one sorted hand, whatever order its dice fell in; die k of n seats
        picks seat k - 1."""
        count, faces = self.physical_roll()
        return cup_outcome(dice, count, faces, self.phase == "seat", Dice, FirstPlayer)


_DEFAULT_RULES = LiarsDiceRules()
_step = tuple.__new__
"""`_step(Step, (state, events))` builds a Step without the Python-level __new__ of a
named tuple: half the cost, on every move."""
_FIRST: dict[tuple[int, int], tuple[LiarsDiceRules, LiarsDiceState]] = {}

_replace = msgspec.structs.replace
_Rolled = tuple[Dice, list[tuple[Event, ...] | None]]
"""A roll outcome, and the events of each seat rolling it (made on first use)."""
_ROLLS: dict[int, tuple[Sequence[tuple[Dice, Fraction]], dict[Any, _Rolled]]] = {}
"""By `dice << 4 | faces` (faces fit in four bits): an int key costs no tuple per move."""
_LAST: tuple[object, MoveTable] = (None, ((), {}))
"""The last bidding state whose legal actions were looked up or made by a bid, and its
table: a driver asks `legal_actions` and then `apply` of the same state, so the second
look-up is free, and a bid's table knows the next one (`Move.follow`)."""


def _moves(state: LiarsDiceState) -> MoveTable:
    """The legal actions of a bidding state (see `BidLadder.moves`)."""
    global _LAST
    last = _LAST
    if last[0] is state:
        return last[1]
    ladder: BidLadder = state.rules.ladder
    key = (sum(state.dice), state.bid, state.palifico)
    table = ladder.tables.get(key) or ladder.moves(*key)
    _LAST = (state, table)
    return table


_ELIMINATED = tuple((Eliminated(player=p),) for p in range(MAX_PLAYERS))
"""Seat p going out, as the one event to add to a round's end."""


def _roll_events(
    player: int, dice: tuple[int, ...], keep: list[tuple[Event, ...] | None] | None
) -> tuple[Event, ...]:
    """The events of seat `player` rolling `dice`, kept in `keep[player]` (the outcome's
    own list) for next time: events are immutable values, shared by every game."""
    events = (Rolled(player=player, count=len(dice)), YourDice(player=player, dice=dice))
    if keep is not None:
        keep[player] = events
    return events


def _next_alive(dice: tuple[int, ...], player: int) -> int:
    """The next seat after `player`, clockwise, whose cup holds dice."""
    players = len(dice)
    for step in range(1, players + 1):
        candidate = (player + step) % players
        if dice[candidate]:
            return candidate
    raise AssertionError("no player left")  # pragma: no cover - the game ends first


@cache
def _single_round_result(players: int, player: int, won: bool) -> GameOver:
    """How a single-round game ends when `player` won or lost the round's die: the few
    possible results are shared, immutable values."""
    others = tuple(p for p in range(players) if p != player)
    winners, losers = ((player,), others) if won else (others, (player,))
    return GameOver(winners=winners, losers=losers, standings=winners + losers)


def _rolls(key: int) -> tuple[Sequence[tuple[Dice, Fraction]], dict[Any, _Rolled]]:
    """The chance outcomes of a cup (key `dice << 4 | faces`), and by each its own object
    and events (as `_moves`: one look-up checks an outcome and finds what it causes)."""
    outcomes = roll_table(Dice, key >> 4, key & 15)[0]
    found = _ROLLS[key] = (outcomes, {o: (o, [None] * MAX_PLAYERS) for o, _ in outcomes})
    return found


def new_game(rules: LiarsDiceRules | str | None = None, players: int = 4) -> LiarsDiceState:
    """A game at its first chance node (who starts, or the first cup); 2 to 8 players."""
    # States are immutable values: every new game of a rule set can share the first one.
    found = _FIRST.get((id(rules), players))
    if found is not None and found[0] is rules:
        return found[1]
    chosen: LiarsDiceRules
    if isinstance(rules, str):
        from bluffdice.games.registry import parse_rules

        chosen = parse_rules(rules, game="liars-dice")
    else:
        chosen = rules or _DEFAULT_RULES
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            f"Liar's Dice is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    chosen.starting_cups(players)  # cups for another number of seats: refused here
    key = (id(chosen), players)
    found = _FIRST.get(key)
    if found is not None and found[0] is chosen:
        return found[1]
    state = LiarsDiceState(rules=chosen, players=players)
    if chosen.start == "first-seat":
        state = state._start_round(0, 1, [])
    if len(_FIRST) > 256:
        _FIRST.clear()
    _FIRST[key] = (chosen, state)
    return state
