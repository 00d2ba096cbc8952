"""The page's own check of a fair record (static/fair.js, WebCrypto) run in node against
records the package made: it verifies every untampered game of every game type and
names the first thing changed in a tampered one, as `bluffdice.table.fair.verify` does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest

from bluffdice.bots import load_bot
from bluffdice.table.fair import play_fair, server_seed_from, verify
from tests.node_support import NODE, STATIC, run_harness

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

HARNESS = """
import { checkFair } from "./fair.js";
const cases = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (d) => { text += d; });
  process.stdin.on("end", () => done(text));
}));
const out = [];
for (const c of cases) out.push(await checkFair(c.fair, c.shown, c.seat, c.seed));
console.log(JSON.stringify(out));
"""


def check_in_node(tmp_path: Path, cases: list[dict[str, object]]) -> list[dict[str, object]]:
    folder = tmp_path / "js"
    folder.mkdir(exist_ok=True)
    shutil.copy(STATIC / "fair.js", folder / "fair.js")
    result: list[dict[str, object]] = run_harness(folder, HARNESS, cases, timeout=60)
    return result


def fair_games() -> list[dict[str, object]]:
    games = []
    for n, (rules, players, bot) in enumerate(
        [
            ("mia(lives=2)", 3, "honest"),
            ("liars-dice(dice=2)", 2, "odds"),
            ("common-hand(lives=1)", 2, "random"),
            ("maexchen", 2, "honest"),
        ]
    ):
        game = rules.split("(")[0]
        game = {"maexchen": "mia"}.get(game, game)
        bots = [load_bot(bot, game) for _ in range(players)]
        seeds = ["Ann", "", "Jörg 🎲"][:players]
        fair = play_fair(rules, players, bots, server_seed_from(n), seeds)
        games.append(msgspec.to_builtins(fair))
    return games


def test_the_page_verifies_real_fair_records_and_catches_tampering(tmp_path: Path) -> None:
    games = fair_games()
    cases: list[dict[str, object]] = []
    for fair in games:
        cases.append({"fair": fair, "shown": fair["commitment"], "seat": 0, "seed": "Ann"})
    base = games[0]
    tampered: list[tuple[str, dict[str, object]]] = []

    def changed(key: str, change: object) -> None:
        fair = json.loads(json.dumps(base))
        change(fair)  # type: ignore[operator]
        tampered.append((key, fair))

    def a_die(fair: dict[str, object]) -> None:
        roll = fair["rolls"][2]  # type: ignore[index]
        roll["dice"][0] = roll["dice"][0] % 6 + 1

    def a_step(fair: dict[str, object]) -> None:
        steps = fair["record"]["steps"]  # type: ignore[index]
        n = next(i for i, s in enumerate(steps) if s.startswith("dice ") and s != "dice 21")
        steps[n] = "dice 21"

    changed("fair.bad.roll", a_die)
    changed("fair.bad.step", a_step)
    changed("fair.bad.roll", lambda f: f["client_seeds"].__setitem__(1, "x"))
    changed("fair.bad.commitment", lambda f: f.__setitem__("commitment", "0" * 64))
    changed("fair.bad.digest", lambda f: f["record"]["steps"].append("roll"))
    changed("fair.bad.seed", lambda f: f.__setitem__("server_seed", "zz"))
    for _, fair in tampered:
        cases.append({"fair": fair, "shown": None, "seat": None, "seed": None})
    cases.append({"fair": base, "shown": "1" * 64, "seat": 0, "seed": "Ann"})
    cases.append({"fair": base, "shown": None, "seat": 0, "seed": "not mine"})
    results = check_in_node(tmp_path, cases)
    for fair, result in zip(games, results, strict=False):
        assert result == {"ok": True, "rolls": len(fair["rolls"])}  # type: ignore[arg-type]
    expected = [key for key, _ in tampered] + ["fair.bad.shown", "fair.bad.mySeed"]
    found = [r["problem"]["key"] for r in results[len(games) :]]  # type: ignore[index]
    assert found == expected


def test_the_page_verifies_games_whose_rules_fix_the_first_seat(tmp_path: Path) -> None:
    """Under `start=first-seat` no seat is drawn: the record's first chance step is
    already a roll, and the page reads it as one, as the Python verifier does."""
    cases: list[dict[str, object]] = []
    for n, (rules, game, bot) in enumerate(
        [
            ("openspiel", "liars-dice", "odds"),
            ("liars-dice(dice=2,start=first-seat)", "liars-dice", "random"),
            ("common-hand(lives=1,start=first-seat)", "common-hand", "random"),
        ]
    ):
        bots = [load_bot(bot, game) for _ in range(2)]
        fair = play_fair(rules, 2, bots, server_seed_from(40 + n), ["Ann", ""])
        assert verify(fair).problem is None
        record = msgspec.to_builtins(fair)
        assert record["record"]["steps"][0].startswith("dice ")
        cases.append({"fair": record, "shown": record["commitment"], "seat": 0, "seed": "Ann"})
    # a seat draw written in where the rules fix the first seat is caught
    forged = json.loads(json.dumps(cases[1]["fair"]))
    forged["record"]["steps"][0] = "first 0"
    cases.append({"fair": forged, "shown": None, "seat": None, "seed": None})
    results = check_in_node(tmp_path, cases)
    for case, result in zip(cases[:3], results, strict=False):
        assert result == {"ok": True, "rolls": len(case["fair"]["rolls"])}  # type: ignore[index]
    assert results[3]["problem"]["key"] == "fair.bad.step"  # type: ignore[index]
