"""What every command that seats a bot program says about isolation, in one place.

Light on purpose: the CLI imports it at start, before any bot is loaded.
"""

from __future__ import annotations

SEED_BITS = 128
"""Bits of a seed drawn when the user gives none: far beyond any search (a bot that knew
how seeds are derived could otherwise try every 32-bit seed against its own)."""
GUESSABLE_BITS = 64
"""A --seed below 2**64 could be found by a bot trying seeds against its own seed."""

UNSANDBOXED_HELP = (
    "Run bot programs and files as plain child processes of yours, without the sandbox "
    "(for machines without bubblewrap). Such a bot can read every file you can (the "
    "stored games with their dice, other bots' code), this program's memory through "
    "/proc and your environment, and use the network: only for code you trust. "
    "`bluffdice bot isolation` shows what the sandbox gives here."
)


def isolation_of(unsandboxed: bool) -> str:
    return "process" if unsandboxed else "sandbox"


def guessable(seed: int) -> bool:
    """Whether a user's --seed is small enough to be found by trying seeds."""
    return abs(seed) < 1 << GUESSABLE_BITS


SHORT_SEED_WARNING = (
    "warning: --seed {seed} is short enough to be guessed: a bot program could try seeds "
    "against its own and replay everyone's dice. For a contest leave --seed out (a "
    "128-bit seed is drawn and stored) or give a long random one."
)
