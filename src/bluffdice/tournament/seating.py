"""Who sits where in each game of a tournament, and each game's seed.

Both depend only on the tournament seed and the game's index, never on which worker
plays the game or when, so a tournament gives identical results with any number of
workers.

Fair seating: the games are cut into blocks of as many games as there are bots. Each
block draws one order of all bots from the seed; game `r` of the block seats the bots
of that order starting at place `r`, going round. Within a block every bot therefore
sits in every seat exactly once when every bot plays every game, and in each of the
first `seats` seats exactly once when there are more bots than seats (each bot then
plays `seats` games of every block). Across blocks the neighbours change, so no bot
always follows the same player.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed for one purpose (`"game", 17`) from the tournament seed.

    Hashing keeps nearby seeds and indices independent, unlike `seed + index`.
    """
    text = ":".join(str(p) for p in ("bluffdice", seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def lineup(bots: int, seats: int, seed: int, index: int) -> tuple[int, ...]:
    """The bot numbers (0 .. bots-1) seated in game `index`, seat 0 first."""
    if not 1 <= seats <= bots:
        raise ValueError(f"cannot seat {bots} bots at {seats} seats")
    block, shift = divmod(index, bots)
    order = list(range(bots))
    random.Random(derive_seed(seed, "block", block)).shuffle(order)
    return tuple(order[(shift + s) % bots] for s in range(seats))


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index`: its dice and its bots' random choices come from it."""
    return derive_seed(seed, "game", index)
