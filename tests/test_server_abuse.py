"""The abuses a stranger may try on `bluffdice serve`, each played against a live server
(uvicorn on a free port, real sockets): table floods, bot-only tables, large bodies,
connection floods, endless games, long and many reviews, tables left to rot, a restart
over thousands of stored tables. Each is refused or bounded with a clear message, and
each leaves the other tables, their steps and the lobby's listing as they were.

Addresses: every loopback address (127.0.0.0/8) reaches the server, so a client bound to
127.0.0.2 is a second stranger."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import uvicorn
from sqlalchemy import insert
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bluffdice.server import Hall, create_app
from bluffdice.server.limits import Limits
from bluffdice.server.refusals import token_digest
from bluffdice.store import Store
from bluffdice.store.tables import TableStore, WebAccessRow, WebTableRow
from tests.server_support import Msg, Seat, serving

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
BOTS = [{"kind": "bot", "bot": "honest"}, {"kind": "bot", "bot": "honest"}]


def hall_of(server: uvicorn.Server) -> Hall:
    """The hall behind a served app (the app keeps it in its state)."""
    return cast("Hall", cast("Any", server.config.app).state.hall)


def http(address: str, source: str = "127.0.0.1") -> httpx.AsyncClient:
    """A client of the server whose requests come from `source` (a loopback address)."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    return httpx.AsyncClient(base_url=f"http://{address}", transport=transport, timeout=20)


def body(seats: list[dict[str, str]] = TWO_PEOPLE, **extra: Any) -> dict[str, Any]:
    return {"rules": "mia(lives=3)", "seats": seats, "name": "Ann", "listed": True, **extra}


