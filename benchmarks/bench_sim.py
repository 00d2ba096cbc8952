"""The batch simulator and the rules engine against their references, in one run.

    .venv/bin/python benchmarks/bench_sim.py            # 7 pairs a row, about a minute
    .venv/bin/python benchmarks/bench_sim.py --quick    # 3 pairs a row, a few seconds
    .venv/bin/python benchmarks/bench_sim.py --all      # more Mia rule options and tables
    .venv/bin/python benchmarks/bench_sim.py --workers 2  # only: simulate's workers

Every row is measured in interleaved pairs in one process (ours then the reference, the
next pair the other way round), by CPU time, so a machine shared with other work slows
both sides alike and the time spent waiting for a core does not count; each row shows
both sides' median [min-max] and the median [min-max] of the pairs' ratios. The batch
simulators run fixed batches (`MIA_BATCH`, `LD_BATCH`, printed at the top): their rate
moves with the batch size.

Against outside references:

- Random playouts of 1-die Liar's Dice (the `openspiel` preset) in the batch simulator,
  against pyspiel's `liars_dice` random playouts driven from Python (which mostly
  measures the Python-to-C++ calls): target 30x.
- The same random playouts through the engine's public API (immutable, validated
  states: `legal_actions`, `chance_outcomes`, `apply`), against pyspiel: target 0.5x.
- The same simulator playouts against OpenSpiel's own C++ loop over `liars_dice`
  (`CPP_LOOP`: random playouts, mt19937, timed by its CPU clock), compiled once with
  `-O3` against the `open_spiel` sdist given as `--openspiel-sdist DIR` (`pip download
  --no-binary :all: --no-deps open_spiel`, unpacked): OpenSpiel's core, liars_dice.cc
  and the bundled abseil, about 4 minutes on 2 cores; the binary is kept in `CACHE`.
  No target (the issue measured 8.5x); without the sdist or g++ the row says
  "skipped: ..." and why.
- Mia rounds between table policies in the batch simulator, against numpy drawing the
  same random words (`bit_generator.random_raw`, PCG64's 64-bit outputs, in blocks of
  `MIA_BATCH`, counted as the rounds whose words they would be; the label says how many
  32-bit words, half an output each, a round draws): the ratio is the share of a round's
  time that drawing its words takes, target 0.25 (a round in four times its draws).

Internal, bluffdice against itself:

- Mia rounds between table policies in the batch simulator (`bluffdice.sim.mia`): target
  at least 5 million rounds a second for every preset and ranking option. The first two
  rows also time the same bots played by the rules engine; the others show the simulator
  alone (`--all` adds more rule options and tables).
- Random Mia playouts through the engine now, against the engine at commit BASELINE
  (loaded from git): target 1.0x (no slower). Both play the same seeded games; the
  benchmark checks they end identically.
- Mia views, what a table sends each recipient after every move (`state.view` for the
  four seats and a spectator), against `view` at commit VIEW_BASELINE: target 1.5x.

`--workers N` (this alone): `bluffdice simulate --workers N` against
   `--workers 1`, every pair of five Mia character bots, each run a fresh process as a
   user starts it (start-up, the pool and building the tables in every worker included),
   timed by the wall clock (the CPU time of one process would not count the workers);
   target 1.2x with two workers. The load average is printed
   before and after: on a machine shared with other work the workers compete for cores
   and the speed-up shrinks.

The pyspiel rows need the openspiel extra: `pip install -e '.[openspiel]'`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

from bench_engine import play_pyspiel
from bluffdice.games.base import CHANCE
from bluffdice.games.registry import parse_rules

BASELINE = "611915c"
"""The commit whose Mia engine row 4 compares against (before the engine work)."""
VIEW_BASELINE = "d18fa58"
"""The commit whose Mia views row 5 compares against (lives and scores per view)."""

ROOT = Path(__file__).resolve().parent.parent


MIA_BATCH = 50_000
"""Mia games per simulator call in every Mia row: the rate moves with the batch size."""
LD_BATCH = 200_000
"""Liar's Dice games per simulator call (7.5M games/s at 800k, about 12M at 50k-200k)."""
SPIEL_GAMES = 5_000
"""Games per timed run of the Python-driven loops (pyspiel's, the engine's)."""
NO_SPIEL = "skipped: pyspiel not installed (pip install -e '.[openspiel]')"
NO_TARGET = 0.0
"""A row's target where none was set: shown as "-"."""
CPP_GAMES = 200_000
"""Games per timed run of OpenSpiel's C++ loop."""
CACHE = Path.home() / ".cache" / "bluffdice-bench" / "openspiel-loop"
"""Where the compiled C++ loop is kept between runs."""


