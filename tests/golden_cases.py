"""Outputs that the game loop must keep byte for byte: seeded terminal games (watched
and played from scripted input), tournaments with fixed seeds and the replays of their
stored games. `python -m tests.golden_cases` writes them to tests/data/golden/; the
test compares what today's code prints with what was written there before the loop
was rewritten."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bluffdice.cli.app import app

GOLDEN = Path(__file__).resolve().parent / "data" / "golden"

HERE = Path(__file__).resolve().parent
BOTS = HERE / "data" / "bots"
EXAMPLES = HERE.parent / "examples"
DOCS_EXAMPLES = HERE.parent / "docs" / "examples"

PLAYS: dict[str, tuple[list[str], str | None]] = {
    "watch-mia-classic": (
        ["play", "--watch", "--seed", "3", "--opponents", "odds,honest,adaptive,liar"],
        None,
    ),
    "watch-mia-first-out": (
        [
            "play",
            "--watch",
            "--seed",
            "3",
            "--rules",
            "mia(lives=1,end=first_out)",
            "--opponents",
            "odds,honest,adaptive",
        ],
        None,
    ),
    "watch-dudo": (
        ["play", "liars-dice", "--rules", "dudo", "--watch", "--bots", "3", "--seed", "5"],
        None,
    ),
    "watch-common-hand": (["play", "common-hand", "--watch", "--seed", "2"], None),
    "human-mia": (
        ["play", "--seed", "7", "--opponents", "liar,lucky", "--name", "Ada"],
        "roll\n31\nhelp\nroll\n42\nsee\nroll\n65\nroll\n21\nsee\nroll\n66\n" * 6,
    ),
    "human-dudo": (
        ["play", "liars-dice", "--rules", "dudo", "--bots", "2", "--seed", "4", "--name", "Ada"],
        "2x5\nliar\n3x3\nliar\nhint\n4x4\nliar\n" * 8,
    ),
}

TOURNAMENTS: dict[str, list[str]] = {
    "tournament-mia": [
        "tournament",
        "--rules",
        "classic",
        "--games",
        "40",
        "--seed",
        "7",
        "--workers",
        "1",
    ],
    "tournament-dudo": [
        "tournament",
        "liars-dice",
        "--rules",
        "dudo",
        "--games",
        "12",
        "--seed",
        "3",
        "--workers",
        "1",
    ],
    "tournament-programs": [
        "tournament",
        "--rules",
        "classic",
        "--games",
        "6",
        "--seed",
        "2",
        "--workers",
        "1",
        "--bots",
        f"odds,honest,cmd:python3 {BOTS}/faulty.py crash 3,"
        f"cmd:python3 {EXAMPLES}/bot.py,{DOCS_EXAMPLES}/cautious_bot.py",
    ],
    "tournament-common-hand": [
        "tournament",
        "common-hand",
        "--games",
        "12",
        "--seed",
        "1",
        "--workers",
        "1",
    ],
}


def invoke(args: list[str], stdin: str | None = None, db: Path | None = None) -> Any:
    extra = ["--db", str(db)] if db is not None else ["--no-store"]
    if args[0] == "play" and "--pause" not in args:
        args = [*args, "--pause", "0"]
    return CliRunner().invoke(app, [*args, *extra], input=stdin, catch_exceptions=False)


def outputs(folder: Path) -> dict[str, str]:
    """Every golden output, by name, made with stores in `folder`."""
    out: dict[str, str] = {}
    for name, (args, stdin) in PLAYS.items():
        result = invoke(args, stdin)
        out[name] = f"exit {result.exit_code}\n{result.stdout}"
    for name, args in TOURNAMENTS.items():
        db = folder / f"{name}.db"
        result = invoke([*args, "--json"], db=db)
        data = json.loads(result.stdout)
        text = json.dumps(strip_timing(data), indent=1, sort_keys=True)
        out[name] = text.replace(str(db), "<db>")
        for game in ("1", "5") if name != "tournament-programs" else ("2",):
            replay = CliRunner().invoke(app, ["replay", game, "--db", str(db)])
            out[f"{name}-replay-{game}"] = f"exit {replay.exit_code}\n{replay.stdout}"
            replay = CliRunner().invoke(app, ["replay", game, "--json", "--db", str(db)])
            if game != "5":
                out[f"{name}-replay-{game}-json"] = replay.stdout
    root = str(HERE.parent)
    return {name: text.replace(root, "<repo>") for name, text in out.items()}


TIMING = {"seconds", "games_per_second", "elapsed", "started", "finished", "created"}


def strip_timing(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: strip_timing(v) for k, v in data.items() if k not in TIMING}
    if isinstance(data, list):
        return [strip_timing(v) for v in data]
    return data


if __name__ == "__main__":
    import tempfile

    GOLDEN.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in outputs(Path(tmp)).items():
            (GOLDEN / f"{name}.txt").write_text(text, encoding="utf-8")
            print(name, len(text), file=sys.stderr)