async def running_table(client: httpx.AsyncClient) -> tuple[str, list[str]]:
    """A table of two people, both seated (it runs and waits for their moves)."""
    made = (await client.post("/api/tables", json=body())).json()
    bob = (await client.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"})).json()
    return made["id"], [made["token"], bob["token"]]


def snapshot(hall: Hall) -> dict[str, Any]:
    """What a refused abuse must leave as it was: every table in memory with its status,
    seats and steps, the stored tables, and the lobby's listing."""
    tables = {
        t.id: (
            t.status,
            [s.stored() for s in t.seats],
            [] if t.table is None else [e.text for e in t.table.log],
        )
        for t in hall.tables.values()
    }
    assert hall.store is not None
    stored = {s.id: s.status for s in hall.store.tables(limit=100_000)}
    return {"tables": tables, "stored": stored, "listing": hall.listing(0, 50)}


async def socket(
    address: str, table_id: str, token: str | None = None, source: str = "127.0.0.1"
) -> Seat:
    ws = await connect(f"ws://{address}/ws/{table_id}", local_addr=(source, 0))
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return Seat(ws)


async def refused_socket(
    address: str, table_id: str, source: str = "127.0.0.1"
) -> tuple[Msg, int | None, str]:
    """A websocket the server turns away: the error it says, the close code and reason."""
    ws: ClientConnection = await connect(f"ws://{address}/ws/{table_id}", local_addr=(source, 0))
    # no hello: the server turns it away before it would read one
    said = json.loads(await asyncio.wait_for(ws.recv(), 10))
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    frame = closed.value.rcvd
    assert frame is not None
    return said[0], frame.code, frame.reason


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


# --- tables ------------------------------------------------------------------------------


def test_a_table_flood_is_capped_per_address_and_in_all(tmp_path: Path) -> None:
    limits = Limits(tables_per_address=3, tables=5)

    async def scenario() -> None:
        async with serving(tmp_path, limits) as (address, server):
            hall = hall_of(server)
            async with http(address) as one, http(address, "127.0.0.2") as two:
                for _ in range(3):
                    assert (await one.post("/api/tables", json=body())).status_code == 200
                before = snapshot(hall)
                mine = await one.post("/api/tables", json=body())
                assert mine.status_code == 429
                assert mine.json()["error"] == (
                    "you have 3 tables open or playing, the most one address may have: "
                    "finish or leave one first"
                )
                assert snapshot(hall) == before
                for _ in range(2):  # another address still has room, up to the total
                    assert (await two.post("/api/tables", json=body())).status_code == 200
                before = snapshot(hall)
                for client in (one, two):
                    full = await client.post("/api/tables", json=body())
                    assert full.status_code == 429
                    assert full.json()["error"] == (
                        "this server has 5 tables open or playing, its most: try again later"
                    )
                assert snapshot(hall) == before

    run(scenario)


def test_a_flood_of_refused_creates_keeps_memory_and_the_store_at_the_cap(
    tmp_path: Path,
) -> None:
    limits = Limits(tables_per_address=2, tables=6)

    async def scenario() -> None:
        async with serving(tmp_path, limits) as (address, server):
            hall = hall_of(server)
            clients = [http(address, f"127.0.0.{n}") for n in range(2, 12)]
            codes: list[int] = []
            try:
                for _ in range(21):  # ten strangers at once, 21 times each
                    answers = await asyncio.gather(
                        *(c.post("/api/tables", json=body()) for c in clients)
                    )
                    codes += [a.status_code for a in answers]
            finally:
                for client in clients:
                    await client.aclose()
            assert codes.count(200) == 6 and codes.count(429) == len(codes) - 6 == 204
            assert len(hall.active_tables()) == 6
            assert len(hall.tables) == 6
            assert hall.store is not None and len(hall.store.tables(limit=100_000)) == 6

    run(scenario)


def test_bot_only_tables_are_refused_by_default_and_capped_when_allowed(tmp_path: Path) -> None:
    async def refused_by_default() -> None:
        async with serving(tmp_path, db="default.db") as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                await running_table(client)
                before = snapshot(hall)
                answer = await client.post("/api/tables", json=body(BOTS))
                assert answer.status_code == 400
                assert (
                    answer.json()["error"] == "tables of bots only are switched off on this server"
                )
                assert snapshot(hall) == before

    async def capped() -> None:
        async with serving(tmp_path, Limits(bot_tables=2), db="capped.db") as (address, server):
            hall = hall_of(server)
            hall.bot_delay = 30.0  # the bots' games stay running while the cap is tried
            async with http(address) as client:
                await running_table(client)
                for _ in range(2):
                    made = await client.post("/api/tables", json=body(BOTS))
                    assert made.status_code == 200
                before = snapshot(hall)
                answer = await client.post("/api/tables", json=body(BOTS))
                assert answer.status_code == 429
                assert answer.json()["error"] == (
                    "this server runs 2 tables of bots only, its most: try again later"
                )
                assert snapshot(hall) == before
                # a table with a person at it is not a bot table
                assert (await client.post("/api/tables", json=body())).status_code == 200

    run(refused_by_default)
    run(capped)


# --- bodies ------------------------------------------------------------------------------


async def raw_post(address: str, head: str, chunks: int = 0) -> tuple[str, int]:
    """POST /api/tables by hand: the head, then up to `chunks` chunks of 16 KiB (chunked)
    while no answer came. Returns the answer and how many chunks were sent."""
    host, port = address.split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(head.encode())
    sent = 0
    answer = asyncio.ensure_future(reader.read(65536))
    try:
        while sent < chunks and not answer.done():
            writer.write(b"4000\r\n" + b"x" * 0x4000 + b"\r\n")
            try:
                await writer.drain()
            except ConnectionError:  # the server answered and hung up: it read no more
                break
            sent += 1
            await asyncio.sleep(0)
        return (await asyncio.wait_for(answer, 10)).decode(errors="replace"), sent
    finally:
        writer.close()


def test_a_body_over_the_limit_is_refused_by_length_unread_and_when_streamed(
    tmp_path: Path,
) -> None:
    limit = 4096
    words = f'{{"error":"the request body is over {limit} bytes, the most this server reads"}}'

    async def scenario() -> None:
        async with serving(tmp_path, Limits(body_bytes=limit)) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                await running_table(client)
            before = snapshot(hall)
            # 1 GB announced, not a byte of it sent: the answer comes anyway
            said, _ = await raw_post(
                address,
                f"POST /api/tables HTTP/1.1\r\nHost: {address}\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n",
            )
            assert said.startswith("HTTP/1.1 413 ") and said.endswith(words), said
            # streamed without a length: cut off once it passes the limit
            said, sent = await raw_post(
                address,
                f"POST /api/tables HTTP/1.1\r\nHost: {address}\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                chunks=4096,  # 64 MiB, if it were all read
            )
            assert said.startswith("HTTP/1.1 413 ") and said.endswith(words), said
            assert sent < 4096
            assert snapshot(hall) == before
            async with http(address) as client:  # a body within the limit is read
                assert (await client.post("/api/tables", json=body())).status_code == 200

    run(scenario)


def test_a_refused_length_is_not_read_and_a_stream_is_read_only_past_the_limit() -> None:
    """The ASGI application itself: how many body events it asks for."""
    limit = 1000
    app = create_app(None, Hall(None, limits=Limits(body_bytes=limit)))

    async def post(headers: list[tuple[bytes, bytes]]) -> tuple[int, int]:
        asked = 0
        status = 0

        async def receive() -> dict[str, Any]:
            nonlocal asked
            asked += 1
            return {"type": "http.request", "body": b"x" * 300, "more_body": True}

        async def send(event: dict[str, Any]) -> None:
            nonlocal status
            if event["type"] == "http.response.start":
                status = event["status"]

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/tables",
            "raw_path": b"/api/tables",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"testserver"), *headers],
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
        }
        await app(scope, receive, send)  # type: ignore[arg-type]
        return status, asked

    assert asyncio.run(post([(b"content-length", b"800000000")])) == (413, 0)
    assert asyncio.run(post([(b"transfer-encoding", b"chunked")])) == (413, 4)  # 1,200 > 1,000


