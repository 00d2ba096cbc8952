"""`bluffdice serve` in process: lobby API, every websocket message and refusal, limits,
the store written before anyone is told, and tables resumed after a restart."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from bluffdice.server import Connection, Hall, create_app  # noqa: E402
from bluffdice.server.connections import MAX_MESSAGE  # noqa: E402
from bluffdice.server.limits import Limits  # noqa: E402
from bluffdice.server.refusals import HallError, clean_name  # noqa: E402
from bluffdice.store import Store  # noqa: E402
from bluffdice.store.tables import TableStore, WebStepRow, WebTableRow  # noqa: E402
from bluffdice.table import seeded  # noqa: E402

ORIGIN = {"origin": "http://testserver"}
POSTGRES = os.environ.get("BLUFFDICE_TEST_POSTGRES")
"""A PostgreSQL URL (postgresql+psycopg://...): the store and restart tests run against it
instead of a SQLite file; its browser tables are emptied before each test."""
Msg = dict[str, Any]


def database(tmp_path: Path) -> str:
    """A fresh database for one test: a SQLite file, or the emptied POSTGRES database."""
    if POSTGRES is None:
        return str(tmp_path / "serve.db")
    tables = TableStore(Store(POSTGRES).engine)
    with tables.engine.begin() as connection:
        connection.execute(delete(WebStepRow))
        connection.execute(delete(WebTableRow))
    tables.engine.dispose()
    return POSTGRES


def make_client(db: str, seed: int = 1, bot_delay: float = 0) -> TestClient:
    tables = TableStore(Store(db).engine)
    counter = iter(range(seed, seed + 10_000))
    # tables of bots only are allowed here (a served default refuses them)
    limits = Limits(bot_tables=20, tables_per_address=1000)
    hall = Hall(tables, dice=lambda: seeded(next(counter)), bot_delay=bot_delay, limits=limits)
    return TestClient(create_app(tables, hall))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(database(tmp_path)) as c:
        yield c


def create(client: TestClient, rules: str = "mia(lives=1)", seats: Any = None, **extra: Any) -> Msg:
    body = {
        "rules": rules,
        "seats": seats or [{"kind": "human"}, {"kind": "bot", "bot": "honest"}],
        "name": "Ann",
        "limit": None,
        "listed": True,
        **extra,
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    answer: Msg = response.json()
    return answer


class Socket:
    """A websocket client that keeps every message it received. Each frame the server
    sends is a JSON array of messages (one turn's worth); `recv` hands them out one by
    one and `messages` keeps all it received, in order."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[Msg] = []
        self.waiting: list[Msg] = []

    def recv(self) -> Msg:
        if not self.waiting:
            frame = json.loads(self.ws.receive_text())
            assert isinstance(frame, list) and frame, frame
            self.waiting = frame
        message: Msg = self.waiting.pop(0)
        self.messages.append(message)
        return message

    def until(self, test: Callable[[Msg], bool]) -> Msg:
        while True:
            message = self.recv()
            if test(message):
                return message

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))


def connect(client: TestClient, table_id: str, token: str | None) -> Any:
    ws = client.websocket_connect(f"/ws/{table_id}", headers=ORIGIN)
    return ws


def hello(ws: Any, token: str | None) -> Socket:
    sock = Socket(ws)
    sock.send({"type": "hello", "token": token})
    return sock


def play_out(sock: Socket, rng: random.Random, seat: int | None = None) -> Msg:
    """Answer every prompt with a random legal move until the table is finished."""
    while True:
        message = sock.recv()
        if message["type"] == "prompt":
            action = rng.choice(message["view"]["legal_actions"])
            sock.send({"type": "move", "state_id": message["state_id"], "action": action})
        if message["type"] == "table" and message["status"] == "finished":
            return message


# --- lobby API ---------------------------------------------------------------------------


