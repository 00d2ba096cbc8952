"""Many Mia games at once between table policies, with numpy.

Every game of a batch answers one call per step (challenge, roll, pass, give up, beat).
A holder's decision on fresh dice (announce, or cheers) never takes a step of its own:
a player who believes rolls and announces in the step of the answer, and a round opens
with the opener's roll and announcement in the step that settled the round before.
Rounds that end in a step are settled together on the subset of games they ended in,
which is where the rule options (penalties, lives, eliminations, who starts next, when
the game ends) are applied, exactly as `games/mia/state.py` does.

A decision is one look-up: every table row is turned into an alias table once (Walker's
method), so sampling an action is one uniform number and two gathers (threshold and
alias), whatever the number of actions. docs/research.md says what makes a step cheap.

Random numbers: one 32-bit word per answer, and one per roll and the announcement on
it, cut into the roll and that announcement's draw (described above `_SCALE`). Unused
words are not kept for later: a fresh word costs less than gathering a kept one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bluffdice.games.mia.rules import MiaRules
from bluffdice.sim.alias import random_words, stacked_alias_tables
from bluffdice.sim.mia_tables import (
    BEAT,
    CHALLENGE,
    CHEERS,
    FLOORS,
    GIVE_UP,
    ROLES,
    ROLL,
    VALUES_N,
    WIDTH,
    MiaTable,
    layout_of,
)

IntArray = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint32]

_HOLD = ROLES * FLOORS * VALUES_N
_ANSWER = ROLES * FLOORS * VALUES_N * 2
_PER_SEAT = _HOLD + _ANSWER
_COLUMNS = WIDTH + 1
_POOL = 1 << 17
"""Games played side by side at most (larger batches go through in turn)."""

HOLD, ANSWER, OVER = 0, 1, 2
_PENDING = 32
_OVER = 64
"""A game sitting a step out shows one of these as its action (see `run`)."""
# A roll's word is cut into two fields: its low 8 bits a roll (`_roll_field`), its high 24
# bits the draw of the announcement on it (`_hold_field`). Disjoint bits of a uniform word
# are independent draws. The announcement's field has 24 bits, as many as a float32 holds
# exactly, so its uniform number in [0, WIDTH) is one float32 rounding away from the
# field: every action's chance is the float32 alias table's within 2**-24 per column edge
# (an answer's 32-bit word gives 2**-32; the float32 grid of the draw and of the
# thresholds is coarser than either). A roll's field gives one of the 36 rolls exactly
# (`ROLL_OF_FIELD`).
_SCALE = np.float32(WIDTH * 2.0**-32)
"""A 32-bit field times this is uniform in [0, WIDTH] (WIDTH itself only by rounding)."""
_HOLD_SCALE = np.float32(WIDTH * 2.0**-24)
"""The same for a 24-bit field."""
_ROLLS = 36
_FIELD = np.arange(256)
ROLL_OF_FIELD = np.where((_FIELD * _ROLLS) % 256 >= 256 % _ROLLS, (_FIELD * _ROLLS) >> 8, -1)
"""The roll (an index into the 36 ordered rolls) an 8-bit field gives, or -1: field f
gives (36 f) >> 8 unless (36 f) mod 256 is below 256 mod 36 = 4 (4 of the 256 fields, one
in 64), when the roll is drawn again from a fresh word. Each roll keeps exactly 7
fields, so every roll is equally likely (Lemire's multiply-shift with rejection, without
the modulo's or the plain multiply's bias)."""

# Row numbers: hold rows at seat * _PER_SEAT + (role * FLOORS + floor) * VALUES_N + dice,
# answer rows after them (see mia_tables for the situations).
_FV = FLOORS * VALUES_N
_HOLD_AT = VALUES_N
"""Where a hold row over a standing value starts: floor = the value's code + 1."""
_ANSWER_AT = _HOLD + 2 * VALUES_N
"""Where the answer rows start: prev = the previous call's code + 1."""

Progress = Callable[[int], None]
"""Called with the number of games that finished since the last call."""