# --- connections -------------------------------------------------------------------------


def test_connection_floods_are_closed_per_table_and_per_address(tmp_path: Path) -> None:
    limits = Limits(connections_per_table=3, connections_per_address=5)

    async def scenario() -> None:
        async with serving(tmp_path, limits) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                first, _ = await running_table(client)
                second, _ = await running_table(client)
            watching = [await socket(address, first) for _ in range(3)]
            watching.append(await socket(address, second))
            for seat in watching:
                await seat.until(lambda m: m["type"] == "welcome")
            before = snapshot(hall)
            said, code, reason = await refused_socket(address, first)
            assert said["code"] == "table_crowded"
            assert (code, reason) == (4429, "this table has as many viewers as it takes")
            assert snapshot(hall) == before  # the refused one never joined
            watching.append(await socket(address, second))  # the fifth from this address
            await watching[-1].until(lambda m: m["type"] == "welcome")
            before = snapshot(hall)
            said, code, reason = await refused_socket(address, second)
            assert said["code"] == "too_many_connections"
            assert (code, reason) == (4429, "too many connections from your address")
            assert snapshot(hall) == before
            assert [len(hall.tables[t].connections) for t in (first, second)] == [3, 2]
            # another address is let in
            other = await socket(address, second, source="127.0.0.2")
            info = await other.until(lambda m: m["type"] == "table")
            assert info["spectators"] == 3
            # a connection that leaves makes room again
            await watching.pop().ws.close()
            await asyncio.sleep(0.1)
            again = await socket(address, second)
            assert (await again.recv())["type"] == "table"
            for seat in [*watching, other, again]:
                await seat.ws.close()

    run(scenario)


# --- games and reviews -------------------------------------------------------------------


async def play(seat: Seat, done: Callable[[Msg], bool]) -> Msg:
    """Answer every prompt with its first legal move until `done`."""
    while True:
        message = await seat.recv()
        if done(message):
            return message
        if message["type"] == "prompt":
            action = message["view"]["legal_actions"][0]
            move = {"type": "move", "state_id": message["state_id"], "action": action}
            await seat.ws.send(json.dumps(move))