def test_games_lists_games_presets_options_and_bots(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert {"mia", "liars-dice"} <= set(games)
    mia = games["mia"]
    assert "meyer" in {p["name"] for p in mia["presets"]}
    assert "lives" in {o["key"] for o in mia["options"]}
    assert "honest" in {b["name"] for b in mia["bots"]}


def test_rules_api_gives_the_canonical_string_or_an_error(client: TestClient) -> None:
    entry = client.get("/api/rules", params={"rules": "classic(lives=3)"}).json()
    assert entry["rules"] == "mia(lives=3)"
    bad = client.get("/api/rules", params={"rules": "mia(lives=0)"})
    assert bad.status_code == 400 and "lives" in bad.json()["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"rules": "nonsense"}, "unknown preset"),
        ({"seats": [{"kind": "human"}]}, "2 to"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "nobody"}]}, "no mia bot"),
        ({"seats": [{"kind": "human"}, {"kind": "alien"}]}, "'human' or 'bot'"),
        ({"limit": 0}, "time limit"),
        ({"limit": "soon"}, "seconds"),
        ({"name": "   "}, "name"),
        ({"seats": "two"}, "who sits"),
    ],
)
def test_create_refuses_bad_tables(client: TestClient, body: Msg, words: str) -> None:
    request = {
        "rules": "mia",
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "name": "Ann",
        "limit": None,
        **body,
    }
    response = client.post("/api/tables", json=request)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []


def test_join_fills_seats_starts_the_game_and_refuses_a_full_table(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    info = client.get(f"/api/tables/{made['id']}").json()
    assert info["status"] == "open" and [s["taken"] for s in info["seats"]] == [True, False]
    joined = client.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"}).json()
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    assert len(joined["token"]) >= 32
    assert client.get(f"/api/tables/{made['id']}").json()["status"] == "running"
    full = client.post(f"/api/tables/{made['id']}/join", json={"name": "Cid"})
    assert full.status_code == 400 and "no free seat" in full.json()["error"]
    assert client.get("/api/tables/nope").status_code == 404


def test_names_are_tidied_but_kept_as_text() -> None:
    assert clean_name("  <script>alert(1)</script> ") == "<script>alert(1)</script>"[:24]
    assert clean_name("Ann\x00\n\u202eBob") == "Ann Bob"
    with pytest.raises(HallError):
        clean_name("\n\t")


# --- a whole game over the websocket -----------------------------------------------------


def test_a_person_and_a_bot_play_to_the_end_and_the_replay_reveals_everything(
    client: TestClient,
) -> None:
    made = create(client)
    with connect(client, made["id"], made["token"]) as ws:
        sock = hello(ws, made["token"])
        first = sock.recv()
        assert first["type"] == "table" and first["you"] == 0 and first["status"] == "running"
        welcome = sock.recv()
        assert welcome["type"] == "welcome" and welcome["recipient"] == 0
        assert welcome["names"] == ["Ann", "honest"]
        end = play_out(sock, random.Random(3))
    kinds = {m["type"] for m in sock.messages}
    assert {"table", "welcome", "turn", "prompt", "update"} <= kinds
    assert all(m["recipient"] == 0 for m in sock.messages if m["type"] == "update")
    assert end["status"] == "finished"
    game_over = [
        e
        for m in sock.messages
        if m["type"] == "update"
        for e in m["events"]
        if e["type"] == "game_over"
    ]
    assert len(game_over) == 1
    replay = client.get(f"/api/replays/{made['id']}").json()
    assert replay["names"] == ["Ann", "honest"]
    chances = [s for s in replay["steps"] if s["actor"] == -1]
    assert chances and all(s["update"]["chance"] is not None for s in chances)
    finished = client.get("/api/tables").json()["finished"]
    assert finished[0]["id"] == made["id"] and finished[0]["winners"] == game_over[0]["winners"]


def test_a_spectator_never_sees_hidden_dice(client: TestClient) -> None:
    made = create(
        client,
        rules="liars-dice(dice=2)",
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "odds"}],
    )
    with (
        connect(client, made["id"], None) as watcher_ws,
        connect(client, made["id"], made["token"]) as ws,
    ):
        watcher = hello(watcher_ws, None)
        assert watcher.recv()["you"] is None
        sock = hello(ws, made["token"])
        play_out(sock, random.Random(5))
        watcher.until(lambda m: m["type"] == "table" and m["status"] == "finished")
    updates = [m for m in watcher.messages if m["type"] in ("update", "welcome")]
    assert updates
    for message in watcher.messages:
        text = json.dumps(message)
        assert "your_dice" not in text
        view = message.get("view")
        if view is not None:
            assert view["my_dice"] is None
    mine = [e for m in sock.messages if m["type"] == "update" for e in m["events"]]
    assert any(e["type"] == "liars-dice.your_dice" for e in mine)