@dataclass
class Row:
    """One comparison: both sides' rates over the pairs, and the pairs' ratios."""

    label: str
    unit: str
    ours: list[float]
    reference: str
    theirs: list[float]
    target: float
    note: str = ""
    """Why the row was not measured ("skipped: ..."), else empty."""

    def ratios(self) -> list[float]:
        return [a / b for a, b in zip(self.ours, self.theirs, strict=True)]

    @property
    def rate_target(self) -> bool:
        """Targets from 1,000 up are rates (units a second), smaller ones ratios."""
        return self.target >= 1e3


@dataclass
class OwnClock:
    """A run in another process that times itself: it returns units per CPU second."""

    run: Callable[[], float]


def rate(run: Callable[[], int] | OwnClock) -> float:
    """Units per CPU second of one run (CPU time: waiting for a core does not count)."""
    if isinstance(run, OwnClock):
        return run.run()
    start = time.process_time()
    units = run()
    return units / max(time.process_time() - start, 1e-9)


def paired(
    label: str,
    ours: Callable[[], int],
    reference: str,
    ref: Callable[[], int] | OwnClock | None,
    unit: str,
    target: float,
    pairs: int,
) -> Row:
    """`pairs` runs of each side, interleaved and alternating which goes first, so that
    both see the same load; each pair gives one ratio."""
    row = Row(label, unit, [], reference, [], target)
    for i in range(pairs):
        if ref is None:
            row.ours.append(rate(ours))
        elif i % 2 == 0:
            row.ours.append(rate(ours))
            row.theirs.append(rate(ref))
        else:
            row.theirs.append(rate(ref))
            row.ours.append(rate(ours))
    return row


def skipped(label: str, note: str) -> Row:
    return Row(label, "", [], "", [], 0.0, note)


def spread(values: list[float], fmt: str) -> str:
    """Median [min-max]."""
    low, mid, high = (format(v, fmt) for v in (min(values), statistics.median(values), max(values)))
    return f"{mid} [{low}-{high}]"


def ratio_spread(r: Row) -> str:
    """The ratios' median [min-max], with four decimals where they are small."""
    return spread(r.ratios(), ",.2f" if min(r.ratios()) >= 0.1 else ".4f") + "x"


def summary(r: Row) -> dict[str, Any]:
    """A row's figures for `--json`: each side's median, the ratio's median and range."""
    out: dict[str, Any] = {"what": r.label, "reference": r.reference, "note": r.note}
    if r.ours:
        out["ours"] = statistics.median(r.ours)
        out["unit"] = r.unit
    if r.theirs:
        ratios = r.ratios()
        out |= {"theirs": statistics.median(r.theirs), "ratio": statistics.median(ratios)}
        out |= {"ratio_min": min(ratios), "ratio_max": max(ratios), "pairs": len(ratios)}
    return out


def rows_table(title: str, rows: list[Row]) -> Table:
    table = Table(title=title)
    for col in (
        "what",
        "ours",
        "reference",
        "reference's",
        "ratio median [range]",
        "target",
        "met",
    ):
        table.add_column(col, justify="left" if col in ("what", "reference") else "right")
    for r in rows:
        if r.note:
            table.add_row(r.label, "", r.note, "", "", "", "")
            continue
        ours = f"{spread(r.ours, ',.0f')} {r.unit}"
        if r.rate_target and not r.theirs:
            met = statistics.median(r.ours) >= r.target
            table.add_row(r.label, ours, "-", "-", "-", f"{r.target / 1e6:.0f}M {r.unit}",
                          "yes" if met else "[red]no[/]")  # fmt: skip
            continue
        ratio = statistics.median(r.ratios())
        if r.target == NO_TARGET:
            table.add_row(r.label, ours, r.reference, spread(r.theirs, ",.0f"),
                          ratio_spread(r), "-", "-")  # fmt: skip
            continue
        target = f"{r.target / 1e6:.0f}M {r.unit}" if r.rate_target else f"{r.target:g}x"
        met = statistics.median(r.ours) >= r.target if r.rate_target else ratio >= r.target
        table.add_row(r.label, ours, r.reference, spread(r.theirs, ",.0f"),
                      ratio_spread(r), target,
                      "yes" if met else "[red]no[/]")  # fmt: skip
    return table


