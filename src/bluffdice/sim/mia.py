"""Many Mia games at once between table policies, with numpy.

Every game of a batch advances by one decision per step: the player to act holds fresh
dice (announce, or cheers) or answers a call (challenge, roll, pass, give up, beat).
Forced moves are folded in: opening a round and believing are rolls, so the new dice are
drawn in the same step. Rounds that end in a step are settled together on the subset of
games they ended in, which is where the rule options (penalties, lives, eliminations,
who starts next, when the game ends) are applied, exactly as `games/mia/state.py` does.

A decision is one look-up: every table row is turned into an alias table once (Walker's
method), so sampling an action is one uniform number, one multiplication and one gather,
whatever the number of actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bluffdice.games.mia.rules import MiaRules
from bluffdice.sim.alias import alias_tables
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

_HOLD = ROLES * FLOORS * VALUES_N
_ANSWER = ROLES * FLOORS * VALUES_N * 2
_PER_SEAT = _HOLD + _ANSWER

HOLD, ANSWER, OVER = 0, 1, 2

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
        rows = np.concatenate(
            [
                np.concatenate([t.hold.reshape(-1, WIDTH), t.answer.reshape(-1, WIDTH)])
                for t in seats
            ]
        )
        prob, alias = alias_tables(rows)
        self.prob = prob.ravel()
        self.alias = alias.ravel()
        self.rank = self.layout.rank.astype(np.int16)
        self.sides = self.layout.sides

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
    ) -> MiaBatch:
        """Play `games` games; `first` fixes the opening seat (else chance picks it).

        For the cross-checks: `dice_source(size)` replaces the random rolls (value codes,
        in the order the rolls happen), and `trace` collects (player, action code,
        answering) of every decision of game 0."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        rules, P, lay = self.rules, self.players, self.layout
        i32 = np.int32
        n = games
        out_lost = np.zeros((games, P), dtype=np.int16)
        out_drinks = np.zeros((games, P), dtype=np.int16)
        out_out = np.zeros((games, P), dtype=bool)
        out_rounds = np.zeros(games, dtype=np.int32)

        if first is None:
            starter = rng.integers(0, P, size=n, dtype=i32)
        else:
            starter = np.full(n, first, dtype=i32)
        first_seat = starter.astype(np.int8)
        # One entry per game ...
        gid = np.arange(n, dtype=i32)
        phase = np.zeros(n, dtype=i32)
        turn = starter.copy()
        opener = starter.copy()
        roller = starter.copy()
        roll = self._roll if dice_source is None else (lambda _rng, size: dice_source(size))
        dice = roll(rng, n)
        ann = np.full(n, -1, dtype=i32)
        prev = np.full(n, -1, dtype=i32)
        announcer = np.full(n, -1, dtype=i32)
        called = np.zeros(n, dtype=i32)
        rnd = np.ones(n, dtype=i32)
        alive = np.full(n, P, dtype=i32)
        # ... and one per game and seat, game g's seats at g * P + seat.
        seat0 = np.arange(n, dtype=i32) * P
        lost = np.zeros(n * P, dtype=i32)
        drinks = np.zeros(n * P, dtype=i32)
        out = np.zeros(n * P, dtype=bool)
        nxt = np.tile(((np.arange(P) + 1) % P).astype(i32), n)

        lives_mode = rules.mode == "lives"
        seat_base = (np.arange(P) * _PER_SEAT).astype(i32)
        mia = lay.mia
        instant = rules.mia_end == "instant"
        by_loser = rules.mia_starter == "loser"
        rank = self.rank.astype(i32)
        prob, alias = self.prob, self.alias.astype(i32)
        steps = step_count = over_count = 0

        def next_of(rows: Any, seat: Any) -> Any:
            return nxt[seat0[rows] + seat]

        while n:
            step_count += 1
            if step_count > max_steps:
                raise RuntimeError(f"games still running after {max_steps} steps")
            steps += n - over_count
            u = rng.random(n, dtype=np.float32) * WIDTH
            j = np.minimum(u.astype(i32), WIDTH - 1)
            in_hold = phase == HOLD
            hold_sit = ((turn != opener) * FLOORS + ann + 1) * VALUES_N + dice
            answer_sit = (
                _HOLD
                + (((roller != opener) * FLOORS + prev + 1) * VALUES_N + ann) * 2
                + ((called >> turn) & 1)
            )
            flat = (seat_base[turn] + np.where(in_hold, hold_sit, answer_sit)) * WIDTH + j
            act = np.where(u - j < prob[flat], j, alias[flat])
            if over_count:  # finished games wait for the next compaction, doing nothing
                act[phase == OVER] = WIDTH
            if trace is not None and gid[0] == 0 and phase[0] != OVER:
                trace.append((int(turn[0]), int(act[0]), bool(phase[0] == ANSWER)))

            ending: list[tuple[Any, Any, Any, Any, Any]] = []
            """Rounds that ended: (games, loser or -2 for all but the announcer, involves
            Mia, Mia found, who starts next)."""

            # announcements and passes ----------------------------------------------
            v = np.flatnonzero(act < VALUES_N)
            if v.size:
                me = turn[v]
                value = act[v]
                prev[v] = ann[v]
                ann[v] = value
                announcer[v] = me
                roller[v] = np.where(in_hold[v], me, roller[v])
                called[v] |= 1 << me
                go = v
                if instant:
                    is_mia = value == mia
                    if is_mia.any():
                        m = v[is_mia]
                        me_m = me[is_mia]
                        true = dice[m] == mia
                        after = next_of(m, me_m)
                        start = np.where(true, after, me_m if by_loser else after)
                        ones = np.ones(m.size, dtype=bool)
                        ending.append((m, np.where(true, -2, me_m), ones, ~ones, start))
                        go = v[~is_mia]
                phase[go] = ANSWER
                turn[go] = next_of(go, turn[go])

            # answers ---------------------------------------------------------------
            c = np.flatnonzero(act == CHALLENGE)
            if c.size:
                me, who = turn[c], announcer[c]
                d, a = dice[c], ann[c]
                at_mia = a == mia
                truthful = rank[d] >= rank[a]
                d_mia = d == mia
                # after Mia: a real one costs the looker, else the announcer
                lose_me = np.where(at_mia, d_mia, truthful)
                paying = np.where(lose_me, me, who)
                mia_start = paying if by_loser else next_of(c, paying)
                plain_start = np.where(truthful, next_of(c, me), me)
                ending.append(
                    (
                        c,
                        paying,
                        at_mia | (truthful & d_mia),
                        at_mia & d_mia,
                        np.where(at_mia, mia_start, plain_start),
                    )
                )

            r = np.flatnonzero(act == ROLL)
            if r.size:
                phase[r] = HOLD
                dice[r] = roll(rng, r.size)

            rare = np.flatnonzero((act > ROLL) & (act < WIDTH))
            if rare.size:
                ra = act[rare]
                for code in (GIVE_UP, BEAT, CHEERS):
                    g = rare[ra == code]
                    if not g.size:
                        continue
                    me = turn[g]
                    if code == GIVE_UP:
                        who = me
                    elif code == BEAT:
                        hit = roll(rng, g.size) == mia
                        who = np.where(hit, announcer[g], me)
                    else:  # cheers: no loser; the one who showed it starts again
                        none = np.zeros(g.size, dtype=bool)
                        ending.append((g, np.full(g.size, -1, dtype=i32), none, none, me))
                        continue
                    start = who if by_loser else next_of(g, who)
                    yes = np.ones(g.size, dtype=bool)
                    ending.append((g, who, yes, ~yes, start))

            # rounds that ended -----------------------------------------------------
            if not ending:
                continue
            e = np.concatenate([x[0] for x in ending])
            loser = np.concatenate([x[1] for x in ending])
            mia_loss = np.concatenate([x[2] for x in ending])
            found = np.concatenate([x[3] for x in ending])
            new_starter = np.concatenate([x[4] for x in ending])
            done = self._settle(
                e, loser, mia_loss, found, announcer[e], seat0, lost, drinks, out, alive, nxt
            )
            if not lives_mode:
                done = rnd[e] >= rules.rounds
            go_on = e[~done]
            if go_on.size:
                s = new_starter[~done]
                s = np.where(out[seat0[go_on] + s], next_of(go_on, s), s)
                rnd[go_on] += 1
                turn[go_on] = s
                opener[go_on] = s
                roller[go_on] = s
                phase[go_on] = HOLD
                dice[go_on] = roll(rng, go_on.size)
                ann[go_on] = -1
                prev[go_on] = -1
                announcer[go_on] = -1
                called[go_on] = 0
            finished = e[done]
            if finished.size:
                ids = gid[finished]
                cells = (seat0[finished][:, None] + np.arange(P)).ravel()
                out_lost[ids] = lost[cells].reshape(-1, P)
                out_drinks[ids] = drinks[cells].reshape(-1, P)
                out_out[ids] = out[cells].reshape(-1, P)
                out_rounds[ids] = rnd[finished]
                phase[finished] = OVER
                ann[finished] = 0  # keeps their (unused) table index in range
                over_count += int(finished.size)
                if progress is not None:
                    progress(int(finished.size))
                if over_count * 2 > n:  # compact once half have finished
                    keep = np.flatnonzero(phase != OVER)
                    cells = (seat0[keep][:, None] + np.arange(P)).ravel()
                    gid, phase, turn, opener, roller = (
                        gid[keep],
                        phase[keep],
                        turn[keep],
                        opener[keep],
                        roller[keep],
                    )
                    dice, ann, prev, announcer = dice[keep], ann[keep], prev[keep], announcer[keep]
                    called, rnd, alive = called[keep], rnd[keep], alive[keep]
                    lost, drinks, out, nxt = lost[cells], drinks[cells], out[cells], nxt[cells]
                    n = int(gid.size)
                    seat0 = np.arange(n, dtype=i32) * P
                    over_count = 0

        return self._batch(out_lost, out_drinks, out_out, out_rounds, first_seat, steps)

    # --- pieces ----------------------------------------------------------------------

    def _roll(self, rng: np.random.Generator, size: int) -> npt.NDArray[np.int32]:
        return self.sides[rng.integers(0, 36, size=size, dtype=np.int8)].astype(np.int32)

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
        # one cell per penalty: single losers, and all but the announcer on a true Mia
        single = loser >= 0
        rows = np.flatnonzero(single)
        cells = seat0[e[rows]] + loser[rows]
        everyone = np.flatnonzero(loser == -2)
        if everyone.size:
            seats = np.arange(P)
            base = seat0[e[everyone]]
            grid = base[:, None] + seats
            take = ~out[grid] & (seats != announcer[everyone][:, None])
            rows = np.concatenate([rows, np.repeat(everyone, P)[take.ravel()]])
            cells = np.concatenate([cells, grid[take]])
        if rules.mode == "score":
            lost[cells] += 1
            return np.zeros(e.size, dtype=bool)
        involves = mia_loss[rows]
        if rules.mode == "drinking":
            drinks[cells[involves]] += 1
            lost[cells[~involves]] += 1
            return np.zeros(e.size, dtype=bool)
        amount = np.where(found[rows] | (involves & rules.mia_doubled), 2, 1)
        lost[cells] = np.minimum(rules.lives, lost[cells] + amount)
        dead = (lost[cells] >= rules.lives) & ~out[cells]
        done = np.zeros(e.size, dtype=bool)
        if dead.any():
            out[cells[dead]] = True
            hit_rows = np.unique(rows[dead])
            games = e[hit_rows]
            np.subtract.at(alive, e[rows[dead]], 1)
            grid = seat0[games][:, None] + np.arange(P)
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
        )


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
