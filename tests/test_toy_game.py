"""A game added through the checklist only (tests/toy_game.py: one module and one
`register(SPEC)` naming its plug-ins) is played everywhere a built-in game is: in the
terminal (`bluffdice play`), in a tournament, in the browser hall, and in a review. No
module of bluffdice names the toy; every front end finds its parts on the `GameSpec`."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bluffdice.bots import available_bots, load_bot
from bluffdice.cli import app
from bluffdice.games import get_game, parse_rules
from bluffdice.games.registry import GameSpec, games
from bluffdice.narration import plain, words_for
from bluffdice.review import review_game
from bluffdice.table import Table, seeded
from bluffdice.table.runners import run_sync
from bluffdice.terminal import presenter_for
from bluffdice.tournament import make_config, run_tournament
from tests import toy_game

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture(autouse=True)
def toy() -> Iterator[GameSpec]:
    with toy_game.registered() as spec:
        yield spec


def test_one_registration_gives_every_front_end_its_part() -> None:
    rules = parse_rules("high-die(faces=4)")
    assert get_game("high-die") is toy_game.SPEC and rules.faces == 4
    assert games()[-1] is toy_game.SPEC  # after the built-in games
    assert {"keeper", "coin"} <= set(available_bots("high-die"))
    assert isinstance(words_for(rules), toy_game.HighDieWords)
    assert isinstance(presenter_for(rules), toy_game.HighDiePresenter)


def test_forgotten_again_after_the_block() -> None:
    toy_game.unregister("high-die")
    try:
        with pytest.raises(Exception, match="high-die"):
            parse_rules("high-die")
    finally:
        toy_game.register(toy_game.SPEC)  # the fixture forgets it once more


runner = CliRunner()


def test_watched_in_the_terminal() -> None:
    args = ["play", "--rules", "high-die", "--watch", "--seed", "3"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert runner.invoke(app, args).stdout == out  # a seed replays the same game
    assert "The cups are lifted:" in out
    assert "Winner:" in out or "A draw" in out
    assert "Cups:" in out  # --watch shows both dice at the end of the round


def test_played_by_a_person_in_the_terminal() -> None:
    # "hold" is no move: explained, asked again; then the person swaps
    args = ["play", "--rules", "high-die", "--bots", "1", "--opponents", "keeper", "--seed", "1"]
    result = runner.invoke(app, args, input="hold\nswap\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "You can: stay or swap" in out
    assert "'hold' is not a high-die action" in out + result.stderr
    assert "You swap." in out


def test_played_in_a_tournament() -> None:
    config = make_config("high-die", ["keeper", "coin"], 200, seed=5)
    standings = run_tournament(config)
    lines = standings.lines()
    assert set(lines) == {"keeper", "coin"}
    assert all(line.games == 200 for line in lines.values())
    # the keeper plays the best answer whenever it decides: it wins more often
    assert lines["keeper"].wins > lines["coin"].wins
    assert list(lines) == ["keeper", "coin"]


def test_reviewed_with_its_own_rater() -> None:
    table = Table("high-die", 2, dice=seeded(4), names=["Ann", "Bob"])
    rng = random.Random(1)
    run_sync(table, [load_bot("coin", "high-die", rng), load_bot("keeper", "high-die", rng)])
    review = review_game(table.record, 0)
    [rating] = review.ratings
    die = table.initial.apply(table.log[0].action).state.dice[0]
    assert rating.situation == f"your die shows {die}"
    assert rating.best == ("stay" if 2 * die > 6 else "swap")
    assert rating.truth is not None and "against" in rating.truth
    assert review.models == {"exact": "the other die is uniform over its faces"}
    words = words_for(table.rules)
    said = [words.describe(e, table.names, None) for entry in table.log for e in entry.events]
    assert any(s is not None and plain(s).startswith("Ann ") for s in said)


def play_out(ws: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Every message until the table is finished, answering each prompt at random."""
    seen: list[dict[str, Any]] = []
    while True:
        frame = json.loads(ws.receive_text())
        for message in frame:
            seen.append(message)
            if message["type"] == "prompt":
                action = rng.choice(message["view"]["legal_actions"])
                move = {"type": "move", "state_id": message["state_id"], "action": action}
                ws.send_text(json.dumps(move))
            if message["type"] == "table" and message["status"] == "finished":
                return seen


def test_played_in_the_browser_hall(tmp_path: Path) -> None:
    from bluffdice.server import Hall, create_app
    from bluffdice.store import Store
    from bluffdice.store.tables import TableStore

    tables = TableStore(Store(str(tmp_path / "serve.db")).engine)
    hall = Hall(tables, dice=lambda: seeded(7), bot_delay=0)
    with TestClient(create_app(tables, hall)) as client:
        listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert {"keeper", "coin"} <= {b["name"] for b in listed["high-die"]["bots"]}
        body = {
            "rules": "high-die",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "keeper"}],
            "name": "Ann",
            "limit": None,
            "listed": True,
        }
        made = client.post("/api/tables", json=body)
        assert made.status_code == 200, made.text
        table = made.json()
        with client.websocket_connect(f"/ws/{table['id']}", headers=ORIGIN) as ws:
            ws.send_text(json.dumps({"type": "hello", "token": table["token"]}))
            seen = play_out(ws, random.Random(2))
        events = [e["type"] for m in seen if m["type"] == "update" for e in m["events"]]
        assert events[-3:] == ["high-die.decided", "high-die.shown", "game_over"]
        replay = client.get(f"/api/replays/{table['id']}").json()
        assert replay["names"] == ["Ann", "keeper"]
        review = client.get(f"/api/replays/{table['id']}/review")
        assert review.status_code == 200, review.text
        rated = review.json()["ratings"]
        assert [r["choice"] for r in rated] in (["stay"], ["swap"])


def test_a_game_without_plug_ins_still_plays_and_says_what_it_lacks() -> None:
    """Only the rules registered: the review rates nothing, the words are the events'
    fields, and `bluffdice play` names the games it can show instead."""
    import dataclasses

    from bluffdice.games.base import BluffdiceError

    toy_game.unregister("high-die")
    bare = dataclasses.replace(toy_game.SPEC, narration="", rater="", presenter="")
    toy_game.register(bare)  # the fixture forgets it after the test
    table = Table("high-die", 2, dice=seeded(4), names=["Ann", "Bob"])
    rng = random.Random(1)
    run_sync(table, [load_bot("coin", "high-die", rng), load_bot("keeper", "high-die", rng)])
    review = review_game(table.record, 0)
    assert review.ratings == [] and review.models == {}
    said = words_for(table.rules).describe(table.log[-1].events[0], table.names, None)
    assert said is not None and plain(said).startswith("high-die.decided ")
    with pytest.raises(BluffdiceError, match="High die cannot be played in the terminal yet"):
        presenter_for(table.rules)
