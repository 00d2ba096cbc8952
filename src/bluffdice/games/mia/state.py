"""The Mia state machine: one immutable state per step, no I/O, no randomness.

Phases, and who acts in each:

    seat    chance picks the first player
    open    the round opener must roll
    roll    chance rolls the dice for `turn`
    hold    `turn` holds fresh dice: look (if blind rolls are allowed), announce, or
            show cheers (joker32)
    respond `turn` received an announcement: challenge, roll (believe) or pass
    mia     `turn` received a Mia announcement: give up, challenge (look) or beat
    beat    chance rolls the open attempt against Mia (beat_mia)
    over    the game has ended
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import SupportsIndex

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
    places_from,
)
from bluffdice.games.mia.actions import (
    Action,
    Announce,
    Announced,
    BeatMia,
    Challenge,
    Challenged,
    Cheers,
    CheersShown,
    Dice,
    Eliminated,
    FirstPlayer,
    GameOver,
    GaveUp,
    GiveUp,
    Look,
    Looked,
    MiaAction,
    MiaAttempt,
    MiaOutcome,
    Pass,
    Passed,
    Penalty,
    Revealed,
    Roll,
    Rolled,
    RoundStarted,
)
from bluffdice.games.mia.rules import MiaRules
from bluffdice.games.mia.values import JOKER, MIA, VALUES, Ranking, probability

MIN_PLAYERS = 2
MAX_PLAYERS = 10
"""The players the lobby, `play` and tournaments offer."""
MAX_SEATS = 200
"""The players one game may seat: a Mäxchen contest seats every registered bot in one
round, as the canonical contest server does (its client cap is 200)."""

_DICE_OUTCOMES: tuple[tuple[Dice, Fraction], ...] = tuple((Dice(v), probability(v)) for v in VALUES)
_SEAT_OUTCOMES = {
    n: tuple((FirstPlayer(i), Fraction(1, n)) for i in range(n)) for n in range(2, 11)
}
"""Who starts, for each number of players: one tuple each, so that a dice source's
per-tuple cache (`table.dice`) serves every table instead of rebuilding per game."""


def _seat_outcomes(players: int) -> tuple[tuple[FirstPlayer, Fraction], ...]:
    outcomes = _SEAT_OUTCOMES.get(players)
    if outcomes is None:  # a large contest table: made once, kept
        outcomes = tuple((FirstPlayer(i), Fraction(1, players)) for i in range(players))
        if MIN_PLAYERS <= players <= MAX_SEATS:
            _SEAT_OUTCOMES[players] = outcomes
    return outcomes


# Reasons for a penalty; those in _MIA_REASONS "involve Mia" (mia_doubled, stiff drinks).
CAUGHT_BLUFFING = "caught_bluffing"
SEE_FAILED = "see_failed"
SEE_FAILED_MIA = "see_failed_mia"
GAVE_UP = "gave_up"
MIA_FOUND = "mia_found"
LIED_ABOUT_MIA = "lied_about_mia"
TRUE_MIA = "mia"
BEAT_FAILED = "beat_failed"
MIA_BEATEN = "mia_beaten"
_MIA_REASONS = frozenset(
    {SEE_FAILED_MIA, GAVE_UP, MIA_FOUND, LIED_ABOUT_MIA, TRUE_MIA, BEAT_FAILED, MIA_BEATEN}
)


class Call(msgspec.Struct, frozen=True, gc=False):
    """One announcement of the current round: `kind` is "announce" (after a roll) or "pass"."""

    player: int
    kind: str
    value: int


class RoundSummary(msgspec.Struct, frozen=True, gc=False):
    """How the previous round ended, as everyone saw it."""

    round: int
    calls: tuple[Call, ...]
    revealed: int | None
    penalties: tuple[Penalty, ...]


class MiaView(msgspec.Struct, frozen=True, tag="mia.view", gc=False):
    """What one player (or a spectator, `player` None) may know: never others' dice."""

    rules: str
    player: int | None
    players: int
    state_id: int
    phase: str
    turn: int
    round: int
    lives: tuple[int, ...]
    score: tuple[int, ...]
    drinks: tuple[int, ...]
    out: tuple[bool, ...]
    announced: int | None
    announcer: int | None
    calls: tuple[Call, ...]
    my_dice: int | None
    looked: bool
    legal_actions: tuple[MiaAction, ...]
    last_round: RoundSummary | None
    result: GameOver | None
    game: str = "mia"