DiceSource = Callable[[int], npt.NDArray[np.int32]]
"""Rolls for `size` games at once, as value codes (for replaying fixed dice)."""


@dataclass
class MiaBatch:
    """How a batch of games ended, one row per game (seats in columns)."""

    winners: npt.NDArray[np.bool_]
    lives: npt.NDArray[np.int16]
    score: npt.NDArray[np.int16]
    drinks: npt.NDArray[np.int16]
    rounds: npt.NDArray[np.int32]
    first: npt.NDArray[np.int8]
    """The seat chance picked to open the game."""
    steps: int
    """Decisions made, all games together."""
    draws: int = 0
    """32-bit words drawn (two from each output of the bit generator), all games."""

    @property
    def games(self) -> int:
        return int(self.rounds.shape[0])


class MiaSim:
    """Plays a rule set between table policies, one per seat."""

    def __init__(self, rules: MiaRules, seats: Sequence[MiaTable]) -> None:
        if len(seats) < 2:
            raise ValueError("Mia needs at least two seats")
        for t in seats:
            if t.rules != rules:
                raise ValueError(f"table {t.name!r} was made for other rules")
        self.rules = rules
        self.players = len(seats)
        self.layout = layout_of(rules)
        prob, alias = stacked_alias_tables(
            [
                np.concatenate([t.hold.reshape(-1, WIDTH), t.answer.reshape(-1, WIDTH)])
                for t in seats
            ]
        )
        # Column j's threshold is stored as j + threshold, so the draw x in [0, WIDTH)
        # is compared as it is, without taking its fraction. One extra column catches the
        # rare x that rounds up to WIDTH itself in float32: it always answers the alias
        # of the last column (or the last column, when that one keeps itself).
        count = prob.shape[0]
        cut = np.empty((count, _COLUMNS), dtype=np.float32)
        cut[:, :WIDTH] = prob + np.arange(WIDTH, dtype=np.float32)
        cut[:, WIDTH] = -1.0
        other = np.empty((count, _COLUMNS), dtype=np.int16)
        other[:, :WIDTH] = alias
        other[:, WIDTH] = np.where(prob[:, -1] >= 1.0, WIDTH - 1, alias[:, -1])
        self.cut = cut.ravel()
        self.other = other.ravel()
        self.rank = self.layout.rank.astype(np.int16)
        sides = self.layout.sides.astype(np.int16)
        self.dice_of_field = np.where(ROLL_OF_FIELD >= 0, sides[ROLL_OF_FIELD], -1).astype(np.int16)
        """The value code an 8-bit roll field gives, or -1 (rejected)."""
        # Row numbers fit in 16 bits for every table size the engine allows (10 seats).
        self.index_type = np.int16 if self.players * _PER_SEAT < 2**15 else np.int32

    # --- one batch -----------------------------------------------------------------

    def run(
        self,
        games: int,
        seed: int | np.random.Generator,
        first: int | None = None,
        progress: Progress | None = None,
        max_steps: int = 1_000_000,
        dice_source: DiceSource | None = None,
        trace: list[tuple[int, int, bool]] | None = None,
        pool: int = _POOL,
    ) -> MiaBatch:
        """Play `games` games; `first` fixes the opening seat (else chance picks it).

        For the cross-checks: `dice_source(size)` replaces the random rolls (value codes,
        in the order the rolls happen), and `trace` collects (player, action code,
        answering) of every decision of game 0. At most `pool` games are played side by
        side; the default is large enough for numpy's per-call cost not to matter.

        Every live game's state is a handful of 16-bit arrays; a step works on all of
        them at once with whole-array operations (no per-kind subsets, which cost a gather
        and a scatter each), and only the rounds that ended (one game in two to four) are
        settled on a subset."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        if first is None:
            first_seat = rng.integers(0, self.players, size=games, dtype=np.int8)
        else:
            first_seat = np.full(games, first, dtype=np.int8)
        play = _Play(self, rng, first_seat, min(games, pool), progress, dice_source, trace)
        play.run(max_steps)
        return self._batch(
            play.out_lost,
            play.out_drinks,
            play.out_out,
            play.out_rounds,
            first_seat,
            play.steps,
            play.draws,
        )

    # --- pieces ----------------------------------------------------------------------

    def _round_ends(
        self,
        rng: np.random.Generator,
        roll: Any,
        e: Any,
        act: Any,
        me: Any,
        who: Any,
        d: Any,
        a: Any,
        next_of: Any,
    ) -> tuple[Any, Any, Any, Any]:
        """How the rounds that ended in games `e` end: (loser, or -2 for all but the
        announcer, or -1 for none; the loss involves Mia; Mia was found; who starts
        next), from the action `act` of the player `me` to move, the announcer `who`, the
        dice `d` under the cup and the value `a` standing."""
        mia = self.layout.mia
        by_loser = self.rules.mia_starter == "loser"
        after_me = next_of(e, me)
        loser, mia_loss, found, start = self._challenged(e, me, who, d, a, after_me, next_of)
        d_mia = d == mia
        if (act == CHALLENGE).all():
            return loser, mia_loss, found, start
        # an instant Mia shown: true, everyone else pays (heads-up: the other seat);
        # false, the one who showed it
        shown = act < VALUES_N
        if shown.any():
            everyone = after_me if self.players == 2 else np.full_like(me, -2)
            loser = _pick(shown, _pick(d_mia, everyone, me), loser)
            bluff_start = me if by_loser else after_me
            start = _pick(shown, _pick(d_mia, after_me, bluff_start), start)
            mia_loss |= shown
            found &= ~shown
        # giving up on a Mia, or trying to beat it
        gave = (act == GIVE_UP) | (act == BEAT)
        if gave.any():
            payer = me.copy()
            beat = np.flatnonzero(act == BEAT)
            if beat.size:
                hit = np.asarray(roll(rng, beat.size)) == mia
                payer[beat] = _pick(hit, who[beat], me[beat])
            loser = _pick(gave, payer, loser)
            start = _pick(gave, payer if by_loser else next_of(e, payer), start)
            mia_loss |= gave
            found &= ~gave
        cheers = act == CHEERS  # no loser; the one who showed it starts again
        if cheers.any():
            loser = _pick(cheers, np.full_like(me, -1), loser)
            start = _pick(cheers, me, start)
            mia_loss &= ~cheers
            found &= ~cheers
        return loser, mia_loss, found, start

    def _challenged(
        self, e: Any, me: Any, who: Any, d: Any, a: Any, after_me: Any, next_of: Any
    ) -> tuple[Any, Any, Any, Any]:
        """`_round_ends` as if every round in `e` ended with a challenge by `me`: after
        Mia, a real one costs the looker, else the announcer; before it, a true claim
        costs the challenger."""
        mia = self.layout.mia
        rank = self.rank
        at_mia = a == mia
        truthful = rank.take(d) >= rank.take(a)
        d_mia = d == mia
        lose_me = at_mia & d_mia | ~at_mia & truthful
        loser = _pick(lose_me, me, who)
        mia_start = loser if self.rules.mia_starter == "loser" else next_of(e, loser)
        start = _pick(at_mia, mia_start, _pick(truthful, after_me, me))
        mia_loss = at_mia | (truthful & d_mia)
        found = at_mia & d_mia
        return loser, mia_loss, found, start

    def _dice_of(self, words: Words, fresh: Callable[[int], Words]) -> npt.NDArray[np.int16]:
        """The value code of one of the 36 equally likely rolls per word in `words`, from
        its roll field; rejected fields are drawn again from `fresh(size)` words
        until none is. A word's announcement field stays in use either way: the
        rejection looks at the roll's bits only, so it leaves that field uniform."""
        table = self.dice_of_field
        dice: npt.NDArray[np.int16] = table.take(_roll_field(words))
        bad = np.flatnonzero(dice < 0)
        while bad.size:
            again = table.take(_roll_field(fresh(int(bad.size))))
            dice[bad] = again
            bad = bad[again < 0]
        return dice

    def _draw(self, rows: Any, fields: npt.NDArray[np.uint32]) -> npt.NDArray[np.int16]:
        """One decision per table row in `rows`, from one 24-bit field each (the main step
        does the same inline with 32-bit fields, into buffers it keeps)."""
        u = np.multiply(fields, _HOLD_SCALE, dtype=np.float32)
        j = u.astype(np.int16)
        flat = np.multiply(rows, _COLUMNS, dtype=np.intp)
        flat += j
        act: npt.NDArray[np.int16] = self.other.take(flat)
        act += (j - act) * (u < self.cut.take(flat))
        return act

    def _settle(
        self,
        e: Any,
        loser: Any,
        mia_loss: Any,
        found: Any,
        announcer: Any,
        seat0: Any,
        lost: Any,
        drinks: Any,
        out: Any,
        alive: Any,
        nxt: Any,
    ) -> npt.NDArray[np.bool_]:
        """Apply the penalties of the rounds that ended in games `e` (state.py's `_penalty`
        and `_end_round`); returns which of them ended the game (lives mode)."""
        rules, P = self.rules, self.players
        # one cell per penalty: single losers, and all but the announcer on a true Mia;
        # game g's seats are at g * P + seat
        single = loser >= 0
        if single.all():
            rows = np.arange(e.size)
            cells = e * P + loser
        else:
            rows = np.flatnonzero(single)
            cells = e[rows] * P + loser[rows]
        everyone = np.flatnonzero(loser == -2)
        if everyone.size:
            seats = np.arange(P)
            grid = (e[everyone] * P)[:, None] + seats
            take = ~out[grid] & (seats != announcer[everyone][:, None])
            rows = np.concatenate([rows, np.repeat(everyone, P)[take.ravel()]])
            cells = np.concatenate([cells, grid[take]])
        if rules.mode == "score":
            lost[cells] = lost[cells] + 1  # (cells are distinct; `+=` is slower)
            return np.zeros(e.size, dtype=bool)
        involves = mia_loss[rows]
        if rules.mode == "drinking":
            sips, stiff = cells[~involves], cells[involves]
            drinks[stiff] = drinks[stiff] + 1
            lost[sips] = lost[sips] + 1
            return np.zeros(e.size, dtype=bool)
        amount = found[rows] | (involves & rules.mia_doubled)
        left = np.minimum(rules.lives, lost[cells] + 1 + amount)
        lost[cells] = left
        dead = (left >= rules.lives) & ~out[cells]
        done = np.zeros(e.size, dtype=bool)
        if dead.any():
            out[cells[dead]] = True
            knocked = np.bincount(rows[dead], minlength=e.size)  # games in `e` are distinct
            hit_rows = np.flatnonzero(knocked)
            games = e[hit_rows]
            alive[games] -= knocked[hit_rows].astype(alive.dtype)
            if P > 2:  # heads-up, a game with a seat out is over
                grid = (games * P)[:, None] + np.arange(P)
                nxt[grid] = _next_alive(out[grid])
            if rules.end == "first_out":
                done[hit_rows] = True
            done[hit_rows] |= alive[games] <= 1
        return done

    def _batch(
        self,
        lost: npt.NDArray[np.int16],
        drinks: npt.NDArray[np.int16],
        out: npt.NDArray[np.bool_],
        rounds: npt.NDArray[np.int32],
        first_seat: npt.NDArray[np.int8],
        steps: int,
        draws: int,
    ) -> MiaBatch:
        rules = self.rules
        games, P = lost.shape
        if rules.mode == "lives":
            lives = np.maximum(rules.lives - lost, 0).astype(np.int16)
            score = lives
            winners = ~out
        else:
            lives = np.full((games, P), rules.lives, dtype=np.int16)
            if rules.mode == "score":  # everyone joins every round
                score = (rounds[:, None] - lost).astype(np.int16)
                winners = score == score.max(axis=1, keepdims=True)
            else:  # drinking: fewest stiff drinks, then fewest sips
                score = lost
                key = drinks.astype(np.int64) * 100_000 + lost
                winners = key == key.min(axis=1, keepdims=True)
        return MiaBatch(
            winners=winners,
            lives=lives,
            score=score,
            drinks=drinks,
            rounds=rounds,
            first=first_seat,
            steps=steps,
            draws=draws,
        )


