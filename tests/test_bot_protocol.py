"""Bot programs over stdin/stdout: the example bots, faults, introspection, the CLI."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.store import Store
from bluffdice.tournament import make_config, run_tournament

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "data" / "bots"
PY_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'bot.py'}"
JS_BOT = f"cmd:node {ROOT / 'examples' / 'bot.js'}"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

runner = CliRunner()


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def faulty(mode: str) -> str:
    return f"cmd:{sys.executable} {BOTS / 'faulty.py'} {mode}"


@pytest.mark.parametrize(
    "bot", [PY_BOT, pytest.param(JS_BOT, marks=needs_node)], ids=["python", "node"]
)
@pytest.mark.parametrize("rules", ["mia(lives=2)", "liars-dice(dice=2)"])
def test_the_example_bots_play_legally_and_beat_random(
    bot: str, rules: str, tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    code, out, err = cli(
        "tournament", "--game", rules.split("(")[0], "--rules", rules,
        "--bots", f"{bot},random", "--games", "10",
        "--seed", "3", "--json", "--db", str(db),
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["faults"] == []
    name = "example-js" if "bot.js" in bot else "example-py"
    assert data["bots"][name]["wins"] >= 8  # not stupid: it beats a random player
    stored = Store(str(db)).games(data["tournament"]["id"], limit=100)
    assert len(stored) == 10 and all(g.record.replay().is_terminal for g in stored)


def test_a_bot_class_in_its_own_process_plays_exactly_as_in_this_one() -> None:
    """The host decodes the seat's messages back into the very views an in-process bot
    gets, and seeds the bot the same way: same games, same table."""
    here = make_config("liars-dice(dice=2)", ["odds", "adaptive"], games=6, seed=5)
    hosted = f"cmd:{sys.executable} -m bluffdice.protocol.host odds"
    there = make_config("liars-dice(dice=2)", [hosted, "adaptive"], games=6, seed=5)
    assert here.names == there.names == ("odds", "adaptive")
    assert run_tournament(here).lines() == run_tournament(there).lines()


def test_faulty_bots_forfeit_are_named_and_every_game_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    modes = ["sleep", "loop", "exit", "garbage", "crash", "illegal", "chatty"]
    bots = ",".join(["odds", *(faulty(m) for m in modes)])
    code, out, err = cli(
        "tournament", "--game", "liars-dice", "--rules", "liars-dice(dice=1)",
        "--bots", bots, "--games", "3",
        "--seed", "1", "--move-time", "0.5", "--json", "--db", str(db),
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)  # nothing a bot printed reached stdout
    kinds = {
        "sleep": "timeout", "loop": "timeout", "exit": "exit", "garbage": "garbage",
        "crash": "crash", "illegal": "illegal",
    }  # fmt: skip
    for mode, kind in kinds.items():
        line = data["bots"][mode]
        assert line["faults"] == 3 and line["wins"] == 0, mode
        seen = [f for f in data["faults"] if f["bot"] == mode]
        assert [f["game"] for f in seen] == [0, 1, 2]
        assert all(f["kind"] == kind and f["seed"] for f in seen), seen
    assert data["bots"]["chatty"]["faults"] == 0
    assert data["bots"]["odds"]["wins"] + data["bots"]["chatty"]["wins"] == 3
    assert "RuntimeError: the bot's own bug" in json.dumps(data["faults"])
    stored = Store(str(db)).games(data["tournament"]["id"], limit=100)
    assert len(stored) == 3 and all(g.record.replay().is_terminal for g in stored)
    # The table on stdout has a faults column; each fault is listed on stderr.
    code, out, err = cli(
        "tournament", "--game", "liars-dice", "--rules", "liars-dice(dice=1)",
        "--bots", f"odds,{faulty('exit')}",
        "--games", "2", "--seed", "1", "--no-store",
    )  # fmt: skip
    assert code == 0 and "faults" in out
    assert "bot exit failed in game 0" in err and "exited (status 0)" in err


def test_on_bot_error_stop_ends_the_tournament_and_keeps_the_games(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    code, out, err = cli(
        "tournament", "--game", "liars-dice", "--rules", "liars-dice(dice=1)",
        "--bots", f"odds,{faulty('crash')} 3",
        "--games", "20", "--seed", "2", "--on-bot-error", "stop", "--db", str(db),
    )  # fmt: skip
    assert code == 2 and "Traceback (most recent" not in err
    assert "failed in game" in err and "crash" in err and "stored as tournament 1" in err
    stored = Store(str(db)).games(1, limit=100)
    assert 1 <= len(stored) < 20


def liars_dice_rate(bot: str, trust: bool, games: int) -> tuple[float, float, float]:
    spec = f"{BOTS / 'peeker.py'}:{bot}"
    config = make_config("liars-dice(dice=3)", [spec, "odds"], games, seed=11, trust=trust)
    line = run_tournament(config).lines()[bot.lower()]
    return line.rate, line.ci_low, line.ci_high


def test_introspection_finds_nothing_in_a_bot_process() -> None:
    # In this process the peeker finds the hidden dice and wins nearly every game ...
    cheat, _, _ = liars_dice_rate("Peeker", trust=True, games=40)
    honest, low, high = liars_dice_rate("Twin", trust=True, games=40)
    assert cheat >= 0.85 and cheat > high
    # ... in its own process it finds nothing: its win rate is its honest twin's.
    peeker, _, _ = liars_dice_rate("Peeker", trust=False, games=40)
    twin, low, high = liars_dice_rate("Twin", trust=False, games=40)
    assert low <= peeker <= high
    assert twin == honest  # the same bot, in or out of process


def test_a_trusted_bot_that_prints_does_not_break_json(tmp_path: Path) -> None:
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        "from bluffdice.bots import Bot\n\nclass Chatty(Bot):\n    name = 'chatty'\n"
        "    def act(self, view):\n        print('my move!')\n"
        "        return view.legal_actions[0]\n"
    )
    for trust in (["--trust"], []):
        code, out, err = cli(
            "tournament", "--bots", f"{chatty},random", "--games", "2", "--seed", "1",
            "--no-store", "--json", "--rules", "mia(lives=1)", *trust,
        )  # fmt: skip
        assert code == 0, err
        assert set(json.loads(out)["bots"]) == {"chatty", "random"}


def test_workers_are_capped_by_the_cpus() -> None:
    code, out, err = cli(
        "tournament", "--bots", "random,random", "--games", "2", "--workers", "1000",
        "--no-store", "--json", "--rules", "mia(lives=1)",
    )  # fmt: skip
    assert code == 0
    assert "--workers 1000: this machine has" in err
    json.loads(out)


def test_a_bot_that_does_not_start_or_does_not_play_the_game_is_a_clear_error() -> None:
    code, out, err = cli("tournament", "--bots", "cmd:/nonexistent/bot,random", "--no-store")
    assert code == 2 and "did not start" in err and "Traceback" not in err
    code, out, err = cli("tournament", "--game", "common-hand", "--bots", f"{PY_BOT},random")
    assert code == 2 and "plays mia, liars-dice, not common-hand" in err


def test_bot_check_passes_the_examples_and_names_what_a_bad_bot_does() -> None:
    code, out, err = cli("bot", "check", PY_BOT, "--json")
    assert code == 0, out
    report = json.loads(out)
    situations = {(f["game"], f["situation"]) for f in report["findings"]}
    assert ("mia", "answer to Mia") in situations
    assert ("liars-dice", "forced challenge") in situations
    assert ("liars-dice", "last die") in situations
    assert ("mia", "move after a timeout") in situations
    assert report["ok"] and report["bot"] == "example-py"
    code, out, err = cli("bot", "check", faulty("garbage 2").removeprefix("cmd:"), "--json")
    assert code == 1
    failed = [f for f in json.loads(out)["findings"] if not f["ok"]]
    assert failed and all("garbage" in f["detail"] for f in failed)
    code, out, err = cli("bot", "check", faulty("sleep"), "--move-time", "0.2")
    assert code == 1 and "FAIL" in out and "timeout" in out


def test_schema_names_every_message_of_the_protocol() -> None:
    code, out, err = cli("schema", "liars-dice")
    assert code == 0
    schema = json.loads(out)
    assert {"Hello", "Start", "Prompt", "Update", "Refused", "Move"} <= set(schema["$defs"])
    assert "MiaView" not in schema["$defs"]
    code, out, err = cli("schema", "chess")
    assert code == 2 and "chess" in err


def test_in_process_faults_blame_the_right_bot_and_exit_ends_nothing(tmp_path: Path) -> None:
    watcher = tmp_path / "watcher.py"
    watcher.write_text(
        "from bluffdice.bots import Bot\n\nclass Watcher(Bot):\n    name = 'watcher'\n"
        "    games = ('liars-dice',)\n"
        "    def act(self, view):\n        return view.legal_actions[0]\n"
        "    def observe(self, events):\n        raise KeyError('seen too much')\n"
    )
    quitter = tmp_path / "quitter.py"
    quitter.write_text(
        "import sys\nfrom bluffdice.bots import Bot\n\nclass Quitter(Bot):\n"
        "    name = 'quitter'\n    games = ('liars-dice',)\n"
        "    def act(self, view):\n        sys.exit(0)\n"
    )
    for trust in (True, False):
        config = make_config(
            "liars-dice(dice=1)", [str(watcher), str(quitter), "odds"], 3, seed=1, trust=trust
        )
        standings = run_tournament(config)
        kinds = {(f.bot, f.kind) for f in standings.fault_log}
        # sys.exit in a bot ends its game, not the tournament; an exception in one
        # bot's observe is that bot's fault, never the fault of the bot to move.
        assert ("quitter", "exit") in kinds
        assert standings.lines()["odds"].faults == 0
        watcher_kinds = {kind for bot, kind in kinds if bot == "watcher"}
        assert watcher_kinds == ({"error"} if trust else {"crash"}), watcher_kinds
        assert any("KeyError: 'seen too much'" in f.message for f in standings.fault_log)


def test_a_bot_file_that_fails_to_load_is_one_clear_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import no_such_module_here\n")
    for trust in (["--trust"], []):
        code, out, err = cli("tournament", "--bots", f"{broken},random", "--no-store", *trust)
        assert code == 2 and "Traceback (most recent" not in err
        assert "no_such_module_here" in err


def test_play_seats_bot_programs_as_opponents() -> None:
    code, out, err = cli(
        "play", "liars-dice", "--watch", "--seed", "2", "--rules", "liars-dice(dice=2)",
        "--opponents", f"{PY_BOT},{BOTS / 'peeker.py'}:Twin,odds",
    )  # fmt: skip
    assert code == 0, err
    assert "Example-Py" in out and "Twin" in out and "Winner" in out