class MiaState(TableState[MiaRules], frozen=True, gc=False):
    """The whole truth of a Mia game, dice included. Only drivers hold it; players get views.

    Untracked by the garbage collector (`gc=False`, as its calls, summaries, views and
    actions): a state holds values and no state, so it is never part of a reference
    cycle, and a server keeps every state of every running game in the tables' logs.
    """

    lost: tuple[int, ...] = ()
    drinks: tuple[int, ...] = ()
    joined: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    eliminated: tuple[int, ...] = ()
    eliminated_in: tuple[int, ...] = ()
    """The round in which each of `eliminated` went out."""
    dice: int = 0
    roller: int = -1
    looked: bool = False
    announced: int = 0
    announcer: int = -1
    calls: tuple[Call, ...] = ()
    last_round: RoundSummary | None = None
    result: GameOver | None = None

    # --- the common game interface -------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("seat", "roll", "beat"):
            return CHANCE
        return self.turn

    def chance_outcomes(self) -> Sequence[tuple[MiaOutcome, Fraction]]:
        if self.phase == "seat":
            return _seat_outcomes(self.players)
        if self.phase in ("roll", "beat"):
            return _DICE_OUTCOMES
        return ()

    def legal_actions(self) -> Sequence[MiaAction]:
        return self._legal()[0]

    def _legal(self) -> _Legal:
        """The legal actions here and the same as a set, from a per-rules table: built once
        per situation, shared by `legal_actions`, `apply` and `view`."""
        phase = self.phase
        if phase == "hold":
            key: _LegalKey = (phase, self.looked, self.dice == JOKER, self.announced)
        elif phase == "respond":
            key = (phase, self.announced, self._pass_limit_reached())
        elif phase in ("open", "mia"):
            key = (phase,)
        else:
            return _NO_ACTIONS
        table = _legal_table(self.rules)
        found = table.get(key)
        if found is None:
            actions = tuple(self._build_legal_actions())
            found = table[key] = (actions, frozenset(actions))
        return found

    def _build_legal_actions(self) -> Sequence[MiaAction]:
        rules: MiaRules = self.rules
        ranking = rules.ranking
        if self.phase == "open":
            return (Roll(),)
        if self.phase == "hold":
            actions: list[MiaAction] = []
            if not self.looked:
                actions.append(Look())
            if rules.joker32 and self.looked and self.dice == JOKER:
                actions.append(Cheers())
            actions.extend(Announce(v) for v in self._announceable())
            return actions
        if self.phase == "respond":
            actions = [Challenge(), Roll()]
            if rules.pass_allowed and not self._pass_limit_reached():
                actions.extend(Pass(v) for v in ranking.at_least[self.announced])
            return actions
        if self.phase == "mia":
            actions = [GiveUp(), Challenge()]
            if rules.beat_mia:
                actions.append(BeatMia())
            return actions
        return ()

    def apply(self, action: MiaAction | MiaOutcome) -> Step[MiaState]:
        """Apply a legal action or a chance outcome; IllegalAction leaves nothing changed."""
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if self.current_player == CHANCE:
            return self._apply_chance(action)
        if isinstance(action, Dice | FirstPlayer):
            raise IllegalAction(
                f"{action} is a chance outcome, but it is player {self.turn}'s turn to act"
            )
        if not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not a Mia action")
        if isinstance(action, Announce | Pass) and not _is_whole(action.value):
            raise IllegalAction(_not_whole(action.value))
        if action not in self._legal()[1]:
            raise IllegalAction(self._why_illegal(action))
        events: list[Event] = []
        state = self._apply_action(action, events)
        # A look is hidden from the others (blind rolls), so it must not move the state
        # id they see: the id counts public steps only.
        moves = self.moves if isinstance(action, Look) else self.moves + 1
        return _step(Step, (msgspec.structs.replace(state, moves=moves), tuple(events)))

    def view(self, player: int | None) -> MiaView:
        # A table views every state once per recipient, one after the other: the part
        # everyone sees is built once (the spectator's view) and each player's view is a
        # copy with their own four fields, which costs an eighth of building it.
        global _LAST_PUBLIC
        last_state, public = _LAST_PUBLIC
        if last_state is not self or public is None:
            public = self._public_view()
            _LAST_PUBLIC = (self, public)
        if player is None:
            return public
        turn = public.turn
        roller = player == self.roller
        return msgspec.structs.replace(
            public,
            player=player,
            my_dice=(
                self.dice
                if roller and self.looked and public.phase in ("hold", "respond", "mia")
                else None
            ),
            looked=self.looked if roller else False,
            legal_actions=self._legal()[0] if player == turn else (),
        )

    def _public_view(self) -> MiaView:
        """The view of a spectator: what every player sees of this state."""
        lives, scores = self._tallies()
        return MiaView(
            rules=self.rules.text,
            player=None,
            players=self.players,
            state_id=self.moves,
            phase=self.phase,
            turn=self.current_player,
            round=self.round,
            lives=lives,
            score=scores,
            drinks=self.drinks,
            out=self.out,
            announced=self.announced or None,
            announcer=self.announcer if self.announcer >= 0 else None,
            calls=self.calls,
            my_dice=None,
            looked=False,
            legal_actions=(),
            last_round=self.last_round,
            result=self.result,
        )

    def returns(self) -> tuple[float, ...]:
        """Zero-sum payoffs at the end: the winners share +1 against the rest."""
        if self.result is None:
            return tuple(0.0 for _ in range(self.players))
        winners = set(self.result.winners)
        if not winners or len(winners) == self.players:
            return tuple(0.0 for _ in range(self.players))
        win, lose = 1.0 / len(winners), -1.0 / (self.players - len(winners))
        return tuple(win if i in winners else lose for i in range(self.players))

    def outcome(self) -> Outcome | None:
        """Places: in lives mode the players still in by lives left, those knocked out by
        how long they lasted (two out in one round tie); in score and drinking modes by
        the tally."""
        if self.result is None:
            return None
        rules: MiaRules = self.rules
        n = self.players
        keys: list[tuple[int, ...]]
        if rules.mode == "lives":
            out_round = dict(zip(self.eliminated, self.eliminated_in, strict=True))
            forever = 1 << 30
            keys = [(out_round.get(p, forever), self.lives[p]) for p in range(n)]
        elif rules.mode == "score":
            keys = [(s,) for s in self.scores]
        else:
            keys = [(-self.drinks[p], -self.lost[p]) for p in range(n)]
        return Outcome(
            winners=self.result.winners,
            losers=self.result.losers,
            standings=self.result.standings,
            places=places_from(keys),
            left=self.lives,
            score=self.scores,
            eliminated=tuple(zip(self.eliminated, self.eliminated_in, strict=True)),
            rounds=self.round,
        )

    def default_action(self) -> MiaAction:
        """For a player out of time: the most modest legal move. Roll when a round must
        be opened; hold the truth if looked at and allowed, else the smallest legal
        announcement; challenge an announcement; give up against Mia."""
        phase = self.phase
        if phase == "open":
            return Roll()
        if phase == "hold":
            legal = self._announceable()
            if self.looked and self.dice in legal:
                return Announce(self.dice)
            return Announce(legal[0])
        if phase == "respond":
            return Challenge()
        if phase == "mia":
            return GiveUp()
        raise IllegalAction(f"no player is to move in phase {phase}")

    def indistinguishable(self, player: int | None) -> list[MiaState]:
        """Other states that `player` cannot tell from this one (other dice under the cup,
        and whether the roller looked). A view must be the same in all of them."""
        if self.dice == 0 or self.phase not in ("hold", "respond", "mia", "beat"):
            return []
        if player is not None and player == self.roller and self.looked:
            return []
        variants = [msgspec.structs.replace(self, dice=v) for v in VALUES if v != self.dice]
        if player != self.roller and self.rules.blind:
            variants.append(msgspec.structs.replace(self, looked=not self.looked))
        return variants

    def invariants(self) -> list[str]:
        """Facts that must hold in every reachable state; returns the broken ones."""
        broken: list[str] = []
        rules: MiaRules = self.rules
        if self.phase == "seat":
            return broken
        if any(n < 0 for n in self.lost) or any(n < 0 for n in self.drinks):
            broken.append(f"negative penalty tally {self.lost} {self.drinks}")
        if rules.mode == "lives":
            if any(n > rules.lives for n in self.lost):
                broken.append(f"more lives lost than owned: {self.lost}")
            for p in range(self.players):
                if self.out[p] != (self.lost[p] >= rules.lives):
                    broken.append(f"player {p} out={self.out[p]} with {self.lives[p]} lives")
        elif any(self.out):
            broken.append("a player was eliminated outside lives mode")
        if self.phase != "over":
            if self.out[self.turn]:
                broken.append(f"eliminated player {self.turn} is to act")
            if sum(not o for o in self.out) < 2:
                broken.append("the game goes on with fewer than two players")
        if self.phase in ("respond", "mia") and self.announced not in VALUES:
            broken.append(f"nothing valid announced in phase {self.phase}")
        if self.phase == "mia" and self.announced != MIA:
            broken.append("Mia phase without a Mia announcement")
        return broken

    # --- derived facts ----------------------------------------------------------------

    @property
    def lives(self) -> tuple[int, ...]:
        """Lives left (lives mode); in other modes the starting lives, unchanged."""
        return self._tallies()[0]

    @property
    def scores(self) -> tuple[int, ...]:
        """Score mode: rounds joined minus rounds lost; drinking: sips drunk; lives: lives."""
        return self._tallies()[1]

    def _tallies(self) -> _Tallies:
        """(lives, scores), worked out once per tally: every state of a round shares
        them, and a table views each state once per recipient."""
        rules: MiaRules = self.rules
        key = (rules.mode, rules.lives, self.players, self.lost, self.joined)
        return _TALLIES.get(key) or _tallies(key)

    def next_alive(self, player: int) -> int:
        """The next player after `player`, clockwise, who is still in the game."""
        for step in range(1, self.players + 1):
            candidate = (player + step) % self.players
            if not self.out[candidate]:
                return candidate
        raise AssertionError("no player left")  # pragma: no cover - the game ends first

    def alive_from(self, player: int) -> int:
        """`player` if still in, else the next living player after them."""
        return player if not self.out[player] else self.next_alive(player)

    # --- transitions --------------------------------------------------------------

    def _announceable(self) -> tuple[int, ...]:
        ranking: Ranking = self.rules.ranking
        if self.announced == 0:
            return ranking.worst_first
        if self.rules.relaxed_raise:
            return ranking.at_least[self.announced]
        return ranking.above[self.announced]

    def _apply_chance(self, outcome: MiaAction | MiaOutcome) -> Step[MiaState]:
        events: list[Event] = []
        if isinstance(outcome, Dice | FirstPlayer):
            number = outcome.value if isinstance(outcome, Dice) else outcome.player
            if not _is_whole(number):
                raise IllegalAction(_not_whole(number))
        if self.phase == "seat":
            if not isinstance(outcome, FirstPlayer) or not 0 <= outcome.player < self.players:
                raise IllegalAction(
                    f"chance must pick the first player (first 0 .. first {self.players - 1})"
                )
            state = self._start_round(outcome.player, 1, events)
        else:
            if not isinstance(outcome, Dice) or outcome.value not in VALUES:
                raise IllegalAction("chance must roll the dice (e.g. dice 43)")
            if self.phase == "roll":
                looked = not self.rules.blind
                state = msgspec.structs.replace(
                    self, phase="hold", dice=outcome.value, roller=self.turn, looked=looked
                )
                if looked:
                    events.append(Looked(player=self.turn, value=outcome.value))
            else:
                state = self._resolve_beat(outcome.value, events)
        return _step(Step, (msgspec.structs.replace(state, moves=self.moves + 1), tuple(events)))

    def _apply_action(self, action: Action, events: list[Event]) -> MiaState:
        me = self.turn
        if isinstance(action, Roll):
            events.append(Rolled(player=me))
            return msgspec.structs.replace(self, phase="roll")
        if isinstance(action, Look):
            events.append(Looked(player=me, value=self.dice))
            return msgspec.structs.replace(self, looked=True)
        if isinstance(action, Cheers):
            events.append(CheersShown(player=me))
            events.append(Revealed(value=self.dice, announced=None, truthful=None))
            return self._end_round([], me, events, revealed=self.dice)
        if isinstance(action, Announce | Pass):
            kind = "announce" if isinstance(action, Announce) else "pass"
            if isinstance(action, Announce):
                events.append(Announced(player=me, value=action.value))
            else:
                events.append(Passed(player=me, value=action.value))
            state = msgspec.structs.replace(
                self,
                announced=action.value,
                announcer=me,
                calls=(*self.calls, Call(me, kind, action.value)),
            )
            if action.value == MIA:
                if self.rules.mia_end == "instant":
                    return state._resolve_instant_mia(events)
                return msgspec.structs.replace(state, phase="mia", turn=self.next_alive(me))
            return msgspec.structs.replace(state, phase="respond", turn=self.next_alive(me))
        if isinstance(action, Challenge):
            events.append(Challenged(player=me, announcer=self.announcer, announced=self.announced))
            return self._resolve_challenge(events)
        if isinstance(action, GiveUp):
            events.append(GaveUp(player=me))
            return self._end_round([(me, GAVE_UP)], self._mia_starter(me), events)
        if isinstance(action, BeatMia):
            events.append(Rolled(player=me))
            return msgspec.structs.replace(self, phase="beat")
        raise AssertionError(f"unhandled action {action!r}")  # pragma: no cover

    def _resolve_challenge(self, events: list[Event]) -> MiaState:
        ranking = self.rules.ranking
        me, announcer = self.turn, self.announcer
        truthful = ranking.rank(self.dice) >= ranking.rank(self.announced)
        events.append(Revealed(value=self.dice, announced=self.announced, truthful=truthful))
        if self.phase == "mia":
            if self.dice == MIA:
                return self._end_round([(me, MIA_FOUND)], self._mia_starter(me), events, MIA)
            return self._end_round(
                [(announcer, LIED_ABOUT_MIA)], self._mia_starter(announcer), events, self.dice
            )
        if not truthful:
            return self._end_round([(announcer, CAUGHT_BLUFFING)], me, events, self.dice)
        reason = SEE_FAILED_MIA if self.dice == MIA else SEE_FAILED
        return self._end_round([(me, reason)], self.next_alive(me), events, self.dice)

    def _resolve_instant_mia(self, events: list[Event]) -> MiaState:
        me = self.announcer
        truthful = self.dice == MIA
        events.append(Revealed(value=self.dice, announced=MIA, truthful=truthful))
        if truthful:
            # Several players lose at once: the one after the announcer starts.
            others = [(p, TRUE_MIA) for p in range(self.players) if p != me and not self.out[p]]
            return self._end_round(others, self.next_alive(me), events, self.dice)
        return self._end_round([(me, LIED_ABOUT_MIA)], self._mia_starter(me), events, self.dice)

    def _resolve_beat(self, value: int, events: list[Event]) -> MiaState:
        me = self.turn
        events.append(MiaAttempt(player=me, value=value))
        if value == MIA:
            return self._end_round(
                [(self.announcer, MIA_BEATEN)], self._mia_starter(self.announcer), events
            )
        return self._end_round([(me, BEAT_FAILED)], self._mia_starter(me), events)

    def _mia_starter(self, loser: int) -> int:
        return loser if self.rules.mia_starter == "loser" else self.next_alive(loser)

    def _penalty(self, player: int, reason: str) -> Penalty:
        rules: MiaRules = self.rules
        involves_mia = reason in _MIA_REASONS
        if rules.mode == "score":
            return Penalty(player=player, amount=1, reason=reason)
        if rules.mode == "drinking" and involves_mia:
            return Penalty(player=player, amount=1, reason=reason, stiff=True)
        amount = 2 if reason == MIA_FOUND or (involves_mia and rules.mia_doubled) else 1
        return Penalty(player=player, amount=amount, reason=reason)

    def _end_round(
        self,
        losers: list[tuple[int, str]],
        starter: int,
        events: list[Event],
        revealed: int | None = None,
    ) -> MiaState:
        rules: MiaRules = self.rules
        lost, drinks, out = list(self.lost), list(self.drinks), list(self.out)
        eliminated = list(self.eliminated)
        eliminated_in = list(self.eliminated_in)
        joined = [j + (0 if o else 1) for j, o in zip(self.joined, self.out, strict=True)]
        penalties = []
        for player, reason in losers:
            pen = self._penalty(player, reason)
            penalties.append(pen)
            events.append(pen)
            if pen.stiff:
                drinks[player] += 1
            elif rules.mode == "lives":
                lost[player] = min(rules.lives, lost[player] + pen.amount)
            else:
                lost[player] += pen.amount
        if rules.mode == "lives":
            for player in range(self.players):
                if not out[player] and lost[player] >= rules.lives:
                    out[player] = True
                    eliminated.append(player)
                    eliminated_in.append(self.round)
                    events.append(Eliminated(player=player))
        summary = RoundSummary(
            round=self.round, calls=self.calls, revealed=revealed, penalties=tuple(penalties)
        )
        state = msgspec.structs.replace(
            self,
            lost=tuple(lost),
            drinks=tuple(drinks),
            joined=tuple(joined),
            out=tuple(out),
            eliminated=tuple(eliminated),
            eliminated_in=tuple(eliminated_in),
            last_round=summary,
            dice=0,
            roller=-1,
            looked=False,
            announced=0,
            announcer=-1,
            calls=(),
        )
        result = state._result_if_over()
        if result is not None:
            events.append(result)
            return msgspec.structs.replace(state, phase="over", turn=-1, result=result)
        return state._start_round(state.alive_from(starter), self.round + 1, events)

    def _start_round(self, starter: int, number: int, events: list[Event]) -> MiaState:
        n = self.players
        state = self
        if number == 1:
            state = msgspec.structs.replace(
                self,
                lost=(0,) * n,
                drinks=(0,) * n,
                joined=(0,) * n,
                out=(False,) * n,
            )
        events.append(RoundStarted(round=number, starter=starter))
        return msgspec.structs.replace(state, phase="open", turn=starter, round=number)

    def _result_if_over(self) -> GameOver | None:
        rules: MiaRules = self.rules
        n = self.players
        if rules.mode == "lives":
            alive = [p for p in range(n) if not self.out[p]]
            if rules.end == "first_out" and self.eliminated:
                losers = tuple(self.eliminated)
                standings = tuple(sorted(alive, key=lambda p: (-self.lives[p], p)) + list(losers))
                return GameOver(winners=tuple(alive), losers=losers, standings=standings)
            if len(alive) <= 1:
                standings = tuple(alive + list(reversed(self.eliminated)))
                return GameOver(
                    winners=tuple(alive), losers=tuple(self.eliminated), standings=standings
                )
            return None
        if self.round < rules.rounds:
            return None
        if rules.mode == "score":
            key = [(-s, 0) for s in self.scores]
        else:  # drinking: fewest stiff drinks, then fewest sips
            key = [(self.drinks[p], self.lost[p]) for p in range(n)]
        best, worst = min(key), max(key)
        standings = tuple(sorted(range(n), key=lambda p: (key[p], p)))
        winners = tuple(p for p in range(n) if key[p] == best)
        losers = tuple(p for p in range(n) if key[p] == worst and best != worst)
        return GameOver(winners=winners, losers=losers, standings=standings)

    def _pass_limit_reached(self) -> bool:
        """Whether the passes since the last roll's announcement are at `pass_limit`."""
        limit: int = self.rules.pass_limit
        if limit <= 0:
            return False
        passes = 0
        for call in reversed(self.calls):
            if call.kind != "pass":
                break
            passes += 1
        return passes >= limit

    def _why_illegal(self, action: Action) -> str:
        """A sentence saying why `action` is refused here and what would be accepted."""
        rules: MiaRules = self.rules
        phase = self.phase
        if isinstance(action, Announce | Pass) and action.value not in VALUES:
            return (
                f"{action.value} is not a Mia value: values are two dice, higher die first, "
                "like 54, 66 or 21 (Mia)"
            )
        if isinstance(action, Announce):
            if phase == "hold":
                if rules.relaxed_raise:
                    return (
                        f"{action.value} is lower than the last announcement {self.announced}: "
                        "announce the same value or a higher one"
                    )
                return (
                    f"{action.value} does not beat the last announcement {self.announced}: "
                    "announce a higher value"
                )
            if phase == "respond":
                return "roll first (believe), or challenge, or pass with a value"
            if phase == "open":
                return "roll the dice first, then announce"
        if isinstance(action, Pass):
            if not rules.pass_allowed:
                return "passing is off in these rules: challenge or roll"
            if phase == "respond" and self._pass_limit_reached():
                return (
                    f"{rules.pass_limit} passes in a row is the limit in these rules: "
                    "challenge or roll"
                )
            if phase == "respond":
                return f"a pass must announce the same value as {self.announced} or a higher one"
            if phase == "hold":
                return "you rolled: announce a value (passing is only instead of rolling)"
        if isinstance(action, Look):
            if phase == "hold":
                return "you have already seen your dice" if self.looked else "cannot look now"
            if phase == "mia":
                return "to look at a Mia announcement, challenge it"
            return "there are no dice of yours to look at: roll first"
        if isinstance(action, Cheers):
            if not rules.joker32:
                return "cheers (joker 32) is off in these rules"
            return "cheers needs a 32 under your cup that you have looked at"
        if isinstance(action, Challenge):
            if phase == "open":
                return "nothing has been announced yet: roll"
            if phase == "hold":
                return "you hold the dice: announce a value"
        if isinstance(action, Roll):
            if phase == "hold":
                return "you have rolled already: announce a value"
            if phase == "mia":
                return "Mia was announced: give up, challenge (look) or, if allowed, beat"
        if isinstance(action, GiveUp):
            return "giving up is only the answer to a Mia announcement"
        if isinstance(action, BeatMia):
            if not rules.beat_mia:
                return "beating Mia by rolling is off in these rules"
            return "beat is only the answer to a Mia announcement"
        legal = ", ".join(str(a) for a in self.legal_actions()[:6])
        return f"{action} is not allowed now; allowed: {legal}"

    # --- physical dice (fair dice sources) -------------------------------------------

    def physical_roll(self) -> tuple[int, int]:
        """(dice, faces) behind this chance node: the seat draw is one die with a face per
        player, a roll is two six-sided dice."""
        if self.phase == "seat":
            return 1, self.players
        if self.phase in ("roll", "beat"):
            return 2, 6
        raise IllegalAction(f"no dice are rolled in phase {self.phase}")

    def outcome_of_roll(self, dice: Sequence[int]) -> MiaOutcome:
        """Two dice in either order make one value (5 and 3 is 53); die k of n seats
        picks seat k - 1."""
        count, faces = self.physical_roll()
        if len(dice) != count or not all(type(d) is int and 1 <= d <= faces for d in dice):
            raise IllegalAction(f"chance needs {count} dice showing 1 to {faces}, not {dice}")
        if count == 1:
            return FirstPlayer(dice[0] - 1)
        return Dice(max(dice) * 10 + min(dice))