def test_the_hint_gives_exact_chances_for_the_seat(client: TestClient) -> None:
    made = create(client, rules="mia(lives=6)")
    with connect(client, made["id"], made["token"]) as ws:
        sock = hello(ws, made["token"])
        rng = random.Random(1)
        while True:
            message = sock.recv()
            if message["type"] == "prompt":
                view = message["view"]
                if view["announced"] is not None:
                    sock.send({"type": "hint"})
                    hint = sock.until(lambda m: m["type"] == "hint")
                    assert hint["game"] == "mia" and hint["announced"] == view["announced"]
                    assert 0.0 <= hint["beat"] <= 1.0
                    break
                sock.send(
                    {
                        "type": "move",
                        "state_id": message["state_id"],
                        "action": rng.choice(view["legal_actions"]),
                    }
                )
            if message["type"] == "table" and message["status"] == "finished":
                pytest.fail("never had to answer an announcement")
        with connect(client, made["id"], None) as watcher_ws:
            watcher = hello(watcher_ws, None)
            watcher.send({"type": "hint"})
            assert watcher.until(lambda m: m["type"] == "error")["code"] == "no_hint"


# --- refusals: answered, and nothing changed ---------------------------------------------


def stored_steps(client: TestClient, table_id: str) -> int:
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    assert hall.store is not None
    return len(hall.store.steps(table_id))


