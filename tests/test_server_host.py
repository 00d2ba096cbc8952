"""The hall's tables on the host (`bluffdice.table.host`): house bots paced and forgiven,
the cap on a game's steps, hand-over, and hints from the seat's own view. These drive a
`Hall` directly on an event loop, without HTTP."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import msgspec
import pytest

from bluffdice.bots import load_bot
from bluffdice.server import Connection, Hall
from bluffdice.server import tables as tables_module
from bluffdice.server.hints import hint
from bluffdice.server.limits import Limits
from bluffdice.server.tables import LiveTable, SeatSpec
from bluffdice.table import TABLE, TimedOut, seeded

BOTS = [{"kind": "bot", "bot": "odds"}, {"kind": "bot", "bot": "odds"}]


def hall(bot_delay: float = 0.0, **limits: Any) -> Hall:
    counter = iter(range(1, 1000))
    return Hall(
        None,
        dice=lambda: seeded(next(counter)),
        bot_delay=bot_delay,
        limits=Limits(bot_tables=10, **limits),
    )


def frames(connection: Connection) -> list[dict[str, Any]]:
    """Every message queued for `connection` (a connection without a hall frames each
    message at once)."""
    return [m for frame in connection.queue if frame for m in msgspec.json.decode(frame)]


class Broken:
    """The odds bot, except that its first move raises."""

    def __init__(self) -> None:
        self.inner = load_bot("odds", "mia", random.Random(1))
        self.failed = False

    def act(self, view: Any) -> Any:
        if not self.failed:
            self.failed = True
            raise ValueError("the bot's own bug")
        return self.inner.act(view)


async def played(live: LiveTable) -> LiveTable:
    """The table once its game is over: bots move one per turn of the event loop, so
    that a table of bots never holds the loop for a whole game."""
    for _ in range(20_000):
        if live.status != "running":
            break
        await asyncio.sleep(0)
    return live


def test_a_bot_only_table_plays_to_its_end_on_the_host() -> None:
    async def main() -> LiveTable:
        served = hall()
        made = served.create({"rules": "mia(lives=2)", "seats": BOTS})
        return await played(served.tables[made["id"]])

    live = asyncio.run(main())
    assert live.status == "finished" and live.table is not None and live.table.over
    assert live.runner is not None and live.runner.over


def test_a_failing_house_bot_is_logged_and_the_table_moves_for_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    made: list[Broken] = []

    def loading(name: str, game: str) -> Any:
        if not made:
            made.append(Broken())
            return made[0]
        return load_bot(name, game, random.Random(2))

    monkeypatch.setattr(tables_module, "load_bot", loading)

    async def main() -> LiveTable:
        served = hall()
        created = served.create({"rules": "mia(lives=2)", "seats": BOTS})
        return await played(served.tables[created["id"]])

    with caplog.at_level(logging.WARNING, logger="bluffdice.server"):
        live = asyncio.run(main())
    assert live.status == "finished"  # the game went on
    assert live.table is not None
    timed = [e for e in live.table.log if e.actor == TABLE]
    assert len(timed) == 1 and isinstance(timed[0].events[0], TimedOut)
    assert timed[0].events[0].player == 0
    assert any(e.actor == 0 for e in live.table.log)  # the bot played its later turns
    assert any(
        "bot 0 failed" in r.getMessage() and "own bug" in r.getMessage() for r in caplog.records
    )


def test_a_game_that_reaches_the_step_cap_is_abandoned_and_nobody_moves_again() -> None:
    async def main() -> tuple[LiveTable, int, Hall]:
        served = hall(bot_delay=0.005, game_steps=6)
        created = served.create({"rules": "mia", "seats": BOTS})
        live = served.tables[created["id"]]
        while live.status == "running":
            await asyncio.sleep(0.005)
        assert live.table is not None
        steps = len(live.table.log)
        await asyncio.sleep(0.05)  # no timer of the closed host fires any more
        assert len(live.table.log) == steps
        return live, steps, served

    live, steps, served = asyncio.run(main())
    assert live.status == "abandoned" and live.table is not None and not live.table.over
    assert 6 <= steps < 6 + 4  # the cap is checked when a seat's turn begins
    assert live.id not in served.tables


def test_a_person_s_seat_handed_to_a_bot_plays_on() -> None:
    async def main() -> LiveTable:
        served = hall()
        created = served.create(
            {"rules": "mia(lives=2)", "seats": [{"kind": "human"}, BOTS[0]], "name": "Ann"}
        )
        live = served.tables[created["id"]]
        live.leave(created["token"])
        assert live.status == "running" and live.table is not None and not live.table.over
        live.hand_over(created["host"], 0, "bot", "odds")
        return await played(live)

    live = asyncio.run(main())
    assert live.status == "finished" and live.seats[0].kind == "bot"
    assert live.table is not None and any(e.actor == 0 for e in live.table.log)


async def stopped_at(cap: int) -> LiveTable:
    """A table of two bots, abandoned when its game reached `cap` steps (kept here: an
    abandoned table leaves the hall)."""
    served = hall(game_steps=cap)
    bots = [SeatSpec("bot", bot="odds", seed="") for _ in range(2)]
    live = served.open_table("mia", 2, None, bots)
    live.start()
    await played(live)
    assert live.status == "abandoned" and live.table is not None and not live.table.over
    return live


@pytest.mark.parametrize("cap", range(3, 24, 4))
def test_a_hint_is_worked_out_from_the_asking_seat_s_own_view(cap: int) -> None:
    async def main() -> None:
        live = await stopped_at(cap)
        assert live.table is not None
        for seat in range(2):
            connection = Connection(seat=seat)
            live.receive(connection, b'{"type": "hint"}')
            [answer] = frames(connection)
            expected = hint(live.table.rules, live.table.state.view(seat))
            assert answer == {**msgspec.to_builtins(expected), "type": "hint", "v": 1}

    asyncio.run(main())


def test_a_move_at_an_abandoned_table_is_refused_and_changes_nothing() -> None:
    async def main() -> None:
        live = await stopped_at(5)
        table = live.table
        assert table is not None
        pending = table.pending()
        assert pending is not None
        steps = len(table.log)
        connection = Connection(seat=pending.seat)
        action = load_bot("odds", "mia", random.Random(1)).act(pending.view)
        move = {"type": "move", "state_id": pending.state_id, "action": action}
        live.receive(connection, msgspec.json.encode(move))
        [answer] = frames(connection)
        assert answer["type"] == "refused" and answer["code"] == "game_over"
        assert len(table.log) == steps

    asyncio.run(main())