_Tallies = tuple[tuple[int, ...], tuple[int, ...]]
_LAST_PUBLIC: tuple[MiaState | None, MiaView | None] = (None, None)
"""The state whose public view was built last, and that view (`MiaState.view`): a
one-entry cache by identity, which every view of a state after its first hits."""
_TALLIES: dict[tuple[str, int, int, tuple[int, ...], tuple[int, ...]], _Tallies] = {}
"""(lives, scores) by (mode, starting lives, players, lost, joined): a few per game."""


def _tallies(key: tuple[str, int, int, tuple[int, ...], tuple[int, ...]]) -> _Tallies:
    mode, start, players, lost, joined = key
    if mode == "lives":
        lives = tuple(max(0, start - n) for n in lost)
        found = lives, lives
    else:
        full = (start,) * players
        if mode == "score":
            found = full, tuple(j - n for j, n in zip(joined, lost, strict=True))
        else:  # drinking: sips drunk
            found = full, lost
    if len(_TALLIES) > 4096:
        _TALLIES.clear()
    _TALLIES[key] = found
    return found


_Legal = tuple[tuple[MiaAction, ...], frozenset[MiaAction]]
_NO_ACTIONS: _Legal = ((), frozenset())
_LegalKey = tuple[str | int | bool, ...]
"""What the legal actions depend on: the phase and the facts of it that matter."""
_LEGAL: dict[int, tuple[MiaRules, dict[_LegalKey, _Legal]]] = {}
_step = tuple.__new__
"""`_step(Step, (state, events))` builds a Step without the Python-level __new__ of a
named tuple: half the cost, on every move."""