def best_wall_rate(run: Callable[[], int], repeats: int) -> float:
    """`best_rate` by the wall clock, for work done in other processes."""
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        units = run()
        best = max(best, units / max(time.perf_counter() - start, 1e-9))
    return best


# --- 1. Mia rounds --------------------------------------------------------------------


def mia_sim_rounds(rules_text: str, bots: tuple[str, ...], games: int) -> Callable[[], int]:
    from bluffdice.sim.mia import MiaSim
    from bluffdice.sim.mia_tables import table_for

    rules = parse_rules(rules_text)
    sim = MiaSim(rules, [table_for(b, rules) for b in bots])
    seeds = iter(range(10**6))

    def run() -> int:
        return int(sim.run(games, seed=next(seeds)).rounds.sum())

    return run


def mia_words_a_round(rules_text: str, bots: tuple[str, ...], games: int) -> float:
    """32-bit words the simulator draws a round (`MiaBatch.draws`), over one batch."""
    from bluffdice.sim.mia import MiaSim
    from bluffdice.sim.mia_tables import table_for

    rules = parse_rules(rules_text)
    batch = MiaSim(rules, [table_for(b, rules) for b in bots]).run(games, seed=0)
    return batch.draws / int(batch.rounds.sum())


NUMPY_BLOCKS = 500
"""Blocks of `MIA_BATCH` outputs per timed run of numpy's raw draws (a run as long as a
simulator batch, roughly)."""


def numpy_raw_outputs(block: int, words_a_round: float) -> Callable[[], int]:
    """numpy's PCG64 drawing raw 64-bit outputs, `NUMPY_BLOCKS` blocks of `block`, counted
    as the rounds whose random words they would be (a round draws `words_a_round` 32-bit
    words, half an output each): the ratio is then the share of a simulated round's time
    that drawing its words alone takes in numpy."""
    import numpy as np

    draw = np.random.default_rng(1).bit_generator.random_raw

    def run() -> int:
        for _ in range(NUMPY_BLOCKS):
            draw(block)
        return round(NUMPY_BLOCKS * block * 2 / words_a_round)

    return run


def mia_engine_rounds(rules_text: str, bots: tuple[str, str], games: int) -> Callable[[], int]:
    from bluffdice.sim.engine import engine_bots, play_engine_game

    rules = parse_rules(rules_text)
    rng = random.Random(1)

    def run() -> int:
        rounds = 0
        for g in range(games):
            rounds += play_engine_game(rules, engine_bots(bots, "mia", g), rng).round
        return rounds

    return run


MIA_TWO: list[tuple[str, tuple[str, ...]]] = [
    ("maexchen", ("odds", "lucky")),
    ("classic", ("honest", "liar")),
]
"""The Mia rows timed against references (numpy's draws, the engine)."""

SIM_ROWS: list[tuple[str, tuple[str, ...]]] = [
    ("doubles-ascending", ("honest", "liar")),
    ("meyer", ("honest", "liar")),
    ("drinking", ("honest", "liar")),
    ("mia(halbmeier=on,pips=on)", ("honest", "liar")),
]
"""The other presets and ranking options, simulator only (after the two rows with the
engine as reference): every preset and ranking option has a row."""