def test_a_game_that_reaches_game_steps_is_abandoned_as_long(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, Limits(game_steps=12)) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                await running_table(client)
                made = (
                    await client.post(
                        "/api/tables",
                        json=body(
                            [{"kind": "human"}, {"kind": "bot", "bot": "honest"}],
                            rules="mia(lives=99)",
                        ),
                    )
                ).json()
                others = snapshot(hall)["tables"]
                others.pop(made["id"])
                seat = await socket(address, made["id"], made["token"])
                end = await play(seat, lambda m: m["type"] == "table" and "abandoned" in m)
                assert (end["abandoned"], end["status"]) == ("long", "abandoned")
                assert hall.store is not None
                stored = hall.store.get(made["id"])
                assert stored is not None
                assert (stored.status, stored.result) == ("abandoned", {"abandoned": "long"})
                assert 12 <= len(hall.store.steps(made["id"])) <= 14
                gone = await client.get(f"/api/tables/{made['id']}")
                assert gone.status_code == 404
                assert made["id"] not in hall.tables
                assert snapshot(hall)["tables"] == others
                await seat.ws.close()

    run(scenario)


async def finished_game(client: httpx.AsyncClient, address: str, rules: str) -> dict[str, Any]:
    """A game of a person against a bot, played to its end; the table as it was made."""
    made = (
        await client.post(
            "/api/tables",
            json=body([{"kind": "human"}, {"kind": "bot", "bot": "honest"}], rules=rules),
        )
    ).json()
    seat = await socket(address, made["id"], made["token"])
    await play(seat, lambda m: m["type"] == "table" and m["status"] == "finished")
    await seat.ws.close()
    return cast("dict[str, Any]", made)


def test_a_game_longer_than_review_steps_is_not_reviewed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with (
            serving(tmp_path, Limits(review_steps=3)) as (address, _),
            http(address) as client,
        ):
            made = await finished_game(client, address, "mia(lives=1)")
            steps = len((await client.get(f"/api/replays/{made['id']}")).json()["steps"])
            assert steps > 3
            answer = await client.get(f"/api/replays/{made['id']}/review")
            assert answer.status_code == 413
            assert answer.json()["error"] == (
                f"this game has {steps} steps: the server reviews games of up to 3 steps "
                "(bluffdice review reviews any game on your own machine)"
            )

    run(scenario)


@dataclass(frozen=True)
class WaitingJob:
    """A review job (as `Hall.review_job` makes them) that says where it ran, and works
    until the test lets it finish: until `folder` has a file "release"."""

    table_id: str
    folder: str

    def rate(self) -> dict[str, Any]:
        folder = Path(self.folder)
        (folder / f"rated-{self.table_id}").touch()
        deadline = time.monotonic() + 20
        while not (folder / "release").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return {"id": self.table_id, "ratings": [], "pid": os.getpid(), "nice": os.nice(0)}