def test_every_refusal_is_answered_and_changes_nothing(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    bob = client.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"}).json()
    with (
        connect(client, made["id"], made["token"]) as ws0,
        connect(client, made["id"], bob["token"]) as ws1,
        connect(client, made["id"], None) as ws2,
    ):
        ann, bobs, watcher = hello(ws0, made["token"]), hello(ws1, bob["token"]), hello(ws2, None)
        turn = ann.until(lambda m: m["type"] == "turn")
        mover, waiter = (ann, bobs) if turn["seat"] == 0 else (bobs, ann)
        prompt = mover.until(lambda m: m["type"] == "prompt")
        state_id = prompt["state_id"]
        before = stored_steps(client, made["id"])
        roll = {"type": "mia.roll"}

        def refused(sock: Socket, message: Any) -> Msg:
            sock.send(message)
            answer = sock.until(lambda m: m["type"] in ("refused", "error"))
            assert answer["type"] == "refused"
            assert answer["state_id"] == state_id
            return answer

        assert (
            refused(waiter, {"type": "move", "state_id": state_id, "action": roll})["code"]
            == "not_your_turn"
        )
        assert (
            refused(mover, {"type": "move", "state_id": state_id - 1, "action": roll})["code"]
            == "stale"
        )
        illegal = refused(
            mover, {"type": "move", "state_id": state_id, "action": {"type": "mia.challenge"}}
        )
        assert illegal["code"] == "illegal" and illegal["reason"]
        assert (
            refused(watcher, {"type": "move", "state_id": state_id, "action": roll})["code"]
            == "not_your_seat"
        )
        for garbage in (
            "not json",
            "[]",
            json.dumps({"type": "move", "state_id": "x", "action": roll}),
            json.dumps({"type": "move", "state_id": state_id, "action": {"type": "chess.move"}}),
            json.dumps(
                {"type": "move", "state_id": state_id, "action": {"type": "liars-dice.liar"}}
            ),
            json.dumps({"type": "launch"}),
            json.dumps(
                {"type": "move", "state_id": state_id, "action": roll, "x": "y" * MAX_MESSAGE}
            ),
        ):
            assert refused(mover, garbage)["code"] == "malformed"
        assert stored_steps(client, made["id"]) == before
        mover.send({"type": "move", "state_id": state_id, "action": roll})
        update = mover.until(lambda m: m["type"] == "update")
        assert update["state_id"] > state_id
        assert stored_steps(client, made["id"]) > before


def test_a_move_after_the_game_is_refused_as_game_over(client: TestClient) -> None:
    made = create(client)
    with connect(client, made["id"], made["token"]) as ws:
        sock = hello(ws, made["token"])
        play_out(sock, random.Random(9))
        last = [m for m in sock.messages if m["type"] == "update"][-1]["state_id"]
        sock.send({"type": "move", "state_id": last, "action": {"type": "mia.roll"}})
        assert sock.until(lambda m: m["type"] == "refused")["code"] == "game_over"


def test_time_runs_out_and_the_table_moves_for_the_seat(tmp_path: Path) -> None:
    with make_client(database(tmp_path)) as client:
        made = create(client, limit=1)
        with connect(client, made["id"], made["token"]) as ws:
            sock = hello(ws, made["token"])
            turn = sock.until(lambda m: m["type"] == "turn" and m["seat"] == 0)
            assert 0 < turn["time_left"] <= 1
            timed_out = sock.until(
                lambda m: (
                    m["type"] == "update" and any(e["type"] == "timed_out" for e in m["events"])
                )
            )
            assert any(e["player"] == 0 for e in timed_out["events"] if e["type"] == "timed_out")


# --- seats, tokens, origins, limits ------------------------------------------------------


def test_a_token_returns_to_its_seat_and_a_wrong_one_only_watches(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    client.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"})
    with connect(client, made["id"], made["token"]) as ws:
        first = hello(ws, made["token"])
        welcome = first.until(lambda m: m["type"] == "welcome")
    with connect(client, made["id"], made["token"]) as ws:
        again = hello(ws, made["token"])
        assert again.recv()["you"] == 0
        assert again.until(lambda m: m["type"] == "welcome") == welcome
    with connect(client, made["id"], "guessed-token") as ws:
        stranger = hello(ws, "guessed-token")
        assert stranger.recv()["you"] is None
        assert stranger.until(lambda m: m["type"] == "welcome")["recipient"] is None


def test_a_foreign_origin_is_turned_away(client: TestClient) -> None:
    made = create(client)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/{made['id']}", headers={"origin": "http://evil.example"}),
    ):
        pass
    with client.websocket_connect(f"/ws/{made['id']}") as ws:  # no Origin: a program
        assert hello(ws, None).recv()["type"] == "table"


def test_an_unknown_table_says_so(client: TestClient) -> None:
    with client.websocket_connect("/ws/none", headers=ORIGIN) as ws:
        assert json.loads(ws.receive_text()) == [
            {"type": "error", "code": "no_table", "reason": "no such table", "v": 1}
        ]


def test_a_flood_is_rate_limited(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with connect(client, made["id"], made["token"]) as ws:
        sock = hello(ws, made["token"])
        for _ in range(40):
            sock.send({"type": "hint"})
        errors = [sock.recv() for _ in range(41)]
        assert any(m.get("code") == "rate_limited" for m in errors)


def test_a_slow_connection_is_dropped_not_buffered() -> None:
    connection = Connection(seat=0, queue_size=4)
    for n in range(10):
        connection.send(b"%d" % n)
    assert connection.dropped and connection.reason.startswith("too slow")
    assert list(connection.queue) == [None]


# --- rematch, store and restart ----------------------------------------------------------


def test_rematch_seats_the_same_people_at_a_new_table(client: TestClient) -> None:
    made = create(client)
    with connect(client, made["id"], made["token"]) as ws:
        sock = hello(ws, made["token"])
        play_out(sock, random.Random(2))
        sock.send({"type": "rematch"})
        info = sock.until(lambda m: m["type"] == "table" and m["rematch"] is not None)
    with connect(client, info["rematch"], made["token"]) as ws:
        again = hello(ws, made["token"])
        first = again.recv()
        assert first["you"] == 0 and first["status"] == "running"


def test_every_step_is_stored_before_anyone_is_told(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    bob = client.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"}).json()
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    assert hall.store is not None
    with connect(client, made["id"], made["token"]) as ws0:
        ann = hello(ws0, made["token"])
        turn = ann.until(lambda m: m["type"] == "turn")
        token = made["token"] if turn["seat"] == 0 else bob["token"]
    stored = stored_steps(client, made["id"])

    def broken(*args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(hall.store, "append_many", broken)
    with connect(client, made["id"], token) as ws:
        sock = hello(ws, token)
        prompt = sock.until(lambda m: m["type"] == "prompt")
        sock.send({"type": "move", "state_id": prompt["state_id"], "action": {"type": "mia.roll"}})
        with pytest.raises(WebSocketDisconnect):
            sock.until(lambda m: False)
    assert not any(m["type"] == "update" for m in sock.messages)
    assert made["id"] not in hall.tables
    assert stored_steps(client, made["id"]) == stored


def seated_hall(db: str, tables: int) -> tuple[Hall, list[tuple[str, list[Connection]]]]:
    """A hall with `tables` running two-person Mia tables, both seats connected."""
    store = TableStore(Store(db).engine)
    counter = iter(range(1, 10_000))
    hall = Hall(store, dice=lambda: seeded(next(counter)))
    seated = []
    for _ in range(tables):
        made = hall.create({"rules": "mia", "seats": [{"kind": "human"}] * 2, "name": "Ann"})
        live = hall.tables[made["id"]]
        live.claim("Bob")
        connections = [Connection(seat, hall=hall) for seat in range(2)]
        for connection in connections:
            live.connect(connection)
        seated.append((live.id, connections))
    return hall, seated


def move_now(hall: Hall, table_id: str, connections: list[Connection]) -> None:
    """The seat to move rolls; its messages stay queued in `connections`."""
    table = hall.tables[table_id].table
    assert table is not None
    pending = table.pending()
    assert pending is not None
    move = {"type": "move", "state_id": pending.state_id, "action": {"type": "mia.roll"}}
    hall.tables[table_id].receive(connections[pending.seat], json.dumps(move))


def updates(connection: Connection) -> int:
    return sum(1 for data in connection.queue if data and b'"type":"update"' in data)


def test_moves_of_one_loop_turn_are_committed_together_before_anyone_is_told(
    tmp_path: Path,
) -> None:
    async def play() -> None:
        hall, seated = seated_hall(database(tmp_path), 3)
        await asyncio.sleep(0)  # the seat draws of the new tables are committed
        assert hall.store is not None
        before = [len(hall.store.steps(table_id)) for table_id, _ in seated]
        told = [updates(c) for _, connections in seated for c in connections]
        commits: list[int] = []
        append_many = hall.store.append_many

        def counted(steps: list[dict[str, Any]]) -> None:
            commits.append(len(steps))
            append_many(steps)

        hall.store.append_many = counted  # type: ignore[method-assign]
        for table_id, connections in seated:
            move_now(hall, table_id, connections)
        # Accepted, not yet stored: nobody has heard of it.
        assert [len(hall.store.steps(t)) for t, _ in seated] == before
        assert [updates(c) for _, connections in seated for c in connections] == told
        await asyncio.sleep(0)
        assert len(commits) == 1 and commits[0] >= 3  # one transaction for three tables
        after = [len(hall.store.steps(t)) for t, _ in seated]
        assert all(a > b for a, b in zip(after, before, strict=True))
        assert all(
            updates(c) > n for c, n in zip([c for _, cs in seated for c in cs], told, strict=True)
        )

    asyncio.run(play())


def test_a_move_reaches_each_seat_as_one_frame_of_its_messages(tmp_path: Path) -> None:
    async def play() -> None:
        hall, seated = seated_hall(database(tmp_path), 1)
        await asyncio.sleep(0)  # the turn that stores and frames the greetings
        await asyncio.sleep(0)  # the next one writes them
        ((table_id, connections),) = seated
        for connection in connections:
            connection.queue.clear()
        move_now(hall, table_id, connections)
        assert all(not c.queue for c in connections)  # nothing before the end of the turn
        await asyncio.sleep(0)
        assert all(not c.queue for c in connections)  # stored; written at the next turn
        await asyncio.sleep(0)
        table = hall.tables[table_id].table
        assert table is not None and (pending := table.pending()) is not None
        for connection in connections:
            (frame,) = connection.queue  # one frame, a list of this seat's messages
            assert frame is not None
            messages = json.loads(frame)
            kinds = [m["type"] for m in messages]
            assert kinds == ["update", "turn"] + (
                ["prompt"] if connection.seat == pending.seat else []
            )
            assert all(m["recipient"] == connection.seat for m in messages if m["type"] == "update")

    asyncio.run(play())


def test_a_failed_write_closes_only_the_table_it_belongs_to(tmp_path: Path) -> None:
    async def play() -> None:
        hall, seated = seated_hall(database(tmp_path), 2)
        await asyncio.sleep(0)
        assert hall.store is not None
        (bad, bad_connections), (good, good_connections) = seated
        stored = len(hall.store.steps(bad))
        append_many = hall.store.append_many

        def broken(steps: list[dict[str, Any]]) -> None:
            if any(step["table_id"] == bad for step in steps):
                raise OSError("disk full")
            append_many(steps)

        hall.store.append_many = broken  # type: ignore[method-assign]
        told = updates(good_connections[0])
        move_now(hall, bad, bad_connections)
        move_now(hall, good, good_connections)
        await asyncio.sleep(0)
        assert bad not in hall.tables and all(c.dropped for c in bad_connections)
        assert len(hall.store.steps(bad)) == stored
        assert good in hall.tables and not any(c.dropped for c in good_connections)
        assert updates(good_connections[0]) > told

    asyncio.run(play())


def test_a_restarted_server_resumes_every_unfinished_table(tmp_path: Path) -> None:
    db = database(tmp_path)
    with make_client(db, bot_delay=0.05) as client:
        made = create(client, rules="mia", seats=[{"kind": "human"}, {"kind": "human"}])
        bob = client.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"}).json()
        tokens = [made["token"], bob["token"]]
        rng = random.Random(4)
        with (
            connect(client, made["id"], tokens[0]) as ws0,
            connect(client, made["id"], tokens[1]) as ws1,
        ):
            socks = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
            for _ in range(6):
                turn = socks[0].until(lambda m: m["type"] == "turn")
                mover = socks[turn["seat"]]
                prompt = mover.until(lambda m: m["type"] == "prompt")
                action = rng.choice(prompt["view"]["legal_actions"])
                mover.send({"type": "move", "state_id": prompt["state_id"], "action": action})
            socks[0].until(lambda m: m["type"] == "turn")
        with connect(client, made["id"], tokens[0]) as ws:
            before = hello(ws, tokens[0]).until(lambda m: m["type"] == "welcome")
        bots = create(client, rules="mia", seats=[{"kind": "bot", "bot": "honest"}] * 3)
        assert bots["seat"] is None
        with connect(client, bots["id"], None) as ws:
            hello(ws, None).until(lambda m: m["type"] == "update" and m["state_id"] > 5)
    with make_client(db, seed=99) as client:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[made["id"]]["status"] == "running"
        with connect(client, made["id"], tokens[0]) as ws:
            sock = hello(ws, tokens[0])
            assert sock.recv()["you"] == 0
            after = sock.until(lambda m: m["type"] == "welcome")
        assert after == before
        with connect(client, bots["id"], None) as ws:
            hello(ws, None).until(lambda m: m["type"] == "table" and m["status"] == "finished")
        replay = client.get(f"/api/replays/{bots['id']}").json()
        assert replay["outcome"]["winners"]
    with make_client(db) as client, connect(client, bots["id"], None) as ws:
        finished = hello(ws, None)  # an old link to a finished table still shows its end
        assert finished.recv()["status"] == "finished"
        end = finished.until(lambda m: m["type"] == "welcome")
        assert end["view"]["result"]["winners"] == replay["outcome"]["winners"]


def test_serve_is_a_command_and_the_cli_stays_light() -> None:
    code = (
        "import sys; from typer.testing import CliRunner; from bluffdice.cli import app;"
        "r = CliRunner().invoke(app, ['serve', '--help']);"
        "assert r.exit_code == 0 and '--db' in r.output, r.output;"
        "assert 'starlette' not in sys.modules and 'uvicorn' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_version_2_store_gains_the_browser_tables(tmp_path: Path) -> None:
    from sqlalchemy import inspect, text

    from bluffdice.store.schema import SCHEMA_VERSION, stored_version

    db = str(tmp_path / "old.db")
    store = Store(db)
    with store.engine.begin() as connection:
        connection.execute(text("DROP TABLE web_access"))  # schema 6
        connection.execute(text("DROP TABLE web_fair"))  # schema 5
        connection.execute(text("DROP TABLE web_steps"))
        connection.execute(text("DROP TABLE web_tables"))
        connection.execute(text("ALTER TABLE games DROP COLUMN person_seat"))  # schema 4
        connection.execute(text("UPDATE bluffdice_schema SET version = 2"))
    store.close()
    upgraded = Store(db)
    assert stored_version(upgraded.engine)[0] == SCHEMA_VERSION
    assert {"web_tables", "web_steps", "web_fair"} <= set(
        inspect(upgraded.engine).get_table_names()
    )
    with make_client(db) as client:
        assert create(client)["token"]


def test_the_server_checkpoints_sqlite_in_the_background(tmp_path: Path) -> None:
    import time

    from sqlalchemy import text

    tables = TableStore(Store(str(tmp_path / "wal.db")).engine)
    tables.create(
        id="t", game="mia", rules="mia", players=2, limit=None, seats=[], status="running"
    )

    def wal_frames() -> int:
        """Frames in the write-ahead log now (a passive checkpoint reports them)."""
        with tables.engine.connect() as connection:
            busy, frames, done = connection.execute(text("PRAGMA wal_checkpoint(PASSIVE)")).one()
        return int(frames)

    def write(commits: int, start: int) -> None:
        for c in range(commits):
            n0 = start + 100 * c
            tables.append_many(
                [
                    {"table_id": "t", "n": n, "actor": 0, "text": "x" * 200}
                    for n in range(n0, n0 + 100)
                ]
            )

    assert tables.checkpoint_in_background(every=0.05)
    assert not tables.checkpoint_in_background()  # not twice
    with tables.engine.connect() as connection:
        assert connection.execute(text("PRAGMA wal_autocheckpoint")).scalar() == 0
    write(40, 0)
    seen = tables.checkpoints_done
    deadline = time.monotonic() + 10
    while tables.checkpoints_done < seen + 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert tables.checkpoints_done >= seen + 2
    # The thread copied the log into the database, so the next commit starts the log
    # again from its beginning: it holds that commit's frames only, not all 41.
    write(1, 10_000)
    assert wal_frames() < 40
    assert len(tables.steps("t")) == 4100
    tables.stop_checkpoints()
    with tables.engine.connect() as connection:
        assert connection.execute(text("PRAGMA wal_autocheckpoint")).scalar() == 1000
    assert not TableStore(Store(":memory:").engine).checkpoint_in_background()
