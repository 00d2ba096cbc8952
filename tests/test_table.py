"""The table: moves from outside, refusals that change nothing, clocks, the wire, secrecy."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bluffdice.bots import Bot, load_bot, register_bot
from bluffdice.games import games, parse_rules
from bluffdice.games.base import GameOver, Step
from bluffdice.games.mia import Announce, MiaState
from bluffdice.table import (
    TABLE,
    Accepted,
    Move,
    Prompt,
    Refused,
    Table,
    TimedOut,
    WireError,
    decode,
    decode_move,
    encode,
    run_sync,
    schema,
    seeded,
)
from bluffdice.table.replay import rebuild
from bluffdice.testing import ConformanceError, check_secrecy
from bluffdice.tournament.play import GameJob, play_game
from tests import toy_game

GAMES = [
    ("classic", ("odds", "adaptive", "liar")),
    ("mia(blind=on,lives=2)", ("honest", "chain", "random", "bluffer")),
    ("dudo", ("odds", "adaptive", "random")),
    ("common-hand", ("random", "honest")),
]


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def bots_for(rules: str, names: tuple[str, ...], seed: int) -> list[Bot]:
    game = games_name(rules)
    return [load_bot(n, game, random.Random(seed * 10 + i)) for i, n in enumerate(names)]


def games_name(rules: str) -> str:
    from bluffdice.games import game_of

    return game_of(parse_rules(rules)).name


def snapshot(table: Table) -> tuple[Any, int, float | None]:
    return table.state, len(table.log), table.deadline


@pytest.mark.parametrize(("rules", "names"), GAMES)
def test_whole_games_from_remote_seats_refuse_every_bad_move_and_change_nothing(
    rules: str, names: tuple[str, ...]
) -> None:
    seed = 5
    table = Table(rules, len(names), dice=seeded(seed))
    bots = bots_for(rules, names, seed)
    players = len(names)

    def deliver(entry: Any) -> None:  # each bot hears only its own decoded updates
        for seat, bot in enumerate(bots):
            update = table.update_for(entry, seat)
            if update is not None:
                bot.observe(list(decode(encode(update)).events))

    table.listeners.append(deliver)
    refused: dict[str, int] = {}
    while (prompt := table.prompt()) is not None:
        message = decode(encode(prompt))
        assert isinstance(message, Prompt) and message.seat == prompt.seat
        action = bots[message.seat].act(message.view)
        move = decode_move(encode(Move(state_id=message.state_id, action=action)))
        before = snapshot(table)
        other = (message.seat + 1) % players
        attempts = [
            (other, move.state_id, move.action, "not_your_turn"),
            (players, move.state_id, move.action, "not_your_seat"),
            (-1, move.state_id, move.action, "not_your_seat"),
            (message.seat, move.state_id - 1, move.action, "stale"),
            (message.seat, move.state_id + 1, move.action, "stale"),
            (message.seat, move.state_id, "garbage", "illegal"),
            (message.seat, move.state_id, GameOver((), (), ()), "illegal"),
        ]
        for seat, state_id, act, code in attempts:
            result = table.submit(seat, state_id, act)
            assert isinstance(result, Refused) and result.code == code, (code, result)
            assert result.reason and result.state_id == prompt.state_id
            assert snapshot(table) == before
            refused[code] = refused.get(code, 0) + 1
        assert isinstance(table.submit(message.seat, move.state_id, move.action), Accepted)
    assert table.over and table.outcome() is not None
    over = table.submit(0, table.state_id, "anything")
    assert isinstance(over, Refused) and over.code == "game_over"
    # The same seeds played in-process give the very same game: the wire changed nothing.
    same = Table(rules, players, dice=seeded(seed))
    run_sync(same, bots_for(rules, names, seed))
    assert same.record == table.record
    assert set(refused) == {"not_your_turn", "not_your_seat", "stale", "illegal"}


def test_a_move_after_the_deadline_is_refused_and_the_default_move_is_made() -> None:
    clock = FakeClock()
    table = Table("classic", 2, dice=seeded(1), limits=10.0, clock=clock)
    pending = table.pending()
    assert pending is not None and pending.deadline == 10.0
    clock.now = 10.5
    result = table.submit(pending.seat, pending.state_id, table.state.legal_actions()[0])
    assert isinstance(result, Refused) and result.code == "too_late"
    entry = table.log[-2] if table.log[-1].actor != TABLE else table.log[-1]
    timed = [e for e in table.log if e.actor == TABLE]
    assert len(timed) == 1 and timed[0].text == "roll"  # the default opening move
    assert isinstance(timed[0].events[0], TimedOut) and timed[0].events[0].player == pending.seat
    assert entry is not None
    # The next turn has its own deadline, counted from now.
    assert table.deadline == pytest.approx(clock.now + 10.0)
    assert table.expire() is None


def test_default_moves_are_legal_and_modest_in_every_game() -> None:
    for rules, names in GAMES:
        table = Table(rules, len(names), dice=seeded(2))
        while table.pending() is not None:
            action = table.state.default_action()
            assert action in table.state.legal_actions()
            table.force_default()
        assert table.outcome() is not None
    state: Any = Table("classic", 2, dice=seeded(3)).state
    state = state.apply(state.legal_actions()[0]).state  # roll
    assert state.current_player == -1


def test_seeded_games_are_the_same_as_before_the_table() -> None:
    """Pinned from the dealer loop that the table replaced (tests/data)."""
    expected = json.loads(
        (Path(__file__).parent / "data/seeded_games_before_table.json").read_text()
    )
    cases = {
        "classic": ("odds", "adaptive", "liar", "honest"),
        "meyer": ("chain", "lucky", "bluffer"),
        "dudo": ("odds", "adaptive", "random"),
        "common-hand": ("random", "honest"),
        "maexchen": ("odds", "honest", "random", "liar"),
    }
    import hashlib

    for rules, bots in cases.items():
        for seed in (1, 2, 3):
            job = GameJob(
                index=seed, seed=seed * 1000 + 7, entrants=tuple(range(len(bots))), bots=bots
            )
            r = play_game(job, rules)
            digest = hashlib.sha256("\n".join(r.steps).encode()).hexdigest()[:16]
            got = [digest, list(r.winners), list(r.places), list(r.lives), r.rounds]
            assert got == expected[f"{rules}/{seed}"], (rules, seed)


def test_a_reconnecting_seat_gets_its_own_history_and_its_view() -> None:
    table = Table("dudo", 3, dice=seeded(8), names=["Ada", "Bo", "Cy"])
    bots = bots_for("dudo", ("odds", "odds", "odds"), 8)
    for _ in range(10):
        pending = table.pending()
        assert pending is not None
        table.submit(pending.seat, pending.state_id, bots[pending.seat].act(pending.view))
    welcome = decode(encode(table.welcome(1)))
    assert welcome.names == ("Ada", "Bo", "Cy") and welcome.game == "liars-dice"
    assert [encode(u) for u in welcome.history] == [encode(u) for u in table.history(1)]
    assert encode(welcome.view) == encode(table.state.view(1))
    # Seat 1 sees its own cup and nobody else's.
    own = [e for u in welcome.history for e in u.events if type(e).__name__ == "YourDice"]
    assert own and all(e.player == 1 for e in own)


def test_replays_show_everything_only_when_the_game_is_over() -> None:
    table = Table("classic", 3, dice=seeded(9))
    with pytest.raises(ValueError, match="over"):
        table.history(None, reveal=True)
    run_sync(table, bots_for("classic", ("odds", "honest", "liar"), 9))
    revealed = table.history(None, reveal=True)
    assert len(revealed) == len(table.log)
    assert [u.chance for u in revealed if u.chance is not None] == [
        e.action for e in table.log if e.actor == -1
    ]
    again = rebuild(table.record)
    assert again.record == table.record and again.outcome() == table.outcome()
    assert [encode(u) for u in again.history(0)] == [encode(u) for u in table.history(0)]


def test_malformed_moves_are_wire_errors() -> None:
    for data in (
        b"",
        b"{",
        b'{"type":"move"}',
        b'{"type":"move","state_id":1,"action":{}}',
        b'{"type":"move","state_id":"1","action":{"type":"mia.roll"}}',
        b'{"type":"prompt"}',
        b"[]",
        "x" * 100_000,
    ):
        with pytest.raises(WireError) as info:
            decode_move(data)
        assert len(str(info.value)) < 400


def test_a_move_decoded_for_one_game_takes_only_that_games_actions() -> None:
    bid = b'{"type":"move","state_id":2,"action":{"type":"liars-dice.bid","quantity":2,"face":3}}'
    mine, anyone = decode_move(bid, "liars-dice"), decode_move(bid)
    assert (mine.state_id, mine.action) == (anyone.state_id, anyone.action)
    with pytest.raises(WireError):
        decode_move(bid, "mia")
    roll = b'{"type":"move","state_id":2,"action":{"type":"mia.roll"}}'
    assert decode_move(roll, "mia").action == decode_move(roll).action


# --- the wire: every preset's views, events and legal actions round-trip ------------------

PRESET_CASES = [
    (name, max(spec.min_players, min(3, spec.max_players)))
    for spec in games()
    for name in spec.presets
]


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from(PRESET_CASES), seed=st.integers(0, 10_000))
def test_every_message_of_random_games_round_trips_through_the_wire(
    case: tuple[str, int], seed: int
) -> None:
    rules, players = case
    rng = random.Random(seed)
    table = Table(rules, players, dice=seeded(seed))
    while (pending := table.pending()) is not None:
        for action in pending.view.legal_actions:
            move = Move(state_id=pending.state_id, action=action)
            back = decode_move(encode(move))
            assert (back.state_id, back.action) == (move.state_id, move.action)
        table.submit(pending.seat, pending.state_id, rng.choice(list(pending.view.legal_actions)))
    for recipient in (*range(players), None):
        for update in table.history(recipient):
            data = encode(update)
            assert encode(decode(data)) == data
            assert json.loads(data)["v"] == 1
    for update in table.history(None, reveal=True):
        assert encode(decode(encode(update))) == encode(update)


def test_the_schema_tells_every_game_apart() -> None:
    document = schema()
    tags = json.dumps(document)
    for tag in ("mia.announce", "liars-dice.bid", "common-hand.claim", "mia.view", "timed_out"):
        assert f'"{tag}"' in tags
    assert "mia.announce" in json.dumps(schema("mia")) and "liars-dice" not in json.dumps(
        schema("mia")
    )
    all_tags: list[str] = []
    for spec in games():
        all_tags += [t.__struct_config__.tag for t in spec.wire_types]  # type: ignore[attr-defined]
    assert len(all_tags) == len(set(all_tags))


# --- a fourth game, registered only here, needs no change to tables, tournaments, replays --


@register_bot
class Stayer(Bot):
    name = "stayer"
    games = ("high-die",)

    def act(self, view: Any) -> Any:
        return view.legal_actions[0]


def test_a_new_game_plugs_into_table_tournament_and_replay() -> None:
    with toy_game.registered():
        table = Table("high-die", 2, dice=seeded(1))
        outcome = run_sync(table, [Stayer(), Stayer()])
        assert outcome is not None and table.over
        seen = table.history(1)
        assert all(e.player == 1 for u in seen for e in u.events if isinstance(e, toy_game.YourDie))
        assert encode(decode(encode(seen[0]))) == encode(seen[0])
        result = play_game(
            GameJob(index=0, seed=4, entrants=(0, 1), bots=("stayer", "stayer")), "high-die"
        )
        assert result.rounds == 1 and len(result.places) == 2
        assert rebuild(table.record).outcome() == outcome
        assert "high-die.swap" in json.dumps(schema("high-die"))
        report = check_secrecy("high-die", 2, games=20, seed=1)
        assert report.messages > 0


# --- secrecy: encoded messages never depend on what the recipient may not see ------------


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("classic", 3),
        ("meyer", 4),
        ("maexchen", 3),
        ("dudo", 3),
        ("common-hand", 2),
        ("openspiel", 2),
        ("mia(beat_mia=on,joker32=on)", 3),
    ],
)
def test_no_seat_receives_a_byte_that_depends_on_hidden_dice_or_moves(
    rules: str, players: int
) -> None:
    report = check_secrecy(rules, players, games=12, seed=3)
    assert report.messages > 100 * (players - 1)


def test_the_secrecy_check_catches_a_leaky_view(monkeypatch: pytest.MonkeyPatch) -> None:
    original = MiaState.view

    def leaky(self: MiaState, player: int | None) -> Any:
        return msgspec.structs.replace(original(self, player), my_dice=self.dice or None)

    monkeypatch.setattr(MiaState, "view", leaky)
    with pytest.raises(ConformanceError, match="depends on hidden"):
        check_secrecy("classic", 3, games=5, seed=1)


def test_the_secrecy_check_catches_a_state_id_that_counts_a_blind_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = MiaState.apply

    def counting(self: MiaState, action: Any) -> Any:
        state, events = original(self, action)
        if str(action) == "look":
            state = msgspec.structs.replace(state, moves=state.moves + 1)
        return Step(state, events)

    monkeypatch.setattr(MiaState, "apply", counting)
    with pytest.raises(ConformanceError, match="depends on hidden"):
        check_secrecy("classic", 3, games=10, seed=1)


def test_an_announce_from_outside_is_checked_by_the_rules() -> None:
    table = Table("classic", 2, dice=seeded(1))
    pending = table.pending()
    assert pending is not None
    result = table.submit(pending.seat, pending.state_id, Announce(54))
    assert isinstance(result, Refused) and result.code == "illegal"
    assert "roll" in result.reason