def _legal_table(rules: MiaRules) -> dict[_LegalKey, _Legal]:
    """The legal-action table of a rule set, kept by identity: hashing a rules dataclass on
    every move would cost more than the look-up saves."""
    entry = _LEGAL.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_LEGAL) > 256:
            _LEGAL.clear()
        entry = _LEGAL[id(rules)] = (rules, {})
    return entry[1]


def _is_whole(number: object) -> bool:
    """An integer, but neither a bool nor a float: an action or outcome must read back
    from its text form (52, not 52.0; first 1, not first True) so its record replays."""
    if type(number) is int:
        return True
    return isinstance(number, SupportsIndex) and not isinstance(number, bool)


def _not_whole(number: object) -> str:
    return f"{number!r} is not a whole number: values and seats are written like 54 or 2"


def new_game(rules: MiaRules | str | None = None, players: int = 4) -> MiaState:
    """A game at its first chance node (who starts); `players` from 2 to 200."""
    chosen: MiaRules
    if isinstance(rules, str):
        from bluffdice.games.registry import parse_rules

        chosen = parse_rules(rules, game="mia")
    else:
        chosen = rules or MiaRules()
    if not MIN_PLAYERS <= players <= MAX_SEATS:
        raise RuleError(f"Mia is played by {MIN_PLAYERS} to {MAX_SEATS} players, not {players}")
    return MiaState(rules=chosen, players=players)
