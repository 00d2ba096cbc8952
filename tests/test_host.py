"""The host above the table: asking, policies for refusals and faults, clocks, pacing,
hand-over, and what each seat is told (only the table's projection for it)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from bluffdice.bots import load_bot
from bluffdice.games.base import PrivateEvent
from bluffdice.games.mia import Challenge
from bluffdice.table import TABLE, Move, Prompt, Refused, Table, TimedOut, Update, Welcome, seeded
from bluffdice.table.host import Hearing, Host, HostStopped, Policy, SeatFault
from bluffdice.table.seats import BotSeat


class Recorder:
    """A seat that keeps everything it is told and answers with its bot's move."""

    hears: Hearing = "updates"

    def __init__(self, bot: Any, policy: Policy = Policy.RETRY, stale_first: bool = False) -> None:
        self.bot = bot
        self.policy = policy
        self.stale_first = stale_first
        self.welcome: Welcome | None = None
        self.told: list[Update] = []
        self.refusals: list[Refused] = []

    def sit(self, welcome: Welcome) -> None:
        self.welcome = welcome

    def tell(self, update: Update) -> None:
        self.told.append(update)

    def refused(self, refusal: Refused) -> None:
        self.refusals.append(refusal)

    def move(self, prompt: Prompt) -> Move:
        if self.stale_first:
            self.stale_first = False
            return Move(prompt.state_id - 1, Challenge())
        return Move(prompt.state_id, self.bot.act(prompt.view))


class Silent:
    """A remote seat that is asked and never answers."""

    hears: Hearing = "updates"
    policy = Policy.RETRY

    def __init__(self) -> None:
        self.asked: list[Prompt] = []
        self.told: list[Update] = []

    def sit(self, welcome: Welcome) -> None:
        return None

    def tell(self, update: Update) -> None:
        self.told.append(update)

    def refused(self, refusal: Refused) -> None:
        return None

    def ask(self, prompt: Prompt) -> None:
        self.asked.append(prompt)


class Broken:
    """A bot that raises at its `n`th move."""

    def __init__(self, n: int = 1) -> None:
        self.n = n
        self.inner = load_bot("odds", "mia", random.Random(1))

    def act(self, view: Any) -> Any:
        self.n -= 1
        if self.n <= 0:
            raise RuntimeError("the bot's own bug")
        return self.inner.act(view)


def odds(seed: int) -> Any:
    return load_bot("odds", "mia", random.Random(seed))


def play_async(table: Table, seats: list[Any], **kwargs: Any) -> Host:
    async def main() -> Host:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        host = Host(table, seats, timers=loop.call_later, **kwargs)
        host.ended.append(lambda h: done.done() or done.set_result(h))
        host.start()
        await asyncio.wait_for(done, 30)
        return host

    return asyncio.run(main())


def test_a_silent_remote_seat_with_a_50_ms_clock_gets_the_table_s_moves() -> None:
    silent = Silent()
    bots = [Recorder(odds(i), stale_first=True) for i in range(2)]
    table = Table("mia(lives=1)", 3, dice=seeded(4), limits=[0.05, None, None])
    host = play_async(table, [silent, *bots])
    assert host.over and table.over and host.stopped is None
    timed = [e for e in table.log if e.actor == TABLE]
    assert timed and all(e.events[0].player == 0 for e in timed)  # type: ignore[attr-defined]
    assert silent.asked and not [e for e in table.log if e.actor == 0]
    # The stale first try went back to its seat, and that seat moved again.
    assert [r.code for r in bots[0].refusals] == ["stale"]
    assert any(e.actor == 1 for e in table.log)
    # Everyone heard of the timeouts: they are public.
    assert any(isinstance(e, TimedOut) for u in bots[1].told for e in u.events)


def test_forfeit_a_failing_bot_is_played_by_the_table_and_the_others_play_on() -> None:
    table = Table("classic", 3, dice=seeded(2))
    seats = [
        BotSeat(Broken(2), Policy.FORFEIT, guard=True),
        BotSeat(odds(1), Policy.FORFEIT, guard=True),
        BotSeat(odds(2), Policy.FORFEIT, guard=True),
    ]
    host = Host(table, seats)
    assert host.run() is not None
    assert [(f.seat, f.kind) for f in host.faults] == [(0, "error")]
    assert "the bot's own bug" in host.faults[0].message
    assert host.failed == {0}
    assert sum(1 for e in table.log if e.actor == 0) == 1  # its one good move
    assert any(e.actor == TABLE for e in table.log)
    assert any(e.actor == 1 for e in table.log) and any(e.actor == 2 for e in table.log)


