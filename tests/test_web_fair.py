"""Provably fair dice at a browser table: the commitment shown from the start, every
person's seed taken before the first roll, the server seed kept secret until the end and
kept in the store across a restart, and the export that `bluffdice verify` checks."""

from __future__ import annotations

import http.server
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.server import Hall, create_app
from bluffdice.store import Store
from bluffdice.store.tables import TableStore
from bluffdice.table import seeded
from bluffdice.table.fair import commitment_of, load_fair_record, verify
from tests.test_server import ORIGIN, Msg, create, database, hello, play_out

SECRET = bytes(range(32))
FAIR = {"dice": "fair"}


def fair_client(db: str, bot_delay: float = 0) -> TestClient:
    tables = TableStore(Store(db).engine)
    hall = Hall(tables, dice=lambda: seeded(1), bot_delay=bot_delay, server_seed=lambda: SECRET)
    return TestClient(create_app(tables, hall))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with fair_client(database(tmp_path)) as c:
        yield c


def seed(client: TestClient, table: str, token: str, text: str) -> None:
    answer = client.post(f"/api/tables/{table}/seed", json={"token": token, "seed": text})
    assert answer.status_code == 200, answer.text


def play_fair_game(client: TestClient, rng: random.Random) -> tuple[Msg, list[str]]:
    """Ann creates a fair Mia table with two bots, gives her seed, plays it out. Returns
    the table's info at the end and every frame and answer she received before it."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "honest"}, {"kind": "bot", "bot": "odds"}]
    made = create(client, seats=seats, **FAIR)
    table = made["id"]
    info = client.get(f"/api/tables/{table}").json()
    assert info["fair"]["commitment"] == commitment_of(SECRET)
    assert info["status"] == "open" and info["fair"]["waiting"] == [0]
    texts = [json.dumps(info)]
    with client.websocket_connect(f"/ws/{table}", headers=ORIGIN) as ws:
        sock = hello(ws, made["token"])
        assert sock.recv()["fair"]["seed"] is None
        seed(client, table, made["token"], "ann's seed")
        assert client.get(f"/api/tables/{table}").json()["status"] == "running"
        late = client.post(f"/api/tables/{table}/seed", json={"token": made["token"], "seed": "x"})
        assert late.status_code == 400 and "closed" in late.json()["error"]
        # an early export is refused: the seed would tell the dice to come
        early = client.get(f"/api/tables/{table}/fair")
        assert early.status_code == 404 and "over" in early.json()["error"]
        texts.append(early.text)
        play_out(sock, rng)
        texts += [json.dumps(f) for f in sock.messages[:-1]]
    return client.get(f"/api/tables/{table}").json(), texts


def test_a_table_waits_for_every_persons_seed(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], **FAIR)
    table = made["id"]
    bob = client.post(f"/api/tables/{table}/join", json={"name": "Bob"}).json()
    info = client.get(f"/api/tables/{table}").json()
    assert info["status"] == "open" and info["fair"]["waiting"] == [0, 1]
    seed(client, table, bob["token"], "")  # a seed may be empty: Bob declines to add one
    assert client.get(f"/api/tables/{table}").json()["fair"]["waiting"] == [0]
    seed(client, table, made["token"], "ann")
    assert client.get(f"/api/tables/{table}").json()["status"] == "running"


def test_a_fair_table_commits_first_takes_seeds_and_verifies(client: TestClient) -> None:
    info, texts = play_fair_game(client, random.Random(3))
    assert info["status"] == "finished"
    # the secret reached nobody while the game ran
    assert not any(SECRET.hex() in text for text in texts)
    export = client.get(f"/api/tables/{info['id']}/fair")
    assert export.status_code == 200
    fair = load_fair_record(export.content)
    assert fair.server_seed == SECRET.hex()
    assert fair.commitment == info["fair"]["commitment"]
    assert fair.client_seeds == ("ann's seed", "", "")
    assert fair.digest == info["fair"]["digest"]
    verdict = verify(fair)
    assert verdict.verified, verdict.problem
    assert verdict.finished and verdict.rolls >= 2


def test_a_tampered_export_fails_verify(client: TestClient, tmp_path: Path) -> None:
    info, _ = play_fair_game(client, random.Random(4))
    export = client.get(f"/api/tables/{info['id']}/fair").json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(export))
    result = CliRunner().invoke(
        app, ["verify", str(good), "--commitment", info["fair"]["commitment"]]
    )
    assert result.exit_code == 0 and "verified" in result.output
    roll = next(i for i, r in enumerate(export["rolls"]) if r["faces"] == 6)
    tampered = json.loads(json.dumps(export))
    dice = tampered["rolls"][roll]["dice"]
    dice[0] = dice[0] % 6 + 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    result = CliRunner().invoke(app, ["verify", str(bad)])
    assert result.exit_code == 1
    assert f"roll {roll + 1}" in result.output and "not verified" in result.output
    tampered = json.loads(json.dumps(export))
    tampered["client_seeds"][1] = "someone else's seed"
    bad.write_text(json.dumps(tampered))
    assert CliRunner().invoke(app, ["verify", str(bad)]).exit_code == 1


def test_a_restarted_server_resumes_a_fair_table_with_the_same_dice(tmp_path: Path) -> None:
    db = database(tmp_path)
    with fair_client(db) as client:
        made = create(client, rules="mia(lives=3)", **FAIR)
        table = made["id"]
        seed(client, table, made["token"], "mine")
        with client.websocket_connect(f"/ws/{table}", headers=ORIGIN) as ws:
            sock = hello(ws, made["token"])
            prompts = 0
            rng = random.Random(5)
            while prompts < 3:
                message = sock.recv()
                assert message.get("status") != "finished"
                if message["type"] == "prompt":
                    prompts += 1
                    action = rng.choice(message["view"]["legal_actions"])
                    sock.send({"type": "move", "state_id": message["state_id"], "action": action})
    with fair_client(db) as client:
        info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "running"
        assert info["fair"]["commitment"] == commitment_of(SECRET)
        with client.websocket_connect(f"/ws/{table}", headers=ORIGIN) as ws:
            play_out(hello(ws, made["token"]), random.Random(6))
        fair = load_fair_record(client.get(f"/api/tables/{table}/fair").content)
    assert fair.client_seeds == ("mine", "")
    assert verify(fair).verified


def test_seeds_are_refused_where_they_do_not_belong(client: TestClient) -> None:
    plain = create(client)
    answer = client.post(
        f"/api/tables/{plain['id']}/seed", json={"token": plain["token"], "seed": "x"}
    )
    assert answer.status_code == 400 and "fair" in answer.json()["error"]
    made = create(client, **FAIR)
    for body, words in (
        ({"token": "not a token", "seed": "x"}, "seated"),
        ({"token": made["token"], "seed": "x" * 2000}, "at most"),
        ({"token": made["token"], "seed": 5}, "text"),
        ([], "JSON object"),
    ):
        answer = client.post(f"/api/tables/{made['id']}/seed", json=body)
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text
    assert (
        client.post(
            "/api/tables",
            json={
                "rules": "mia",
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "name": "A",
                "dice": "loaded",
            },
        ).status_code
        == 400
    )
    assert msgspec.json.decode(client.get(f"/api/tables/{plain['id']}").content)["fair"] is None


class _Export(http.server.BaseHTTPRequestHandler):
    """Serves one export at /api/tables/good/fair, a refusal elsewhere (like the server)."""

    export = b""

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        if self.path == "/api/tables/good/fair":
            self.send_response(200)
            body = self.export
        else:
            self.send_response(404)
            body = b'{"error": "no such table (it may have finished long ago)"}'
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_verify_reads_a_url_and_says_when_it_cannot(client: TestClient) -> None:
    info, _ = play_fair_game(client, random.Random(8))
    _Export.export = client.get(f"/api/tables/{info['id']}/fair").content
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Export)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        for url in (f"{base}/api/tables/good/fair", f"{base}/t/good", f"{base}/replay/good"):
            result = CliRunner().invoke(app, ["verify", url, "--json"])
            assert result.exit_code == 0, result.output
            assert json.loads(result.output)["verified"] is True
        result = CliRunner().invoke(app, ["verify", f"{base}/t/gone"])
        assert result.exit_code == 2 and "404: no such table" in result.output
    finally:
        server.shutdown()
        server.server_close()  # nothing listens there now: the connection is refused
    result = CliRunner().invoke(app, ["verify", f"{base}/t/good"])
    assert result.exit_code == 2 and "cannot reach" in result.output
    assert "Traceback" not in result.output


def test_a_rematch_of_a_fair_table_commits_anew_and_waits_for_seeds(tmp_path: Path) -> None:
    secrets_made = iter([bytes([1]) * 32, bytes([2]) * 32])
    tables = TableStore(Store(database(tmp_path)).engine)
    hall = Hall(tables, dice=lambda: seeded(1), bot_delay=0, server_seed=lambda: next(secrets_made))
    with TestClient(create_app(tables, hall)) as client:
        made = create(client, **FAIR)
        seed(client, made["id"], made["token"], "first")
        with client.websocket_connect(f"/ws/{made['id']}", headers=ORIGIN) as ws:
            sock = hello(ws, made["token"])
            play_out(sock, random.Random(9))
            sock.send({"type": "rematch"})
            info = sock.until(lambda m: m["type"] == "table" and m["rematch"] is not None)
        again = client.get(f"/api/tables/{info['rematch']}").json()
        assert again["status"] == "open" and again["fair"]["waiting"] == [0]
        assert again["fair"]["commitment"] == commitment_of(bytes([2]) * 32)
        seed(client, again["id"], made["token"], "second")
        assert client.get(f"/api/tables/{again['id']}").json()["status"] == "running"