SIM_ROWS_ALL: list[tuple[str, tuple[str, ...]]] = [
    ("maexchen", ("honest", "liar")),
    ("maexchen", ("random", "random")),
    ("maexchen", ("cfr", "odds")),
    ("classic", ("chain", "lucky")),
    ("classic", ("random", "random")),
    ("meyer", ("chain", "random")),
    ("mia(pass=off,relaxed_raise=on,beat_mia=on)", ("odds", "lucky")),
    ("mia(lives=3,mia_doubled=on,end=first_out,mia_starter=next)", ("honest", "liar")),
    ("mia(little_mia=on,halbmeier=on,pass=off)", ("odds", "honest")),
    ("classic", ("honest", "liar", "lucky")),
    ("maexchen", ("odds", "lucky", "honest", "liar")),
]
"""More rule options, tables and seat counts (`--all`)."""


# --- 2, 3. Liar's Dice random playouts ------------------------------------------------


def ld_sim_playouts(games: int) -> Callable[[], int]:
    from bluffdice.sim.liars_dice import LiarsDiceSim, random_table

    rules = parse_rules("openspiel")
    table = random_table(rules, 2)
    sim = LiarsDiceSim(rules, [table, table])
    seeds = iter(range(10**6))

    def run() -> int:
        return sim.run(games, seed=next(seeds)).games

    return run


def pyspiel_playouts(games: int) -> Callable[[], int]:
    import pyspiel

    game = pyspiel.load_game("liars_dice")
    rng = random.Random(1)

    def run() -> int:
        play_pyspiel(game, games, rng.choice)
        return games

    return run


def engine_playouts(
    rules_text: str, games: int, new_game: Any = None, players: int = 2
) -> Callable[[], int]:
    """Random playouts through the public API: the same loop as pyspiel's above."""
    rules = parse_rules(rules_text)
    if new_game is None:
        from bluffdice.games.registry import game_of

        new_game = game_of(rules).new_game

    def run() -> int:
        rng = random.Random(1)
        choice = rng.choice
        for _ in range(games):
            state = new_game(rules, players)
            while not state.is_terminal:
                if state.current_player == CHANCE:
                    state = state.apply(choice(state.chance_outcomes())[0]).state
                else:
                    state = state.apply(choice(state.legal_actions())).state
        return games

    return run


# --- OpenSpiel's own C++ playout loop ----------------------------------------------------

CPP_LOOP = r"""
// Random playouts of OpenSpiel's liars_dice, timed by the process's CPU clock.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include "open_spiel/spiel.h"
int main(int argc, char** argv) {
  int games = argc > 1 ? std::atoi(argv[1]) : 100000;
  auto game = open_spiel::LoadGame("liars_dice");
  std::mt19937 rng(argc > 2 ? std::atoi(argv[2]) : 1);
  std::clock_t start = std::clock();
  for (int g = 0; g < games; ++g) {
    auto state = game->NewInitialState();
    while (!state->IsTerminal()) {
      if (state->IsChanceNode()) {
        auto outcomes = state->ChanceOutcomes();
        state->ApplyAction(outcomes[rng() % outcomes.size()].first);
      } else {
        auto legal = state->LegalActions();
        state->ApplyAction(legal[rng() % legal.size()]);
      }
    }
  }
  double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
  std::printf("%d %.6f\n", games, cpu);
  return 0;
}
"""
OPENSPIEL_FILES = (
    "spiel.cc", "spiel_utils.cc", "game_parameters.cc", "observer.cc", "policy.cc",
    "games/liars_dice/liars_dice.cc", "utils/usage_logging.cc", "utils/status.cc",
)  # fmt: skip
"""OpenSpiel's sources that the liars_dice loop links against."""
ABSL_DIRS = (
    "strings", "strings/internal", "strings/internal/str_format", "base", "base/internal",
    "container/internal", "synchronization", "synchronization/internal", "numeric",
    "hash/internal", "time", "time/internal/cctz/src", "debugging", "debugging/internal",
    "types", "profiling/internal", "crc", "crc/internal",
)  # fmt: skip
"""The abseil libraries those need, compiled from the sdist's bundled copy."""
ABSL_SKIP = ("test", "benchmark", "mock", "testutil", "gentables", "chi_square", "print_hash",
             "fuzz", "cord", "poison", "_main", "helper")  # fmt: skip


