"""The one authority that runs a game: dice, seats, clock, moves from outside.

Every front end (terminal, tournaments, replays, browsers, bot programs) is a client
of `Table`: it submits moves with the state id they answer and receives what its
recipient may see through the table's one projection, `Table.update_for`.
"""

from bluffdice.table.dice import DiceSource, RandomDice, sample, seeded, system
from bluffdice.table.entry import Entry
from bluffdice.table.runners import Agent, AgentError, run_sync
from bluffdice.table.table import TABLE, Accepted, Pending, Table
from bluffdice.table.wire import (
    VERSION,
    Move,
    Prompt,
    Refused,
    TimedOut,
    Update,
    Welcome,
    WireError,
    decode,
    decode_move,
    encode,
    schema,
)

__all__ = [
    "TABLE",
    "VERSION",
    "Accepted",
    "Agent",
    "AgentError",
    "DiceSource",
    "Entry",
    "Move",
    "Pending",
    "Prompt",
    "RandomDice",
    "Refused",
    "Table",
    "TimedOut",
    "Update",
    "Welcome",
    "WireError",
    "decode",
    "decode_move",
    "encode",
    "run_sync",
    "sample",
    "schema",
    "seeded",
    "system",
]