def test_stop_a_refused_move_stops_the_game_and_says_which_and_why() -> None:
    table = Table("classic", 2, dice=seeded(2))
    cheat = Recorder(odds(1), Policy.STOP, stale_first=True)
    host = Host(table, [cheat, BotSeat(odds(2))])
    before = len(table.log)
    with pytest.raises(HostStopped) as stopped:
        host.run()
    assert stopped.value.fault.seat == 0 and stopped.value.fault.kind == "illegal"
    assert stopped.value.refusal is not None and stopped.value.refusal.code == "stale"
    assert stopped.value.action == Challenge()
    assert len(table.log) == before  # the refused move changed nothing
    assert table.listeners == []  # the host let go of the table


def test_default_the_table_moves_once_and_the_seat_plays_on() -> None:
    table = Table("classic", 2, dice=seeded(5))
    wrong = Recorder(odds(1), Policy.DEFAULT, stale_first=True)
    host = Host(table, [wrong, BotSeat(odds(2))])
    host.run()
    assert table.over and not host.faults
    ours = [e.actor for e in table.log if e.actor in (0, TABLE)]
    assert ours[0] == TABLE  # its stale first move: the table moved for it, once
    assert ours.count(TABLE) == 1 and 0 in ours  # it played its later turns itself


def test_an_async_seat_s_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        silent = [Silent(), Silent()]
        table = Table("classic", 2, dice=seeded(1))
        host = Host(table, silent, timers=loop.call_later)
        host.start()
        pending = table.pending()
        assert pending is not None and silent[pending.seat].asked
        other = 1 - pending.seat
        before = len(table.log)
        refusal = host.offer(other, Move(pending.state_id, Challenge()))
        assert refusal is not None and refusal.code == "not_your_turn"
        assert len(table.log) == before and not host.faults
        # The asked seat answers later: the game goes on, and the other seat is asked.
        view = silent[pending.seat].asked[-1].view
        action = load_bot("odds", "mia", random.Random(3)).act(view)
        assert host.offer(pending.seat, Move(pending.state_id, action)) is None
        assert len(table.log) > before
        host.close()

    asyncio.run(main())


def test_paced_bots_wait_their_pace_before_moving() -> None:
    table = Table("mia(lives=1)", 2, dice=seeded(3))
    started = time.monotonic()
    host = play_async(table, [BotSeat(odds(1)), BotSeat(odds(2))], pace=0.02)
    moves = sum(1 for e in table.log if e.actor >= 0)
    assert host.over and moves >= 2
    assert time.monotonic() - started >= 0.02 * moves * 0.9


def test_a_seat_handed_to_a_bot_mid_game_sits_down_and_plays() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        away = Silent()
        table = Table("mia(lives=2)", 2, dice=seeded(7))
        host = Host(table, [away, BotSeat(odds(1))], timers=loop.call_later)
        host.ended.append(lambda h: done.done() or done.set_result(h))
        host.start()
        newcomer = Recorder(odds(2))
        host.replace(0, newcomer)
        await asyncio.wait_for(done, 30)
        assert table.over and newcomer.welcome is not None
        assert newcomer.welcome.recipient == 0
        assert any(e.actor == 0 for e in table.log)

    asyncio.run(main())


def test_a_seat_that_hears_nothing_handed_to_one_that_listens_is_told_from_then_on() -> None:
    """Seats that hear nothing are skipped at each step; the hand-over makes the new
    seat one that is told, and it misses nothing of its projection."""

    class Deaf(Silent):
        hears: Hearing = "nothing"

    async def main() -> None:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        away = Deaf()
        table = Table("mia(lives=2)", 2, dice=seeded(7))
        host = Host(table, [away, BotSeat(odds(1))], timers=loop.call_later)
        host.ended.append(lambda h: done.done() or done.set_result(h))
        host.start()
        while not away.asked:  # the bot's moves, one per turn of the loop, then away's turn
            await asyncio.sleep(0)
        assert not away.told
        newcomer = Recorder(odds(2))
        host.replace(0, newcomer)
        await asyncio.wait_for(done, 30)
        assert newcomer.welcome is not None and newcomer.told
        assert [*newcomer.welcome.history, *newcomer.told] == table.history(0)
        assert not away.told

    asyncio.run(main())


