"""The common-hand (two-player poker dice) state machine: immutable, no I/O, no randomness.

Phases, and who acts in each:

    seat    chance picks the seat that opens the first round (start=random)
    roll    chance rolls five dice for `turn` (both cups, seat order)
    claim   `turn` names a hand (the opener), or answers the last claim: a higher
            claim, liar, or a reroll of some own dice
    reroll  chance rolls the dice `turn` put back in the cup
    raise   `turn` rerolled and must now name a higher hand
    over    the game has ended
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from numbers import Integral

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
from bluffdice.games.common_hand.actions import (
    Action,
    Challenge,
    Challenged,
    Claim,
    Claimed,
    CommonHandAction,
    CommonHandOutcome,
    Dice,
    FirstPlayer,
    GameOver,
    LifeLost,
    Reroll,
    Revealed,
    Rolled,
    RoundStarted,
    YourDice,
)
from bluffdice.games.common_hand.hands import describe_key, face_name
from bluffdice.games.common_hand.rules import CommonHandRules
from bluffdice.games.liars_dice.dice import cup_outcome, roll_table, zero_sum_returns

PLAYERS = 2
DICE = 5
FACES = 6

CAUGHT_BLUFFING = "caught_bluffing"  # the claimer's dice did not make the claim
LOST_CHALLENGE = "lost_challenge"  # the claim held: the challenger loses


class Call(msgspec.Struct, frozen=True):
    """One claim of the current round; `rerolled` dice were rolled again just before it."""

    player: int
    claim: Claim
    rerolled: int = 0


class RoundSummary(msgspec.Struct, frozen=True):
    """How the previous round ended, as both players saw it (both cups were lifted)."""

    round: int
    calls: tuple[Call, ...]
    challenger: int
    claimer: int
    hands: tuple[tuple[int, ...], ...]
    held: bool
    loser: int


class CommonHandView(msgspec.Struct, frozen=True, tag="common-hand.view"):
    """What one player (or a spectator, `player` None) may know: never the other cup."""

    rules: str
    player: int | None
    players: int
    state_id: int
    phase: str
    turn: int
    round: int
    lives: tuple[int, ...]
    my_dice: tuple[int, ...] | None
    claim: Claim | None
    claimer: int | None
    calls: tuple[Call, ...]
    rerolling: int
    legal_actions: tuple[CommonHandAction, ...]
    last_round: RoundSummary | None
    result: GameOver | None
    game: str = "common-hand"


class CommonHandState(TableState[CommonHandRules], frozen=True):
    """The whole truth of a common-hand game, both cups included. Players get views."""

    starter: int = -1
    lives: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ((), ())
    claim_index: int = -1
    claimer: int = -1
    calls: tuple[Call, ...] = ()
    kept: tuple[int, ...] = ()
    rerolling: int = 0  # dice put back in the cup (reroll phase, and the raise after it)
    last_round: RoundSummary | None = None
    result: GameOver | None = None

    # --- the common game interface -------------------------------------------------

    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase in ("claim", "raise"):
            return self.turn
        if phase == "over":
            return TERMINAL
        return CHANCE

    @property
    def claim(self) -> Claim | None:
        return self.rules.table.claims[self.claim_index] if self.claim_index >= 0 else None

    def chance_outcomes(self) -> Sequence[tuple[CommonHandOutcome, Fraction]]:
        if self.phase == "roll":
            return roll_table(Dice, DICE, FACES)[0]
        if self.phase == "reroll":
            return roll_table(Dice, self.rerolling, FACES)[0]
        if self.phase == "seat":
            p = Fraction(1, self.players)
            return [(FirstPlayer(i), p) for i in range(self.players)]
        return ()

    def legal_actions(self) -> Sequence[CommonHandAction]:
        if self.phase not in ("claim", "raise"):
            return ()
        table = self.rules.table
        return table.legal_actions(self.hands[self.turn], self.claim_index, self.phase == "raise")

    def apply(self, action: CommonHandAction | CommonHandOutcome) -> Step[CommonHandState]:
        """Apply a legal action or a chance outcome; IllegalAction leaves nothing changed."""
        phase = self.phase
        if phase == "over":
            raise IllegalAction("the game is over")
        events: list[Event] = []
        if phase in ("claim", "raise"):
            table = self.rules.table
            if (
                not isinstance(action, Action)
                or not well_formed(action)
                or not table.is_legal(
                    self.hands[self.turn], self.claim_index, phase == "raise", action
                )
            ):
                raise IllegalAction(self._why_illegal(action))
            # Keep the rules' own claim, and plain ints for numpy ones: events and the
            # record then hold what replays.
            if isinstance(action, Claim):
                action = table.claims[table.index[action]]
            elif isinstance(action, Reroll):
                action = Reroll(tuple(int(d) for d in action.dice))
            state = self._apply_action(action, events)
        elif phase in ("roll", "reroll"):
            state = self._apply_roll(action, events)
        else:
            if (
                not isinstance(action, FirstPlayer)
                or not is_whole(action.player)
                or not 0 <= action.player < self.players
            ):
                raise IllegalAction("chance must pick the first player (first 0 or first 1)")
            state = self._start_round(action.player, 1, events)
        return Step(msgspec.structs.replace(state, moves=self.moves + 1), tuple(events))

    def view(self, player: int | None) -> CommonHandView:
        mine = None
        if player is not None and self.phase not in ("seat", "over") and self.hands[player]:
            mine = self.hands[player]
            if self.phase == "reroll" and player == self.turn:
                mine = self.kept
        my_turn = player is not None and player == self.current_player
        return CommonHandView(
            rules=self.rules.text,
            player=player,
            players=self.players,
            state_id=self.moves,
            phase=self.phase,
            turn=self.current_player,
            round=self.round,
            lives=self.lives,
            my_dice=mine,
            claim=self.claim,
            claimer=self.claimer if self.claimer >= 0 else None,
            calls=self.calls,
            rerolling=self.rerolling,
            legal_actions=tuple(self.legal_actions()) if my_turn else (),
            last_round=self.last_round,
            result=self.result,
        )

    def returns(self) -> tuple[float, ...]:
        """+1 to the winner, -1 to the loser; 0 before the end."""
        if self.result is None:
            return (0.0,) * self.players
        return zero_sum_returns(self.players, self.result.winners, self.result.losers)

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        eliminated = tuple((p, self.round) for p in self.result.losers)
        return ranked_outcome(self.result, self.lives, eliminated, self.round)

    def default_action(self) -> CommonHandAction:
        """For a player out of time: call a standing claim, else the lowest claim."""
        legal = self.legal_actions()
        if not legal:
            raise IllegalAction(f"no player is to move in phase {self.phase}")
        if Challenge() in legal:
            return Challenge()
        return next(a for a in legal if isinstance(a, Claim))

    def indistinguishable(self, player: int | None) -> list[CommonHandState]:
        """States `player` cannot tell from this one: the other cup holds other dice."""
        if self.phase in ("seat", "over"):
            return []
        variants = []
        for seat, hand in enumerate(self.hands):
            if seat == player or not hand:
                continue
            for face in (1, FACES):
                other = (face,) * len(hand)
                if other != hand:
                    hands = self.hands[:seat] + (other,) + self.hands[seat + 1 :]
                    variant = msgspec.structs.replace(self, hands=hands)
                    if self.phase == "reroll" and seat == self.turn:
                        kept = (face,) * len(self.kept)
                        variant = msgspec.structs.replace(variant, kept=kept)
                    variants.append(variant)
        return variants

    def invariants(self) -> list[str]:
        if self.phase == "seat":
            return []
        rules: CommonHandRules = self.rules
        broken = []
        if any(not 0 <= n <= rules.lives for n in self.lives):
            broken.append(f"lives out of range: {self.lives}")
        if self.phase != "over" and 0 in self.lives:
            broken.append("the game goes on after a player lost every life")
        if self.phase in ("claim", "raise", "reroll"):
            for p, hand in enumerate(self.hands):
                if len(hand) != DICE or list(hand) != sorted(hand):
                    broken.append(f"player {p} holds {hand}")
            if self.claim_index >= 0 and self.claimer == self.turn:
                broken.append("a player is to answer their own claim")
        if self.phase == "reroll" and len(self.kept) + self.rerolling != DICE:
            broken.append(f"kept {self.kept} and rerolling {self.rerolling}")
        if self.phase == "over" and self.result is None:
            broken.append("game over without a result")
        return broken

    # --- transitions --------------------------------------------------------------

    def _apply_roll(
        self, outcome: CommonHandAction | CommonHandOutcome, events: list[Event]
    ) -> CommonHandState:
        me = self.turn
        count = DICE if self.phase == "roll" else self.rerolling
        if (
            not isinstance(outcome, Dice)
            or not isinstance(outcome.dice, tuple)
            or not all(is_whole(d) for d in outcome.dice)
            or outcome not in roll_table(Dice, count, FACES)[1]
        ):
            raise IllegalAction(
                f"chance must roll {count} dice, sorted (e.g. dice " + "9" * count + ")"
            )
        if self.phase == "reroll":
            hand = tuple(sorted(self.kept + outcome.dice))
            events.append(YourDice(player=me, dice=hand))
            hands = self.hands[:me] + (hand,) + self.hands[me + 1 :]
            return msgspec.structs.replace(self, hands=hands, phase="raise", kept=())
        events.append(Rolled(player=me, count=DICE))
        events.append(YourDice(player=me, dice=outcome.dice))
        hands = self.hands[:me] + (outcome.dice,) + self.hands[me + 1 :]
        if me + 1 < self.players:
            return msgspec.structs.replace(self, hands=hands, turn=me + 1)
        return msgspec.structs.replace(self, hands=hands, phase="claim", turn=self.starter)

    def _apply_action(self, action: CommonHandAction, events: list[Event]) -> CommonHandState:
        me = self.turn
        other = 1 - me
        if isinstance(action, Claim):
            rerolled = self.rerolling if self.phase == "raise" else 0
            events.append(Claimed(player=me, claim=action))
            return msgspec.structs.replace(
                self,
                phase="claim",
                claim_index=self.rules.table.index[action],
                claimer=me,
                calls=(*self.calls, Call(me, action, rerolled)),
                turn=other,
                rerolling=0,
            )
        if isinstance(action, Reroll):
            events.append(Rolled(player=me, count=len(action.dice)))
            kept = list(self.hands[me])
            for d in action.dice:
                kept.remove(d)
            return msgspec.structs.replace(
                self, phase="reroll", kept=tuple(kept), rerolling=len(action.dice)
            )
        claim = self.claim
        assert claim is not None  # liar is only legal after a claim
        claimer = self.claimer
        held = self.rules.table.makes(self.hands[claimer], claim)
        events.append(Challenged(player=me, claimer=claimer, claim=claim))
        events.append(Revealed(hands=self.hands, claimer=claimer, claim=claim, held=held))
        loser = me if held else claimer
        return self._end_round(me, held, loser, events)

    def _end_round(
        self, challenger: int, held: bool, loser: int, events: list[Event]
    ) -> CommonHandState:
        lives = list(self.lives)
        lives[loser] -= 1
        reason = LOST_CHALLENGE if held else CAUGHT_BLUFFING
        events.append(LifeLost(player=loser, lives=lives[loser], reason=reason))
        summary = RoundSummary(
            round=self.round,
            calls=self.calls,
            challenger=challenger,
            claimer=self.claimer,
            hands=self.hands,
            held=held,
            loser=loser,
        )
        state = msgspec.structs.replace(
            self,
            lives=tuple(lives),
            hands=((),) * self.players,
            claim_index=-1,
            claimer=-1,
            calls=(),
            last_round=summary,
        )
        if lives[loser] == 0:
            winner = 1 - loser
            result = GameOver(winners=(winner,), losers=(loser,), standings=(winner, loser))
            events.append(result)
            return msgspec.structs.replace(state, phase="over", turn=-1, result=result)
        return state._start_round(loser, self.round + 1, events)

    def _start_round(self, starter: int, number: int, events: list[Event]) -> CommonHandState:
        state = self
        if number == 1:
            state = msgspec.structs.replace(self, lives=(self.rules.lives,) * self.players)
        events.append(RoundStarted(round=number, starter=starter))
        return msgspec.structs.replace(state, phase="roll", turn=0, starter=starter, round=number)

    def _why_illegal(self, action: object) -> str:
        """A sentence saying why `action` is refused here and what would be accepted."""
        table = self.rules.table
        raising = self.phase == "raise"
        claim = self.claim
        if isinstance(action, Claim) and (not well_formed(action) or action not in table.index):
            if action.kind == "straight" and not self.rules.straights:
                return "straights do not count in these rules"
            return (
                f"{action.kind!r} {action.high!r} {action.low!r} is not a hand that can be "
                "claimed: e.g. pair A, two-pair K T, three Q, straight A, full-house K T, "
                "four J, five 9"
            )
        if isinstance(action, Claim | Reroll) and claim is not None and claim == table.claims[-1]:
            return f"nothing beats {claim.describe()}: call liar"
        if isinstance(action, Claim) and claim is not None:
            return f"the last claim was {claim.describe()}: name a higher hand"
        if isinstance(action, Challenge):
            if claim is None:
                return "nothing has been claimed yet: name a hand, e.g. pair A"
            if raising:
                return "you rerolled: now name a hand higher than " + claim.describe()
        if isinstance(action, Reroll):
            if not self.rules.reroll:
                return "rerolling is off in these rules"
            if claim is None:
                return "the opener names a hand; rerolling is an answer to a claim"
            if raising:
                return "you may reroll once a turn: now name a higher hand"
            if not well_formed(action):
                return "a reroll names faces of your own dice, e.g. reroll 9 9 T"
            if not action.dice:
                return "name at least one of your dice to reroll"
            in_order = Reroll(tuple(sorted(action.dice)))
            if table.is_legal(self.hands[self.turn], self.claim_index, raising, in_order):
                return f"name the dice to reroll lowest first: {in_order}"
            mine = " ".join(face_name(d) for d in self.hands[self.turn])
            return f"you can only reroll dice you hold ({mine}), each at most once"
        if isinstance(action, Action):
            return f"{action} is not allowed now"
        return f"{action!r} is not a common-hand action: name a hand, call liar, or reroll"

    # --- physical dice (fair dice sources) -------------------------------------------

    def physical_roll(self) -> tuple[int, int]:
        """(dice, faces) behind this chance node: the seat draw is one die with a face per
        player, a roll is five dice, a reroll the dice put back in the cup."""
        if self.phase == "seat":
            return 1, self.players
        if self.phase == "roll":
            return DICE, FACES
        if self.phase == "reroll":
            return self.rerolling, FACES
        raise IllegalAction(f"no dice are rolled in phase {self.phase}")

    def outcome_of_roll(self, dice: Sequence[int]) -> CommonHandOutcome:
        """Rolled dice are one sorted hand, whatever order they fell in; die k of n seats
        picks seat k - 1."""
        count, faces = self.physical_roll()
        return cup_outcome(dice, count, faces, self.phase == "seat", Dice, FirstPlayer)


def _whole(n: object) -> bool:
    return type(n) is int or (isinstance(n, Integral) and not isinstance(n, bool))


def well_formed(action: Action) -> bool:
    """Whether the faces in `action` are integers (numpy's too) in a tuple. Floats or
    bools that merely equal a face would be written `pair 6.0` in the record, which
    never replays; a list cannot even be looked up."""
    if isinstance(action, Claim):
        return isinstance(action.kind, str) and _whole(action.high) and _whole(action.low)
    if isinstance(action, Reroll):
        return isinstance(action.dice, tuple) and all(_whole(d) for d in action.dice)
    return True


def best_hand_text(hand: tuple[int, ...], rules: CommonHandRules) -> str:
    return describe_key(rules.table.best(hand))


def new_game(rules: CommonHandRules | str | None = None, players: int = PLAYERS) -> CommonHandState:
    """A game at its first chance node; common hand is a game for exactly two players."""
    from bluffdice.games.registry import parse_rules

    chosen: CommonHandRules = (
        parse_rules(rules, game="common-hand")
        if isinstance(rules, str)
        else rules or CommonHandRules()
    )
    if players != PLAYERS:
        raise RuleError(f"common hand is a game for two players, not {players}")
    state = CommonHandState(rules=chosen, players=PLAYERS)
    if chosen.start == "first-seat":
        return state._start_round(0, 1, [])
    return state