@dataclass(slots=True)
class _Games:
    """The live games side by side: one entry per game (the round's state is set when it
    opens), and one per game and seat, game g's seats at g * P + seat. Plain arrays, so a
    step works on all games at once with whole-array operations."""

    gid: Any
    over: Any
    frozen: Any
    """_OVER, or _PENDING + the action that ended the round (see `_Play.freeze`)."""
    turn: Any
    opener: Any
    roller: Any
    dice: Any
    ann: Any
    prev: Any
    announcer: Any
    called: Any
    rnd: Any
    alive: Any
    seat0: Any
    lost: Any
    drinks: Any
    out: Any
    nxt: Any
    u: Any
    """The buffer for a step's draws."""

    @classmethod
    def fresh(cls, n: int, players: int) -> _Games:
        i16 = np.int16
        clockwise = ((np.arange(players) + 1) % players).astype(i16)
        return cls(
            gid=np.arange(n, dtype=np.int32),
            over=np.zeros(n, dtype=bool),
            frozen=np.zeros(n, dtype=i16),
            turn=np.zeros(n, dtype=i16),
            opener=np.zeros(n, dtype=i16),
            roller=np.zeros(n, dtype=i16),
            dice=np.zeros(n, dtype=i16),
            ann=np.zeros(n, dtype=i16),
            prev=np.zeros(n, dtype=i16),
            announcer=np.zeros(n, dtype=i16),
            called=np.zeros(n, dtype=i16),
            rnd=np.ones(n, dtype=np.int32),
            alive=np.full(n, players, dtype=i16),
            seat0=np.arange(n, dtype=np.intp) * players,
            lost=np.zeros(n * players, dtype=np.int32),
            drinks=np.zeros(n * players, dtype=np.int32),
            out=np.zeros(n * players, dtype=bool),
            nxt=np.tile(clockwise, n),
            u=np.empty(n, dtype=np.float32),
        )

    def kept(self, keep: Any, players: int) -> _Games:
        """Only the games `keep`, packed (none of them over)."""
        cells = (self.seat0[keep][:, None] + np.arange(players)).ravel()
        n = int(keep.size)
        return _Games(
            gid=self.gid[keep],
            over=np.zeros(n, dtype=bool),
            frozen=self.frozen[keep],
            turn=self.turn[keep],
            opener=self.opener[keep],
            roller=self.roller[keep],
            dice=self.dice[keep],
            ann=self.ann[keep],
            prev=self.prev[keep],
            announcer=self.announcer[keep],
            called=self.called[keep],
            rnd=self.rnd[keep],
            alive=self.alive[keep],
            seat0=np.arange(n, dtype=np.intp) * players,
            lost=self.lost[cells],
            drinks=self.drinks[cells],
            out=self.out[cells],
            nxt=self.nxt[cells],
            u=np.empty(n, dtype=np.float32),
        )