def build_cpp_loop(sdist: Path, cache: Path) -> Path:
    """Compile the playout loop against the open_spiel sdist unpacked at `sdist` (the
    folder holding `open_spiel/`), once: the binary is kept in `cache`."""
    binary = cache / "liars_dice_loop"
    if binary.exists():
        return binary
    src, absl = sdist / "open_spiel", sdist / "open_spiel" / "abseil-cpp"
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "loop.cc").write_text(CPP_LOOP)
    units = [(cache / "loop.cc", ["-I", str(sdist), "-I", str(absl)])]
    units += [(src / f, ["-I", str(sdist), "-I", str(absl)]) for f in OPENSPIEL_FILES]
    for d in ABSL_DIRS:
        for f in sorted((absl / "absl" / d).glob("*.cc")):
            if not any(word in f.name for word in ABSL_SKIP):
                units.append((f, ["-I", str(absl)]))
    json_include = ["-I", str(src / "json" / "include")]

    def compile_one(unit: tuple[Path, list[str]]) -> Path:
        source, includes = unit
        obj = cache / (str(source.relative_to(sdist) if sdist in source.parents else source.name)
                       .replace("/", "_") + ".o")  # fmt: skip
        command = ["g++", "-std=c++17", "-O3", *includes, *json_include, "-c", str(source)]
        subprocess.run([*command, "-o", str(obj)], check=True, capture_output=True)
        return obj

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        objects = list(pool.map(compile_one, units))
    subprocess.run(["g++", *map(str, objects), "-o", str(binary), "-lpthread"], check=True,
                   capture_output=True)  # fmt: skip
    return binary


def cpp_loop(sdist: Path | None) -> tuple[Path | None, str]:
    """The compiled loop, or None and the "skipped: ..." line saying why."""
    if sdist is None:
        return None, (
            "skipped: needs --openspiel-sdist DIR, the open_spiel sdist unpacked (pip "
            "download --no-binary :all: --no-deps open_spiel), to compile the C++ loop"
        )
    if shutil.which("g++") is None:
        return None, "skipped: needs g++ to compile OpenSpiel's C++ loop"
    if not (sdist / "open_spiel" / "spiel.cc").exists():
        return None, f"skipped: {sdist} holds no open_spiel/spiel.cc (an unpacked sdist)"
    try:
        return build_cpp_loop(sdist.resolve(), CACHE), ""
    except subprocess.CalledProcessError as exc:
        return None, f"skipped: compiling the C++ loop failed: {exc.stderr[:200]!r}"


def cpp_playouts(binary: Path, games: int) -> OwnClock:
    """Games per CPU second of the C++ loop, timed inside it (its start-up excluded)."""
    seeds = iter(range(1, 10**6))

    def run() -> float:
        done = subprocess.run([str(binary), str(games), str(next(seeds))], check=True,
                              capture_output=True, text=True)  # fmt: skip
        count, cpu = done.stdout.split()
        return int(count) / max(float(cpu), 1e-9)

    return OwnClock(run)


# --- 4. the Mia engine before ---------------------------------------------------------


