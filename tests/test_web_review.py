"""The replay page's review: every decision of every player of a finished browser game,
rated as `bluffdice review` rates it, at the step where it was made, with its model."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bluffdice.games.record import Record
from bluffdice.review import review_game
from tests.test_server import ORIGIN, create, database, hello, make_client, play_out


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(database(tmp_path)) as c:
        yield c


def finished_game(client: TestClient, rules: str, seats: list[dict[str, str]]) -> str:
    made = create(client, rules=rules, seats=seats)
    with client.websocket_connect(f"/ws/{made['id']}", headers=ORIGIN) as ws:
        play_out(hello(ws, made["token"]), random.Random(2))
    table_id: str = made["id"]
    return table_id


def test_the_review_rates_each_players_moves_at_their_steps(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "honest"}, {"kind": "bot", "bot": "odds"}]
    table = finished_game(client, "mia(lives=2)", seats)
    replay = client.get(f"/api/replays/{table}").json()
    review = client.get(f"/api/replays/{table}/review").json()
    assert review["reason"] is None and review["ratings"]
    assert "odds model" in review["models"]
    steps = replay["steps"]
    record = Record(replay["game"], replay["rules"], 3, tuple(s["text"] for s in steps))
    for seat in range(3):
        expected = review_game(record, seat, replay["names"], about=True).to_json()["ratings"]
        mine = [r for r in review["ratings"] if r["seat"] == seat]
        assert [{k: v for k, v in r.items() if k != "seat"} for r in mine] == expected
        for rating in mine:  # beside the move of the player who made it
            assert steps[rating["step"]]["actor"] == seat
            assert rating["model"]
    assert {r["seat"] for r in review["ratings"]} == {0, 1, 2}


def test_liars_dice_and_common_hand_games_are_reviewed_too(client: TestClient) -> None:
    table = finished_game(
        client, "liars-dice(dice=2)", [{"kind": "human"}, {"kind": "bot", "bot": "odds"}]
    )
    review = client.get(f"/api/replays/{table}/review").json()
    assert review["ratings"] and "binomial odds" in review["models"]
    assert any(r["mark"] for r in review["ratings"]) or all(
        r["cost"] is not None for r in review["ratings"]
    )
    table = finished_game(
        client, "common-hand(lives=1)", [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    )
    review = client.get(f"/api/replays/{table}/review").json()
    assert review["reason"] is None and review["ratings"] and review["models"]


def test_an_unfinished_game_has_no_review(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    answer = client.get(f"/api/replays/{made['id']}/review")
    assert answer.status_code == 404