def test_a_seat_fault_reported_from_outside_follows_the_policy() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        table = Table("classic", 2, dice=seeded(1))
        seats = [Silent(), Silent()]
        seats[0].policy = Policy.STOP  # type: ignore[misc]
        seats[1].policy = Policy.STOP  # type: ignore[misc]
        host = Host(table, seats, timers=loop.call_later)
        host.start()
        pending = table.pending()
        assert pending is not None
        host.fault(pending.seat, "left", "the client went away")
        assert host.over and host.stopped is not None
        assert host.stopped.fault.kind == "left"

    asyncio.run(main())


@pytest.mark.parametrize("rules", ["classic", "dudo", "common-hand"])
def test_each_seat_is_told_exactly_the_table_s_projection_for_it(rules: str) -> None:
    game = {"classic": "mia", "dudo": "liars-dice", "common-hand": "common-hand"}[rules]
    players = 3 if game != "common-hand" else 2
    table = Table(rules, players, dice=seeded(9))
    seats = [Recorder(load_bot("random", game, random.Random(i))) for i in range(players)]
    Host(table, seats).run()
    for index, seat in enumerate(seats):
        assert seat.welcome is not None
        got = [*seat.welcome.history, *seat.told]
        assert got == table.history(index)
        for update in got:
            for event in update.events:
                if isinstance(event, PrivateEvent):
                    assert event.player == index


def test_a_seat_fault_while_sitting_down_forfeits_before_the_first_move() -> None:
    class Unseatable(Recorder):
        def sit(self, welcome: Welcome) -> None:
            raise SeatFault("crash", "it did not start")

    table = Table("classic", 2, dice=seeded(1))
    host = Host(table, [Unseatable(odds(1), Policy.FORFEIT), BotSeat(odds(2))])
    host.run()
    assert [(f.seat, f.kind) for f in host.faults] == [(0, "crash")]
    assert not [e for e in table.log if e.actor == 0]


def test_each_turn_is_announced_before_its_seat_is_asked() -> None:
    table = Table("classic", 2, dice=seeded(3))
    told: list[tuple[str, int, int]] = []

    class Noting(Recorder):
        def move(self, prompt: Prompt) -> Move:
            told.append(("asked", prompt.seat, prompt.state_id))
            return super().move(prompt)

    host = Host(table, [Noting(odds(1)), Noting(odds(2))])
    host.turns.append(lambda prompt: told.append(("turn", prompt.seat, prompt.state_id)))
    host.run()
    assert told and len(told) % 2 == 0
    for turn, asked in zip(told[::2], told[1::2], strict=True):
        assert turn[0] == "turn" and asked[0] == "asked" and turn[1:] == asked[1:]


def test_a_host_closed_when_a_turn_begins_asks_nobody_and_does_not_end() -> None:
    table = Table("classic", 2, dice=seeded(3))
    seats = [Silent(), Silent()]
    host = Host(table, seats)
    ended: list[Host] = []
    host.ended.append(ended.append)
    host.turns.append(lambda prompt: host.close())
    host.start()
    assert not seats[0].asked and not seats[1].asked
    assert not ended and not host.over and not table.over
    assert table.listeners == []


def test_a_closed_host_takes_no_move_and_a_bot_table_yields_the_loop_between_moves() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        table = Table("classic", 2, dice=seeded(1))
        host = Host(table, [BotSeat(odds(1)), BotSeat(odds(2))], timers=loop.call_later)
        host.start()
        assert len(table.log) == 1  # only the seat draw: the first bot moves on the next turn
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(table.log) > 1
        host.close()
        pending = table.pending()
        assert pending is not None
        before = len(table.log)
        refusal = host.offer(pending.seat, Move(pending.state_id, Challenge()))
        assert refusal is not None and refusal.code == "game_over"
        await asyncio.sleep(0.01)
        assert len(table.log) == before

    asyncio.run(main())
