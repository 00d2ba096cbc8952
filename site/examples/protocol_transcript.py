"""Print the transcript of one whole game between examples/bot.py and `odds`, as
docs/protocol.md shows it: every line the table sent the program and every line it
answered. Run from the repository root:

    .venv/bin/python docs/examples/protocol_transcript.py
"""

from __future__ import annotations

import random
import sys

from bluffdice.bots import load_bot
from bluffdice.protocol.bot import ProcessBot
from bluffdice.protocol.seats import ProgramSeat
from bluffdice.table import Table, seeded
from bluffdice.table.host import Host, Policy
from bluffdice.table.seats import BotSeat

RULES = "liars-dice(dice=2)"
SEED = 4

transcript: list[tuple[str, bytes]] = []
bot = ProcessBot([sys.executable, "examples/bot.py"])
bot.process.transcript = transcript
transcript.append(("bot", b"(hello, read before the first game)"))
table = Table(RULES, 2, dice=seeded(SEED), limits=[5.0, None], names=["example-py", "odds"])
odds = BotSeat(load_bot("odds", "liars-dice", random.Random(SEED)), Policy.FORFEIT, guard=True)
host = Host(table, [ProgramSeat(bot, SEED), odds])
host.run()
bot.close()
assert not host.faults, host.faults
outcome = table.outcome()
assert outcome is not None
players = "example-py (seat 0) against odds (seat 1)"
print(f"# {RULES}, seed {SEED}: {players}; winners {outcome.winners}")
for who, line in transcript[1:]:
    print(("> " if who == "table" else "< ") + line.decode())