class _Play:
    """One `MiaSim.run`: a pool of live games where a finished game's slot takes the next
    game at once, so every step works on a full pool until the last games run out."""

    def __init__(
        self,
        sim: MiaSim,
        rng: np.random.Generator,
        first_seat: npt.NDArray[np.int8],
        n: int,
        progress: Progress | None,
        dice_source: DiceSource | None,
        trace: list[tuple[int, int, bool]] | None,
    ) -> None:
        rules, P = sim.rules, sim.players
        self.sim, self.rules, self.P, self.rng = sim, rules, P, rng
        self.first_seat = first_seat
        self.games = games = int(first_seat.size)
        self.progress, self.dice_source, self.trace = progress, dice_source, trace
        self.out_lost = np.zeros((games, P), dtype=np.int16)
        self.out_drinks = np.zeros((games, P), dtype=np.int16)
        self.out_out = np.zeros((games, P), dtype=bool)
        self.out_rounds = np.zeros(games, dtype=np.int32)
        self.g = _Games.fresh(n, P)
        self.n = self.started = n
        self.clockwise = ((np.arange(P) + 1) % P).astype(np.int16)
        self.lives_mode = rules.mode == "lives"
        self.drinking = rules.mode == "drinking"
        self.mia = sim.layout.mia
        self.instant = rules.mia_end == "instant"
        self.simple = P == 2 and not rules.pass_allowed
        self.ix = sim.index_type
        self.roll: Any = (
            (lambda _rng, size: sim._dice_of(self.draw(size), self.draw))
            if dice_source is None
            else (lambda _rng, size: dice_source(size))
        )
        self.steps = self.over_count = self.pending = self.draws = 0

    def draw(self, size: int) -> Words:
        """`size` fresh 32-bit words, counted."""
        self.draws += size
        return random_words(self.rng, size)

    def run(self, max_steps: int) -> None:
        """Every round opens with the opener's roll and announcement, so a step only ever
        answers a call; only the rounds that ended (one game in two to four) are settled
        on a subset."""
        n = self.n
        self.pending = self.freeze(
            *self.open_rounds(np.arange(n), self.first_seat[:n].astype(np.int16), self.draw(n))
        )
        self.steps += n
        step_count = 0
        while self.n:
            step_count += 1
            if step_count > max_steps:
                raise RuntimeError(f"games still running after {max_steps} steps")
            self.steps += self.n - self.over_count - self.pending
            act = self.answer()
            self.believe(act)
            e, act_e = self.announce(act)
            if e.size:
                self.end_rounds(e, act_e)
            if self.over_count * 4 > self.n:  # the last games: compact once a quarter ended
                self.g = self.g.kept(np.flatnonzero(~self.g.over), self.P)
                self.n = int(self.g.gid.size)
                self.over_count = 0

    def next_of(self, rows: Any, seat: Any) -> Any:
        if self.P == 2:  # heads-up: no seat is ever skipped while the game goes on
            return 1 - seat
        return self.g.nxt[self.g.seat0[rows] + seat]

    def roll_and_announce(self, g: Any, me: Any, role: Any, standing: Any, words: Words) -> Any:
        """The holders `me` (in `role`: 1 if not the opener) of games `g` roll and
        decide on their new dice, over the value `standing` (None: no value, the
        opening): the roll and announcement fields of `words` (one word per game)."""
        sim, ix = self.sim, self.ix
        if self.dice_source is None:
            new = sim._dice_of(words, self.draw)
        else:
            new = np.asarray(self.dice_source(g.size), dtype=np.int16)
        self.g.dice[g] = new
        held = me * ix(_PER_SEAT)
        if standing is None:  # the opener: role 0, floor 0
            held += new
        else:
            held += np.multiply(role, _FV, dtype=ix)
            held += standing * ix(VALUES_N)
            held += new + ix(_HOLD_AT)
        return sim._draw(held, _hold_field(words))

    def open_rounds(self, g: Any, starts: Any, words: Words) -> tuple[Any, Any]:
        """New rounds in games `g`, opened by the seats `starts`: the opener rolls and
        announces at once, from the roll and announcement fields of `words`. Returns the
        games whose opening ended the round at once (cheers, or an instant Mia shown),
        with that action."""
        s = self.g
        s.opener[g] = starts
        if not self.simple:
            s.roller[g] = starts
        a = self.roll_and_announce(g, starts, 0, None, words)
        if self.trace is not None and s.gid[0] == 0 and g[0] == 0:
            self.trace.append((int(starts[0]), int(a[0]), False))
        said = a < VALUES_N
        if self.instant:
            said &= a != self.mia
        s.ann[g] = _pick(said, a, -1)
        s.prev[g] = -1
        if self.P > 2:
            s.announcer[g] = _pick(said, starts, -1)
        s.called[g] = np.left_shift(said, starts, dtype=np.int16)
        s.turn[g] = _pick(said, self.next_of(g, starts), starts)
        ended = np.flatnonzero(~said)
        return g[ended], a[ended]

    def freeze(self, g: Any, a: Any) -> int:
        """Rounds that ended as they opened wait for the next step to be settled (so
        a step settles rounds once): their games sit it out, showing action `a`."""
        self.g.frozen[g] = a + _PENDING
        return int(g.size)

    def answer(self) -> Any:
        """Every live game answers the call standing: one draw per decision against its
        answer row's alias table. Finished and pending games sit the step out."""
        s, ix, sim = self.g, self.ix, self.sim
        # heads-up without the pass, the dice under the cup are the other seat's
        rolled_by = (s.turn == s.opener) if self.simple else (s.roller != s.opener)
        row = np.multiply(rolled_by, 2 * _FV, dtype=ix)
        row += s.prev * ix(2 * VALUES_N)
        row += s.ann * ix(2)
        row += (s.called >> s.turn) & 1
        row += s.turn * ix(_PER_SEAT)
        u = s.u
        np.multiply(self.draw(self.n), _SCALE, out=u, dtype=np.float32)
        flat = np.multiply(row, _COLUMNS, dtype=np.intp)
        j = u.astype(np.int16)
        flat += j + _ANSWER_AT * _COLUMNS
        act = sim.other.take(flat)
        act += (j - act) * (u < sim.cut.take(flat))
        if self.over_count or self.pending:
            np.maximum(act, s.frozen, out=act)
        if self.trace is not None and s.gid[0] == 0 and not s.frozen[0]:
            self.trace.append((int(s.turn[0]), int(act[0]), True))
        return act

    def believe(self, act: Any) -> None:
        """Those who believe roll and announce on their new dice, in this step (into
        `act`)."""
        s, ix, sim, n = self.g, self.ix, self.sim, self.n
        rolled = act == ROLL
        k = int(np.count_nonzero(rolled))
        if self.dice_source is None and 3 * k > n:
            # many roll (no pass): for every game at once, kept where it rolled
            words = self.draw(n)
            new = sim._dice_of(words, self.draw)
            held = s.turn * ix(_PER_SEAT)
            held += np.multiply(s.turn != s.opener, _FV, dtype=ix)
            held += s.ann * ix(VALUES_N)
            held += new + ix(_HOLD_AT)
            s.dice += (new - s.dice) * rolled
            act += (sim._draw(held, _hold_field(words)) - act) * rolled
            if not self.simple:
                s.roller += (s.turn - s.roller) * rolled
            self.steps += k
        elif k:  # few roll, or the dice come in the order they are rolled: a subset
            r = np.flatnonzero(rolled)
            me = s.turn[r]
            act[r] = self.roll_and_announce(r, me, me != s.opener[r], s.ann[r], self.draw(k))
            self.steps += k
            if not self.simple:
                s.roller[r] = me
        if self.trace is not None and rolled[0] and s.gid[0] == 0:
            self.trace.append((int(s.turn[0]), int(act[0]), False))

    def announce(self, act: Any) -> tuple[Any, Any]:
        """Announcements and passes go on to the next seat; every other action ends the
        round (and the pending ones end now). Returns the games whose round ended, with
        the action that ended it."""
        s = self.g
        said = act < VALUES_N
        if self.instant:  # a Mia shown at once ends the round (settled below)
            said &= act != self.mia
        s.prev += (s.ann - s.prev) * said
        s.ann += (act - s.ann) * said
        if self.P > 2:  # heads-up, the announcer is the other seat
            s.announcer += (s.turn - s.announcer) * said
        s.called |= np.left_shift(said, s.turn, dtype=np.int16)
        if self.P == 2:
            s.turn ^= said
        else:
            s.turn += (s.nxt[s.seat0 + s.turn] - s.turn) * said
        done_now = ~said
        if self.over_count:
            done_now &= act < _OVER
        e = np.flatnonzero(done_now)
        act_e = act[e]
        if self.pending:
            act_e -= _PENDING * (act_e >= _PENDING)
            s.frozen[e] = 0
            self.pending = 0
        return e, act_e

    def end_rounds(self, e: Any, act_e: Any) -> None:
        """Settle the rounds that ended in games `e`; open the next round where the game
        goes on, and record the games that ended."""
        s, P, sim = self.g, self.P, self.sim
        me = s.turn[e]
        caller = 1 - me if P == 2 else s.announcer[e]
        who = _pick(act_e < VALUES_N, me, caller)  # an instant Mia's caller
        loser, mia_loss, found, new_starter = sim._round_ends(
            self.rng, self.roll, e, act_e, me, who, s.dice[e], s.ann[e], self.next_of
        )
        done = sim._settle(
            e, loser, mia_loss, found, who, s.seat0, s.lost, s.drinks, s.out, s.alive, s.nxt
        )
        if not self.lives_mode:
            done = s.rnd[e] >= self.rules.rounds
        go_on = e[~done]
        starts = new_starter[~done]
        if P > 2 and go_on.size:
            starts = _pick(s.out[s.seat0[go_on] + starts], self.next_of(go_on, starts), starts)
        finished = e[done]
        if finished.size:
            go_on, starts = self.finish(finished, go_on, starts)
        if go_on.size:  # a new round
            s.rnd[go_on] += 1
            words = self.draw(int(go_on.size))
            self.pending = self.freeze(*self.open_rounds(go_on, starts, words))
            self.steps += int(go_on.size)

    def finish(self, finished: Any, go_on: Any, starts: Any) -> tuple[Any, Any]:
        """Record the games that ended; the next games take their slots (returned with the
        rounds to open, `go_on` and their `starts`), and once none are left the slots
        sit out every step until the pool is compacted."""
        s, P = self.g, self.P
        ids = s.gid[finished]
        cells = (s.seat0[finished][:, None] + np.arange(P)).ravel()
        # (only lives mode knocks players out and changes `alive` and `nxt`; only
        # drinking mode pours stiff drinks)
        self.out_lost[ids] = s.lost[cells].reshape(-1, P)
        if self.drinking:
            self.out_drinks[ids] = s.drinks[cells].reshape(-1, P)
        if self.lives_mode:
            self.out_out[ids] = s.out[cells].reshape(-1, P)
        self.out_rounds[ids] = s.rnd[finished]
        if self.progress is not None:
            self.progress(int(finished.size))
        k = min(int(finished.size), self.games - self.started)
        if k:
            fresh = finished[:k]
            new = np.arange(self.started, self.started + k, dtype=np.int32)
            self.started += k
            s.gid[fresh] = new
            s.rnd[fresh] = 0  # counted up to round 1 with the others
            cells = cells[: k * P]
            s.lost[cells] = 0
            if self.drinking:
                s.drinks[cells] = 0
            if self.lives_mode:
                s.alive[fresh] = P
                s.out[cells] = False
                if P > 2:
                    s.nxt[cells] = np.tile(self.clockwise, k)
            go_on = np.concatenate([go_on, fresh])
            starts = np.concatenate([starts, self.first_seat[new].astype(np.int16)])
        stopped = finished[k:]
        if stopped.size:
            s.over[stopped] = True
            s.frozen[stopped] = _OVER
            s.ann[stopped] = 0  # keeps their (unused) table row in range
            s.prev[stopped] = 0
            self.over_count += int(stopped.size)
        return go_on, starts


def _roll_field(words: Words) -> npt.NDArray[np.uint8]:
    return words.astype(np.uint8)  # the low 8 bits


def _hold_field(words: Words) -> Words:
    return np.right_shift(words, np.uint32(8))  # the high 24 bits


def _pick(mask: Any, yes: Any, no: Any) -> Any:
    """`np.where(mask, yes, no)` for integer arrays, by arithmetic: np.where branches on
    every item, which costs ten times more on a random mask."""
    return no + (yes - no) * mask


def _next_alive(out: npt.NDArray[np.bool_]) -> npt.NDArray[np.int8]:
    """For each game and seat, the next seat clockwise that is still in."""
    n, P = out.shape
    nxt = np.zeros((n, P), dtype=np.int8)
    for seat in range(P):
        found = np.zeros(n, dtype=bool)
        for step in range(1, P + 1):
            cand = (seat + step) % P
            take = ~found & ~out[:, cand]
            nxt[take, seat] = cand
            found |= take
    return nxt