def waiting_jobs(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Callable[[], list[str]]:
    """Every review made a `WaitingJob`; the tables whose job has started rating."""
    folder.mkdir()
    monkeypatch.setattr(
        Hall, "review_job", lambda hall, table_id: WaitingJob(table_id, str(folder))
    )
    return lambda: sorted(p.name.removeprefix("rated-") for p in folder.glob("rated-*"))


def test_a_finished_game_is_reviewed_for_every_seat_and_kept(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path) as (address, _), http(address) as client:
            made = await finished_game(client, address, "mia(lives=2)")
            answer = await client.get(f"/api/replays/{made['id']}/review")
            assert answer.status_code == 200
            review = answer.json()
            assert (review["id"], review["reason"]) == (made["id"], None)
            assert {row["seat"] for row in review["ratings"]} == {0, 1}
            steps = [row["step"] for row in review["ratings"]]
            assert steps == sorted(steps)
            assert review["models"]
            again = await client.get(f"/api/replays/{made['id']}/review")
            assert again.json() == review

    run(scenario)


def test_a_review_is_rated_in_a_worker_process_of_lowest_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker is not the server's process, gives way to it on a busy CPU, and stops
    with the server."""
    rated = waiting_jobs(monkeypatch, tmp_path / "jobs")
    (tmp_path / "jobs" / "release").touch()

    async def scenario() -> int:
        async with serving(tmp_path) as (address, _), http(address) as client:
            answer = (await client.get("/api/replays/game0/review")).json()
            assert answer["pid"] != os.getpid()
            assert answer["nice"] == 19
            assert rated() == ["game0"]
            assert answer["pid"] in [p.pid for p in multiprocessing.active_children()]
            return int(answer["pid"])

    worker = asyncio.run(scenario())
    deadline = time.monotonic() + 10
    while worker in [p.pid for p in multiprocessing.active_children()]:
        assert time.monotonic() < deadline, "the review worker outlived the server"
        time.sleep(0.05)


def test_reviews_beyond_the_running_and_the_queued_are_refused_as_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rated = waiting_jobs(monkeypatch, tmp_path / "jobs")

    async def scenario() -> None:
        async with serving(tmp_path, Limits(reviews=1, review_queue=1)) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                await running_table(client)
                before = snapshot(hall)
                asked = [
                    asyncio.create_task(client.get(f"/api/replays/game{n}/review"))
                    for n in range(2)
                ]
                deadline = time.monotonic() + 20  # the first review starts the worker
                while not rated():  # one is rated, the other waits for the worker
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.01)
                await asyncio.sleep(0.1)
                busy = await client.get("/api/replays/game2/review")
                assert busy.status_code == 503
                assert busy.json()["error"] == (
                    "the server is reviewing other games: try again in a minute"
                )
                (tmp_path / "jobs" / "release").touch()
                answers = await asyncio.gather(*asked)
                assert [a.status_code for a in answers] == [200, 200]
                assert rated() == ["game0", "game1"]  # the refused one never ran
                assert (await client.get("/api/replays/game3/review")).status_code == 200
                assert snapshot(hall) == before

    run(scenario)


# --- expiry ------------------------------------------------------------------------------


def test_an_open_table_expires_after_open_seconds(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, Limits(open_seconds=1.0)) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                made = (await client.post("/api/tables", json=body())).json()  # Bob never comes
                viewer = await socket(address, made["id"], made["token"])
                await viewer.until(lambda m: m["type"] == "table")
                await asyncio.sleep(0.5)
                playing, _ = await running_table(client)  # filled: it does not expire
                kept = snapshot(hall)["tables"][playing]
                assert hall.sweep() == 0
                await asyncio.sleep(0.7)
                assert hall.sweep() == 1
                told = await viewer.until(lambda m: m["type"] == "table" and "abandoned" in m)
                assert told["abandoned"] == "expired"
                assert hall.store is not None
                stored = hall.store.get(made["id"])
                assert stored is not None and stored.result == {"abandoned": "expired"}
                assert (await client.get(f"/api/tables/{made['id']}")).status_code == 404
                listing = (await client.get("/api/tables")).json()
                assert [t["id"] for t in listing["tables"]] == [playing]
                assert snapshot(hall)["tables"] == {playing: kept}
                await viewer.ws.close()

    run(scenario)


def test_a_running_table_expires_after_idle_seconds_without_a_step(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, Limits(idle_seconds=1.0)) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                idle, _ = await running_table(client)
                busy, tokens = await running_table(client)
                waiting = (await client.post("/api/tables", json=body())).json()["id"]
                seats = [await socket(address, busy, t) for t in tokens]
                await asyncio.sleep(0.6)
                turn = await seats[0].until(lambda m: m["type"] == "turn")
                mover = seats[turn["seat"]]
                prompt = await mover.until(lambda m: m["type"] == "prompt")
                action = prompt["view"]["legal_actions"][0]
                await mover.ws.send(
                    json.dumps({"type": "move", "state_id": prompt["state_id"], "action": action})
                )
                await mover.until(lambda m: m["type"] == "update")
                await asyncio.sleep(0.5)
                kept = {k: v for k, v in snapshot(hall)["tables"].items() if k != idle}
                assert hall.sweep() == 1
                assert hall.store is not None
                stored = hall.store.get(idle)
                assert stored is not None
                assert (stored.status, stored.result) == ("abandoned", {"abandoned": "expired"})
                assert snapshot(hall)["tables"] == kept
                assert set(kept) == {busy, waiting}
                for seat in seats:
                    await seat.ws.close()

    run(scenario)


# --- restart -----------------------------------------------------------------------------


def store_open_tables(path: Path, count: int) -> list[str]:
    """`count` open tables written straight to a SQLite store, as a flood would leave
    them: one person waiting at each for a second one."""
    tables = TableStore(Store(str(path)).engine)
    ids = [secrets.token_urlsafe(12) for _ in range(count)]
    now = datetime.now(UTC).replace(tzinfo=None)
    seat = {"kind": "human", "name": "Ann", "bot": None, "token": token_digest("t")}
    free = {"kind": "human", "name": None, "bot": None, "token": None}
    with tables.engine.begin() as connection:
        connection.execute(
            insert(WebTableRow),
            [
                {
                    "id": table_id,
                    "created": now,
                    "game": "mia",
                    "rules": "mia(lives=3)",
                    "players": 2,
                    "limit": None,
                    "status": "open",
                    "seats": [seat, free],
                    "rematch": None,
                    "result": None,
                }
                for table_id in ids
            ],
        )
        connection.execute(
            insert(WebAccessRow),
            [{"table_id": t, "listed": n % 2 == 0, "host": None} for n, t in enumerate(ids)],
        )
    tables.engine.dispose()
    return ids


def test_a_restart_over_thousands_of_stored_tables_serves_at_once(tmp_path: Path) -> None:
    count = 3000
    ids = store_open_tables(tmp_path / "serve.db", count)
    limits = Limits(tables=10_000, resume_batch=50)

    async def scenario() -> None:
        started = time.monotonic()
        async with serving(tmp_path, limits) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                first = await client.get("/api/tables")
                answered = time.monotonic() - started
                assert first.status_code == 200
                assert len(hall.tables) < count  # resumed lazily, not all before serving
                assert answered < 5.0, f"the first listing took {answered:.1f} s"
                late = ids[0]  # asked for by its link before its turn to load
                info = await client.get(f"/api/tables/{late}")
                assert info.status_code == 200 and info.json()["status"] == "open"
                for table_id in ids[1::97]:
                    assert (await client.get(f"/api/tables/{table_id}")).status_code == 200
                deadline = time.monotonic() + 30
                while len(hall.tables) < count and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                assert set(hall.tables) == set(ids)
                assert all(hall.get(t).status == "open" for t in ids)
                listing = (await client.get("/api/tables")).json()
                assert listing["total"] == count // 2 and len(listing["tables"]) == 20

    run(scenario)


def test_a_restart_keeps_every_link_working_beyond_the_tables_it_resumes(
    tmp_path: Path,
) -> None:
    """A restart loads only the newest `limits.tables` open tables; an older one is
    loaded when its link is opened, so a friend's invite never stops working."""
    ids = store_open_tables(tmp_path / "serve.db", 30)
    limits = Limits(tables=10, resume_batch=50)

    async def scenario() -> None:
        async with serving(tmp_path, limits) as (address, server):
            hall = hall_of(server)
            async with http(address) as client:
                await client.get("/api/tables")
                deadline = time.monotonic() + 10
                while len(hall.tables) < 10 and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                resumed = set(hall.tables)
                assert len(resumed) == 10
                older = [t for t in ids if t not in resumed]
                assert len(older) == 20
                for table_id in older[:5]:
                    info = await client.get(f"/api/tables/{table_id}")
                    assert info.status_code == 200 and info.json()["status"] == "open"
                assert (await client.get("/api/tables/nosuchtable")).status_code == 404

    run(scenario)
