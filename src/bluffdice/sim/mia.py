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
            [np.concatenate([t.hold.reshape(-1, WIDTH), t.answer.reshape(-1, WIDTH)]) for t in seats]
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
    ) -> MiaBatch:
        """Play `games` games; `first` fixes the opening seat (else chance picks it)."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        rules, P, lay = self.rules, self.players, self.layout
        n = games
        out_winners = np.zeros((games, P), dtype=bool)
        out_lost = np.zeros((games, P), dtype=np.int16)
        out_drinks = np.zeros((games, P), dtype=np.int16)
        out_rounds = np.zeros(games, dtype=np.int32)

        if first is None:
            starter = rng.integers(0, P, size=n).astype(np.int8)
        else:
            starter = np.full(n, first, dtype=np.int8)
        first_seat = starter.copy()
        gid = np.arange(n, dtype=np.int64)
        phase = np.zeros(n, dtype=np.int8)
        turn = starter.copy()
        opener = starter.copy()
        dice = self._roll(rng, n)
        ann = np.full(n, -1, dtype=np.int8)
        prev = np.full(n, -1, dtype=np.int8)
        announcer = np.full(n, -1, dtype=np.int8)
        roller = starter.copy()
        called = np.zeros(n, dtype=np.int16)
        lost = np.zeros((n, P), dtype=np.int16)
        drinks = np.zeros((n, P), dtype=np.int16)
        out = np.zeros((n, P), dtype=bool)
        nxt = np.tile(((np.arange(P) + 1) % P).astype(np.int8), (n, 1))
        rnd = np.ones(n, dtype=np.int32)

        lives_mode = rules.mode == "lives"
        seat_base = (np.arange(P) * _PER_SEAT).astype(np.int64)
        mia = lay.mia
        instant = rules.mia_end == "instant"
        starter_is_loser = rules.mia_starter == "loser"
        rank = self.rank
        prob, alias = self.prob, self.alias
        steps = 0
        step_count = 0
        over_count = 0

        while n:
            step_count += 1
            if step_count > max_steps:
                raise RuntimeError(f"games still running after {max_steps} steps")
            steps += n - over_count
            u = rng.random(n, dtype=np.float32) * WIDTH
            j = u.astype(np.int64)
            frac = u - j
            base = seat_base[turn]
            annp = ann.astype(np.int64) + 1
            in_hold = phase == HOLD
            hold_sit = ((turn != opener) * FLOORS + annp) * VALUES_N + dice
            answer_sit = (
                _HOLD
                + (((roller != opener) * FLOORS + prev.astype(np.int64) + 1) * VALUES_N + ann) * 2
                + ((called >> turn) & 1)
            )
            flat = (base + np.where(in_hold, hold_sit, answer_sit)) * WIDTH + j
            act = np.where(frac < prob[flat], j, alias[flat])
            if over_count:  # finished games wait for the next compaction, doing nothing
                act[phase == OVER] = WIDTH

            is_value = act < VALUES_N
            ended = np.zeros(n, dtype=bool)
            loser = np.full(n, -1, dtype=np.int8)  # -2: every other player (true Mia)
            involves_mia = np.zeros(n, dtype=bool)
            found = np.zeros(n, dtype=bool)
            new_starter = turn.copy()

            # announcements and passes ----------------------------------------------
            if is_value.any():
                v = np.flatnonzero(is_value)
                me = turn[v]
                value = act[v].astype(np.int8)
                prev[v] = ann[v]
                ann[v] = value
                announcer[v] = me
                roller[v] = np.where(in_hold[v], me, roller[v])
                called[v] |= (1 << me.astype(np.int16)).astype(np.int16)
                is_mia = value == mia
                if instant and is_mia.any():
                    m = v[is_mia]
                    true = dice[m] == mia
                    ended[m] = True
                    involves_mia[m] = True
                    loser[m] = np.where(true, -2, turn[m])
                    mia_start = turn[m] if starter_is_loser else nxt[m, turn[m]]
                    new_starter[m] = np.where(true, nxt[m, turn[m]], mia_start)
                    go = v[~is_mia]
                else:
                    go = v
                phase[go] = ANSWER
                turn[go] = nxt[go, turn[go]]

            # answers ---------------------------------------------------------------
            chal = act == CHALLENGE
            if chal.any():
                c = np.flatnonzero(chal)
                me, who = turn[c], announcer[c]
                d, a = dice[c], ann[c]
                at_mia = a == mia
                truthful = rank[d] >= rank[a]
                d_mia = d == mia
                ended[c] = True
                # after Mia: a real one costs the looker, else the announcer
                lose_me = np.where(at_mia, d_mia, truthful)
                loser[c] = np.where(lose_me, me, who)
                involves_mia[c] = np.where(at_mia, True, truthful & d_mia)
                found[c] = at_mia & d_mia
                paying = np.where(lose_me, me, who)
                mia_start = paying if starter_is_loser else nxt[c, paying]
                plain_start = np.where(truthful, nxt[c, me], me)
                new_starter[c] = np.where(at_mia, mia_start, plain_start)

            rolls = act == ROLL
            if rolls.any():
                r = np.flatnonzero(rolls)
                phase[r] = HOLD
                dice[r] = self._roll(rng, r.size)

            give = act == GIVE_UP
            if give.any():
                g = np.flatnonzero(give)
                ended[g] = True
                loser[g] = turn[g]
                involves_mia[g] = True
                new_starter[g] = turn[g] if starter_is_loser else nxt[g, turn[g]]

            beat = act == BEAT
            if beat.any():
                b = np.flatnonzero(beat)
                hit = self._roll(rng, b.size) == mia
                who = np.where(hit, announcer[b], turn[b])
                ended[b] = True
                loser[b] = who
                involves_mia[b] = True
                new_starter[b] = who if starter_is_loser else nxt[b, who]

            cheers = act == CHEERS
            if cheers.any():
                ended[np.flatnonzero(cheers)] = True  # no loser; the shower starts again

            # rounds that ended -----------------------------------------------------
            if ended.any():
                e = np.flatnonzero(ended)
                self._settle(
                    e, loser[e], involves_mia[e], found[e], announcer[e], lost, drinks, out
                )
                done = np.zeros(e.size, dtype=bool)
                if lives_mode:
                    newly_out = ~out[e] & (lost[e] >= rules.lives)
                    hit_rows = newly_out.any(axis=1)
                    if hit_rows.any():
                        h = e[hit_rows]
                        out[h] |= newly_out[hit_rows]
                        nxt[h] = _next_alive(out[h])
                        alive = (~out[e]).sum(axis=1)
                        if rules.end == "first_out":
                            done = hit_rows.copy()
                        done |= alive <= 1
                else:
                    done = rnd[e] >= rules.rounds
                go_on = e[~done]
                if go_on.size:
                    s = new_starter[go_on]
                    s = np.where(out[go_on, s], nxt[go_on, s], s)
                    rnd[go_on] += 1
                    turn[go_on] = s
                    opener[go_on] = s
                    roller[go_on] = s
                    phase[go_on] = HOLD
                    dice[go_on] = self._roll(rng, go_on.size)
                    ann[go_on] = -1
                    prev[go_on] = -1
                    announcer[go_on] = -1
                    called[go_on] = 0
                finished = e[done]
                if finished.size:
                    ids = gid[finished]
                    out_winners[ids] = self._winners(
                        lost[finished], drinks[finished], out[finished], rnd[finished]
                    )
                    out_lost[ids] = lost[finished]
                    out_drinks[ids] = drinks[finished]
                    out_rounds[ids] = rnd[finished]
                    phase[finished] = OVER
                    ann[finished] = 0  # keeps their (unused) table index in range
                    over_count += int(finished.size)
                    if progress is not None:
                        progress(int(finished.size))
                    if over_count * 4 > n:  # compact once a quarter has finished
                        keep = phase != OVER
                        gid, phase, turn, opener, dice = (
                            gid[keep], phase[keep], turn[keep], opener[keep], dice[keep]
                        )
                        ann, prev, announcer, roller = (
                            ann[keep], prev[keep], announcer[keep], roller[keep]
                        )
                        called, lost, drinks, out = called[keep], lost[keep], drinks[keep], out[keep]
                        nxt, rnd = nxt[keep], rnd[keep]
                        n = int(gid.size)
                        over_count = 0

        if lives_mode:
            lives = (rules.lives - out_lost).astype(np.int16)
            lives = np.maximum(lives, 0).astype(np.int16)
            score = lives
        else:
            lives = np.full((games, P), rules.lives, dtype=np.int16)
            score = (
                (out_rounds[:, None] - out_lost).astype(np.int16)
                if rules.mode == "score"
                else out_lost
            )
        return MiaBatch(
            winners=out_winners,
            lives=lives,
            score=score,
            drinks=out_drinks,
            rounds=out_rounds,
            first=first_seat,
            steps=steps,
        )

    # --- pieces ----------------------------------------------------------------------

    def _roll(self, rng: np.random.Generator, size: int) -> npt.NDArray[np.int8]:
        return self.sides[rng.integers(0, 36, size=size, dtype=np.int8)]

    def _settle(
        self,
        e: IntArray,
        loser: npt.NDArray[np.int8],
        involves_mia: npt.NDArray[np.bool_],
        found: npt.NDArray[np.bool_],
        announcer: npt.NDArray[np.int8],
        lost: npt.NDArray[np.int16],
        drinks: npt.NDArray[np.int16],
        out: npt.NDArray[np.bool_],
    ) -> None:
        """Apply the penalties of the rounds that ended in games `e` (state.py `_penalty`)."""
        rules, P = self.rules, self.players
        hit = np.zeros((e.size, P), dtype=bool)
        single = loser >= 0
        hit[np.flatnonzero(single), loser[single]] = True
        everyone = loser == -2
        if everyone.any():
            others = ~out[e[everyone]]
            others[np.arange(others.shape[0]), announcer[everyone]] = False
            hit[everyone] = others
        if rules.mode == "score":
            lost[e] += hit
            return
        if rules.mode == "drinking":
            stiff = hit & involves_mia[:, None]
            drinks[e] += stiff
            lost[e] += hit & ~stiff
            return
        double = found | (involves_mia & rules.mia_doubled)
        amount = np.where(double, 2, 1).astype(np.int16)[:, None]
        lost[e] = np.minimum(rules.lives, lost[e] + hit * amount)

    def _winners(
        self,
        lost: npt.NDArray[np.int16],
        drinks: npt.NDArray[np.int16],
        out: npt.NDArray[np.bool_],
        rnd: npt.NDArray[np.int32],
    ) -> npt.NDArray[np.bool_]:
        """The engine's `_result_if_over` winners, for finished games."""
        rules = self.rules
        if rules.mode == "lives":
            return ~out
        if rules.mode == "score":
            score = -lost.astype(np.int64)  # everyone joined every round
            return score == score.max(axis=1, keepdims=True)
        key = drinks.astype(np.int64) * 100_000 + lost
        return key == key.min(axis=1, keepdims=True)


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
