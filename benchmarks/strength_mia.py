"""How strong is a Mia bot: full tables of every built-in bot, and heads-up matches.

    .venv/bin/python benchmarks/strength_mia.py --games 10000 --workers 2   # the record
    .venv/bin/python benchmarks/strength_mia.py --games 1000 --part tables   # a quick look
    .venv/bin/python benchmarks/strength_mia.py --part heads-up --opponents cfr   # one match
    .venv/bin/python benchmarks/strength_mia.py --bot mia-best --instead-of shark   # a stand-in

Tables: `bluffdice tournament --rules classic --seats N --games G --seed S` with every
built-in Mia bot (line-ups rotate fairly), for N = 3, 4 and 6. The bot under test
(`--bot`, default `shark`) meets its target at a table when it has the highest win rate
and its 95 % Wilson interval lies above the second best's.

Heads-up: `bluffdice tournament --rules classic --bots BOT,OTHER --games G --seed S`
against every other built-in bot of the tournament's default mix (two seats, each bot in
each seat equally often). The target is at least half of the games; the verdict says
whether the 95 % interval lies above 50 % ("beats"), contains it ("even") or lies below
("LOSES").

`--instead-of OTHER` puts the bot under test in OTHER's seat: the tables seat the default
mix with OTHER replaced by BOT (`--bots` names the line-up), so that a bot outside the
default mix (`mia-best`) is measured at the same tables as the bot it stands for; the
heads-up matches keep OTHER among the opponents, to be met directly.

Every tournament command is printed with its table, so each figure can be reproduced.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bluffdice.bots.base import available_bots

CLI = str(Path(sys.executable).with_name("bluffdice"))
RULES = "classic"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def tournament(args: list[str], console: Console, game: str = "mia", rules: str = RULES) -> dict:
    where = ["--game", game] if game != "mia" else []
    cmd = [CLI, "tournament", *where, "--rules", rules, *args, "--no-store", "--json"]
    shown = " ".join(["bluffdice", *cmd[1:]])
    console.print(f"[dim]$ {shown}[/]")
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def default_mix(game: str) -> list[str]:
    """The bots a tournament seats by default: every built-in bot of the game but those
    that leave the mix (`in_default_mix = False`, bots that play the others' methods)."""
    bots = available_bots(game)
    return [name for name, cls in bots.items() if getattr(cls, "in_default_mix", True)]


def line_up(bot: str, instead_of: str, game: str) -> list[str]:
    """The default mix with `instead_of` replaced by `bot` (empty `instead_of`: none)."""
    if not instead_of:
        return []
    mix = default_mix(game)
    if instead_of not in mix:
        raise SystemExit(
            f"--instead-of {instead_of}: not a bot of the default mix ({', '.join(mix)})"
        )
    return [bot if name == instead_of else name for name in mix if name != bot or bot == instead_of]


def table_part(
    bot: str,
    seats: int,
    games: int,
    seed: int,
    workers: int,
    console: Console,
    game: str = "mia",
    rules: str = RULES,
    instead_of: str = "",
) -> bool:
    bots = line_up(bot, instead_of, game)
    doc = tournament(
        [
            *(["--bots", ",".join(bots)] if bots else []),
            "--seats",
            str(seats),
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--workers",
            str(workers),
        ],
        console,
        game,
        rules,
    )
    rows = []
    for name, b in doc["bots"].items():
        low, high = wilson(b["wins"], b["games"])
        rows.append((b["wins"] / b["games"], name, b["games"], b["wins"], low, high))
    rows.sort(reverse=True)
    table = Table(title=f"{rules}, {seats} players, {games:,} games, seed {seed}")
    for col in ("bot", "games", "wins", "win %", "95 % CI"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for rate, name, n, wins, low, high in rows:
        style = "bold" if name == bot else None
        table.add_row(
            name,
            f"{n:,}",
            f"{wins:,}",
            f"{rate * 100:.1f}",
            f"{low * 100:.1f}-{high * 100:.1f}",
            style=style,
        )
    console.print(table)
    first, second = rows[0], rows[1]
    met = first[1] == bot and first[4] > second[5]
    console.print(
        f"{bot} {'meets' if met else 'does NOT meet'} the target at {seats} players "
        f"(best: {first[1]} {first[0] * 100:.1f} %, interval low {first[4] * 100:.1f}; "
        f"second: {second[1]} {second[0] * 100:.1f} %, interval high {second[5] * 100:.1f})"
    )
    return met


def heads_up_part(
    bot: str,
    games: int,
    seed: int,
    workers: int,
    console: Console,
    game: str = "mia",
    rules: str = RULES,
    opponents: list[str] | None = None,
) -> bool:
    table = Table(title=f"{bot} heads-up, {rules}, {games:,} games per match, seed {seed}")
    for col in ("opponent", f"{bot} wins", "opp. wins", f"{bot} %", "95 % CI", "verdict"):
        table.add_column(col, justify="left" if col in ("opponent", "verdict") else "right")
    ok = True
    for other in opponents or default_mix(game):
        if other == bot:
            continue
        doc = tournament(
            [
                "--bots",
                f"{bot},{other}",
                "--games",
                str(games),
                "--seed",
                str(seed),
                "--workers",
                str(workers),
            ],
            console,
            game,
            rules,
        )
        wins, n = doc["bots"][bot]["wins"], doc["tournament"]["games"]
        low, high = wilson(wins, n)
        verdict = "beats" if low > 0.5 else "LOSES" if high < 0.5 else "even"
        ok = ok and wins * 2 >= n
        table.add_row(
            other,
            f"{wins:,}",
            f"{n - wins:,}",
            f"{wins / n * 100:.1f}",
            f"{low * 100:.1f}-{high * 100:.1f}",
            verdict,
        )
    console.print(table)
    console.print(
        f"{bot} {'wins' if ok else 'does NOT win'} at least half of its heads-up games "
        "against every other bot"
    )
    return ok


def main(
    argv: list[str] | None = None,
    game: str = "mia",
    bot: str = "shark",
    rules: str = RULES,
    games: int = 10_000,
    doc: str | None = __doc__,
) -> int:
    """The command line of this benchmark; strength_liars_dice.py runs it for its game."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--bot", default=bot)
    parser.add_argument("--rules", default=rules)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--part", choices=("all", "tables", "heads-up"), default="all")
    parser.add_argument("--seats", default="3,4,6")
    parser.add_argument(
        "--opponents", default="", help="heads-up: these bots only (comma-separated)"
    )
    parser.add_argument(
        "--instead-of",
        default="",
        metavar="BOT",
        help="tables: seat --bot in this bot's place in the default line-up",
    )
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 110)
    common = (args.games, args.seed, args.workers, console, game, args.rules)
    ok = True
    if args.part in ("all", "tables"):
        for seats in (int(s) for s in args.seats.split(",")):
            ok = table_part(args.bot, seats, *common, instead_of=args.instead_of) and ok
    if args.part in ("all", "heads-up"):
        only = [name for name in args.opponents.split(",") if name] or None
        ok = heads_up_part(args.bot, *common, opponents=only) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