def baseline_mia(commit: str = BASELINE) -> ModuleType | None:
    """`games/mia/state.py` as it was at `commit`, as a module of its own (None if git
    or the commit is not available, e.g. outside a clone)."""
    try:
        source = subprocess.run(
            ["git", "show", f"{commit}:src/bluffdice/games/mia/state.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    spec = importlib.util.spec_from_loader(f"bluffdice_mia_state_{commit}", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, f"{commit}:state.py", "exec"), module.__dict__)
    return module


def mia_views(rules_text: str, games: int, new_game: Any = None) -> Callable[[], int]:
    """Every state of `games` seeded random 4-player games, each viewed by the four seats
    and a spectator, as a table does after every move; counts the views."""
    rules = parse_rules(rules_text)
    if new_game is None:
        from bluffdice.games.mia import new_game
    states = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(rules, 4)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply(action).state
            states.append(state)
    recipients = (None, 0, 1, 2, 3)

    def run() -> int:
        for state in states:
            for recipient in recipients:
                state.view(recipient)
        return len(states) * len(recipients)

    return run


def same_games(old: ModuleType, rules_text: str, games: int) -> bool:
    """Both engines, the same seeded random playouts: the same final states."""
    from bluffdice.games.mia import new_game

    rules = parse_rules(rules_text)
    for seed in range(games):
        finals = []
        for make in (new_game, old.new_game):
            rng = random.Random(seed)
            state = make(rules, 3)
            steps = []
            while not state.is_terminal:
                if state.current_player == CHANCE:
                    action = rng.choice(state.chance_outcomes())[0]
                else:
                    action = rng.choice(state.legal_actions())
                state, events = state.apply(action)
                steps.append((str(action), tuple(events)))
            finals.append((steps, state.view(None).result, state.lives, state.scores))
        if finals[0] != finals[1]:
            return False
    return True


# --- 6. simulate with workers ----------------------------------------------------------

WORKER_BOTS = ("honest", "liar", "lucky", "chain", "random")


def match_games(rules_text: str, games: int, workers: int) -> Callable[[], int]:
    """`bluffdice simulate` as a user runs it (a fresh process: start-up, tables and all):
    every pair of WORKER_BOTS plays `games` games."""
    seeds = iter(range(10**6))
    pairs = len(WORKER_BOTS) * (len(WORKER_BOTS) - 1) // 2

    def run() -> int:
        command = [sys.executable, "-m", "bluffdice", "simulate", "--rules", rules_text]
        command += ["--bots", ",".join(WORKER_BOTS), "--games", str(games), "--json"]
        command += ["--seed", str(next(seeds)), "--workers", str(workers)]
        subprocess.run(command, check=True, capture_output=True)
        return pairs * games

    return run


def bench_workers(workers: int, quick: bool, console: Console) -> None:
    repeats = 2 if quick else 3
    games = 100_000 if quick else 400_000
    load = os.getloadavg()
    console.print(
        f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs; "
        f"wall clock, best of {repeats} interleaved runs; load average before: "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    one = many = 0.0
    for _ in range(repeats):  # interleave: both see the same load
        one = max(one, best_wall_rate(match_games("classic", games, 1), 1))
        many = max(many, best_wall_rate(match_games("classic", games, workers), 1))
    table = Table(title=f"bluffdice simulate: {workers} workers against one")
    for col in ("what", "rate", "reference", "ref rate", "ratio", "target", "met"):
        table.add_column(col, justify="left" if col in ("what", "reference") else "right")
    ratio = many / one
    table.add_row(
        f"simulate: classic, 5 bots, {games:,} games per pair, {workers} workers",
        f"{many:,.0f} games/s",
        "one process",
        f"{one:,.0f}",
        f"{ratio:.2f}x",
        "1.2x",
        "yes" if ratio >= 1.2 else "[red]no[/]",
    )
    console.print(table)
    load = os.getloadavg()
    console.print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs, fewer repeats")
    parser.add_argument(
        "--all", action="store_true", help="more Mia simulator rows: rule options, tables, seats"
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="only this: bluffdice simulate's matches in N workers against one",
    )
    parser.add_argument(
        "--openspiel-sdist",
        type=Path,
        metavar="DIR",
        help="the open_spiel sdist, unpacked: compile OpenSpiel's C++ loop against it",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON line per row after the tables"
    )
    args = parser.parse_args()
    pairs = 3 if args.quick else 7
    scale = 1 if args.quick else 4
    console = Console(width=200)
    if args.workers is not None:
        if args.workers < 2:
            parser.error("--workers needs 2 or more (it compares against one worker)")
        bench_workers(args.workers, args.quick, console)
        return
    console.print(
        f"python {platform.python_version()}, {platform.machine()}, one process; CPU time; "
        f"{pairs} interleaved pairs per row (ours then the reference, then the other way "
        f"round); batches: {MIA_BATCH:,} Mia games and {LD_BATCH:,} Liar's Dice games per "
        "simulator call"
    )
    outside: list[Row] = []
    internal: list[Row] = []
    try:
        import pyspiel  # noqa: F401

        have_spiel = True
    except ImportError:
        have_spiel = False
    spiel_ref = "pyspiel 'liars_dice' random playouts, driven from Python"
    if have_spiel:
        outside.append(
            paired(
                f"sim: 1-die Liar's Dice random playouts, batch {LD_BATCH:,}",
                ld_sim_playouts(LD_BATCH),
                spiel_ref,
                pyspiel_playouts(SPIEL_GAMES),
                "games/s",
                30.0,
                pairs,
            )
        )
        outside.append(
            paired(
                "engine API: 1-die Liar's Dice random playouts",
                engine_playouts("openspiel", SPIEL_GAMES),
                spiel_ref,
                pyspiel_playouts(SPIEL_GAMES),
                "games/s",
                0.5,
                pairs,
            )
        )
    else:
        for what in ("sim", "engine API"):
            outside.append(skipped(f"{what}: 1-die Liar's Dice random playouts", NO_SPIEL))
    cpp_label = f"sim: 1-die Liar's Dice random playouts, batch {LD_BATCH:,}"
    binary, why = cpp_loop(args.openspiel_sdist)
    if binary is None:
        outside.append(skipped(cpp_label, why))
    else:
        outside.append(
            paired(
                cpp_label,
                ld_sim_playouts(LD_BATCH),
                "OpenSpiel's own C++ loop, liars_dice random playouts (-O3, mt19937)",
                cpp_playouts(binary, CPP_GAMES),
                "games/s",
                NO_TARGET,
                pairs,
            )
        )

    for text, bots in MIA_TWO:
        words = mia_words_a_round(text, bots, MIA_BATCH)
        outside.append(
            paired(
                f"sim: Mia {text} rounds, {'/'.join(bots)} tables, batch {MIA_BATCH:,} "
                f"({words:.2f} words a round)",
                mia_sim_rounds(text, bots, MIA_BATCH),
                "numpy drawing the same random words (PCG64 random_raw)",
                numpy_raw_outputs(MIA_BATCH, words),
                "rounds/s",
                0.25,
                pairs,
            )
        )

    for text, bots in MIA_TWO:
        internal.append(
            paired(
                f"sim: Mia {text} rounds, {'/'.join(bots)} tables, batch {MIA_BATCH:,}",
                mia_sim_rounds(text, bots, MIA_BATCH),
                "bluffdice engine, the same bots",
                mia_engine_rounds(text, bots, 20 * scale),
                "rounds/s",
                5e6,
                pairs,
            )
        )
    for text, bots in SIM_ROWS + (SIM_ROWS_ALL if args.all else []):
        internal.append(
            paired(
                f"sim: Mia {text}, {'/'.join(bots)}, batch {MIA_BATCH:,}",
                mia_sim_rounds(text, bots, MIA_BATCH),
                "-",
                None,
                "rounds/s",
                5e6,
                pairs,
            )
        )
    old = baseline_mia()
    if old is None:
        internal.append(skipped("engine: Mia random playouts", f"commit {BASELINE} not here"))
    else:
        if not same_games(old, "classic", 20):
            console.print("[bold red]the Mia engine no longer plays the baseline's games[/]")
            sys.exit(1)
        for text in ("classic", "maexchen"):
            internal.append(
                paired(
                    f"engine: Mia {text} random playouts (3 players)",
                    engine_playouts(text, 300 * scale, players=3),
                    f"bluffdice engine at {BASELINE}",
                    engine_playouts(text, 300 * scale, new_game=old.new_game, players=3),
                    "games/s",
                    1.0,
                    pairs,
                )
            )
    before = baseline_mia(VIEW_BASELINE)
    if before is None:
        internal.append(skipped("engine: Mia views", f"commit {VIEW_BASELINE} not here"))
    else:
        for text in ("classic", "maexchen"):
            internal.append(
                paired(
                    f"engine: Mia {text} views (4 seats, spectator)",
                    mia_views(text, 5 * scale),
                    f"bluffdice views at {VIEW_BASELINE}",
                    mia_views(text, 5 * scale, new_game=before.new_game),
                    "views/s",
                    1.5,
                    pairs,
                )
            )
    console.print(rows_table("Against outside references", outside))
    console.print(
        rows_table("Internal: bluffdice against itself (an older commit, or the engine)", internal)
    )
    if args.json:
        for section, rows in (("outside", outside), ("internal", internal)):
            for r in rows:
                print(json.dumps({"section": section, **summary(r)}))


if __name__ == "__main__":
    main()
