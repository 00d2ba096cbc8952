"""The lean solver's average strategy as a compact file, and playing it.

A lean policy file is a numpy `.npz` archive: four integer arrays of hands x rows laid
out as `bluffdice.solve.lean` lays out its average strategy (`liar0`, `liar1`: the liar
call at each row of the even and odd arrays; `bid0`, `bid1`: the bid into each row), and
`header`, a JSON document, whose `spec` names the game in full (dice, faces, wild face,
raise rule, `ones_bids` and unequal `cups`) so that a policy is never played at another
game's table, and `dice` the first bidder's cup and the other's:

    {"format": 1, "game": "liars-dice", "rules": "...", "spec": {...DudoSpec...},
     "dice": [2, 1], "levels": 255, "iterations": 366, "variant": "cfr+",
     "exploitability": 9.1e-4, "nash_conv": 1.8e-3, "value": 0.0098,
     "solver_exploitability": 8.7e-4, "seconds": 150.2}

Each probability is stored as round(p * levels) (uint8 for 255 levels, uint16 above),
and only where the acting player reaches the node with that hand: elsewhere it is 0,
which is what makes the file compress (the equilibrium reaches few of the 2^B nodes). A
player reads an action's chance as its stored number over the sum at the node, uniform
where all are 0; the exploitability and value in the header are those of exactly that
strategy, measured again on the stored numbers (`measure`), never the solver's own
(which is kept beside them as `solver_exploitability`).

Policies come from three places, first found first: the package
(`bluffdice/solve/data/`), the user cache (`platformdirs.user_cache_path("bluffdice")`,
so `$XDG_CACHE_HOME/bluffdice` where that is set), and, for games small enough
(`CHEAP_BIDS`), a solve on first use that shows a progress bar on stderr and fills the
cache (`obtain`).
"""

from __future__ import annotations

import io
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from bluffdice.games.base import BluffdiceError, RuleError
from bluffdice.solve.lean import Array, LeanCheckpoint, LeanGame, LeanSolver, lean_game, solve_to
from bluffdice.solve.liars_dice import CHALLENGE, DudoSpec, bid_text

FORMAT = 1
GAME = "liars-dice"
ARRAYS = ("liar0", "liar1", "bid0", "bid1")
DATA_PACKAGE = "bluffdice.solve.data"
TARGET = 1e-3
"""The exploitability a policy solved on first use is solved to."""
CHEAP_BIDS = 20
"""Games of at most this many bids are solved on first use: 2 dice of 6 faces with wild
ones (20 bids, 2^20 public nodes) takes a few minutes and 0.6 GB; the next size up (24
bids) takes 10 GB and hours."""
MAX_SECONDS = 3_600.0
LEVELS = 65_535
"""Steps a stored chance is rounded to. 255 (one byte) made the 2-dice policy three
times as exploitable as solved (2.5e-3 against 8.7e-4, a 3.3 MB file); 65,535 keeps it
(8.6e-4, 23 MB), which is why that policy is solved on first use, not shipped."""


class PolicyMismatch(BluffdiceError):
    """A policy file that is not for the game asked for."""


@dataclass
class LeanPolicy:
    """A stored lean policy: its header and its four arrays of quantised chances."""

    header: dict[str, Any]
    arrays: dict[str, Array]

    @property
    def spec(self) -> DudoSpec:
        return DudoSpec(**self.header["spec"])

    @property
    def exploitability(self) -> float:
        return float(self.header["exploitability"])

    def describe(self) -> str:
        h = self.header
        return (
            f"{self.spec.describe()}: exact policy, exploitability {h['exploitability']:.2g} "
            f"({h['iterations']} {h['variant']} iterations)"
        )

    # --- playing ----------------------------------------------------------------------

    def distribution(
        self, bids: Sequence[tuple[int, int]], hand: Sequence[int]
    ) -> dict[str, float] | None:
        """Action label (`liar`, `2x5`) -> chance for the player to move after `bids`
        (this round's, in order) holding `hand`; None where the bids or the hand are not
        this game's."""
        index, hands = _indexes(self.spec)
        actor = len(bids) % 2
        h = hands[actor].get(tuple(sorted(hand)))
        if h is None:
            return None
        bits = 0
        top = -1
        for bid in bids:
            b = index.get((bid[0], bid[1]))
            if b is None or b <= top:
                return None
            bits |= 1 << b
            top = b
        row = bits >> 1
        weights: dict[str, float] = {}
        if bids:
            weights[CHALLENGE] = float(self.arrays[f"liar{actor}"][h, row])
        into = self.arrays[f"bid{1 - actor}"]
        labels = _labels(self.spec)
        for b in range(top + 1, len(labels)):
            weights[labels[b]] = float(into[h, (bits | 1 << b) >> 1])
        total = sum(weights.values())
        if total <= 0:  # a node this hand never reaches under the policy: uniform
            return {a: 1.0 / len(weights) for a in weights}
        return {a: w / total for a, w in weights.items() if w > 0}

    # --- files ------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the file atomically (a temporary file renamed), so that a process that
        finds it in the cache never reads half of it."""
        buffer = io.BytesIO()
        header = np.frombuffer(json.dumps(self.header, sort_keys=True).encode(), np.uint8)
        np.savez_compressed(buffer, header=header, **self.arrays)  # type: ignore[arg-type]
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.{os.getpid()}.part")
        part.write_bytes(buffer.getvalue())
        part.replace(path)

    @classmethod
    def read(cls, raw: bytes, name: str, spec: DudoSpec | None = None) -> LeanPolicy:
        """The policy in `raw` (the bytes of a file called `name`); with `spec`, refused
        with one line unless it is that game's."""
        try:
            with np.load(io.BytesIO(raw), allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                arrays = {k: np.array(data[k]) for k in ARRAYS}
        except (OSError, ValueError, KeyError) as exc:
            raise BluffdiceError(f"{name} is not a lean policy file: {exc}") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            found = header.get("format") if isinstance(header, dict) else None
            raise PolicyMismatch(f"{name}: lean policy format {found!r}, not {FORMAT}")
        if header.get("game") != GAME:
            raise PolicyMismatch(f"{name} is a policy for {header.get('game')!r}, not {GAME}")
        policy = cls(header, arrays)
        found = _spec(header.get("spec"))
        if found is None:
            raise PolicyMismatch(f"{name}: its header names no game: {header.get('spec')!r}")
        if spec is not None and found != spec:
            raise PolicyMismatch(
                f"{name} is a policy for {found.describe()}, not for {spec.describe()}"
            )
        game = lean_game(found)
        shape = (game.width, game.rows)
        if any(a.shape != shape for a in arrays.values()):
            raise BluffdiceError(f"{name}: arrays are not {shape[0]} hands x {shape[1]} rows")
        return policy

    @classmethod
    def load(cls, path: Path, spec: DudoSpec | None = None) -> LeanPolicy:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise BluffdiceError(f"cannot read policy file {path}: {exc.strerror}") from None
        return cls.read(raw, str(path), spec)


def _spec(written: object) -> DudoSpec | None:
    """The spec a header names, read as `DudoSpec` reads its JSON (so a header compares
    by the game, not by how JSON spells a tuple); None where it names none."""
    try:
        return DudoSpec(**written) if isinstance(written, dict) else None
    except (TypeError, RuleError):
        return None


HandIndex = dict[tuple[int, ...], int]


@lru_cache(maxsize=16)
def _indexes(spec: DudoSpec) -> tuple[dict[tuple[int, int], int], tuple[HandIndex, HandIndex]]:
    """Bid -> its bit, and for each player sorted hand -> its row, as `lean_game`
    numbers them (the cups may differ)."""
    hands = tuple({h: i for i, h in enumerate(spec.hands(p))} for p in (0, 1))
    return {b: i for i, b in enumerate(spec.bids())}, (hands[0], hands[1])


@lru_cache(maxsize=16)
def _labels(spec: DudoSpec) -> tuple[str, ...]:
    return tuple(bid_text(b) for b in spec.bids())


# --- from a solver, and measuring what is stored ------------------------------------


def from_solver(
    solver: LeanSolver, rules: str, levels: int = LEVELS, seconds: float = 0.0
) -> LeanPolicy:
    """The solver's average strategy, quantised to `levels` steps and kept only where
    its own player reaches it, with the figures of the strategy as stored."""
    game = solver.g
    liar, bid = solver.average_strategy()
    kind = np.uint8 if levels <= 255 else np.uint16
    arrays = {
        f"{name}{a}": np.rint(pair[a] * levels).astype(kind)
        for name, pair in (("liar", liar), ("bid", bid))
        for a in (0, 1)
    }
    # Where a player never arrives with a hand under the stored strategy, what is
    # stored there changes nothing: zeros, which compress.
    evaluator = LeanSolver(game)
    _place(evaluator, arrays)
    played_liar, played_bid = evaluator.average_strategy()
    for p in (0, 1):
        mine = (played_liar[0], played_bid[1]) if p == 0 else (played_bid[0], played_liar[1])
        own = evaluator.own_reach(p, mine)
        arrays[f"liar{p}"][own[p] <= 0] = 0
        arrays[f"bid{1 - p}"][own[1 - p] <= 0] = 0
    _place(evaluator, arrays)
    exploitability, nash_conv, value = evaluator.exploitability()
    header = {
        "format": FORMAT,
        "game": GAME,
        "rules": rules,
        "spec": asdict(game.spec),
        "dice": list(game.spec.dice_of),
        "levels": levels,
        "iterations": solver.iterations,
        "variant": solver.variant.name,
        "seconds": round(seconds, 1),
        "exploitability": exploitability,
        "nash_conv": nash_conv,
        "value": value,
        "solver_exploitability": solver.exploitability()[0],
    }
    return LeanPolicy(header, arrays)


def _place(solver: LeanSolver, arrays: dict[str, Array]) -> None:
    """Make `arrays` the solver's average weights: its average strategy is then the
    stored one, normalised at each node as a player reads it (uniform where all are 0)."""
    for a in (0, 1):
        np.copyto(solver.avg_liar[a], arrays[f"liar{a}"])
        np.copyto(solver.avg_bid[a], arrays[f"bid{a}"])


def measure(policy: LeanPolicy) -> tuple[float, float, float]:
    """(exploitability, NashConv, value for player 0) of the stored strategy, exactly."""
    solver = LeanSolver(lean_game(policy.spec))
    _place(solver, policy.arrays)
    return solver.exploitability()


# --- where policies are found -----------------------------------------------------------


def file_name(spec: DudoSpec) -> str:
    """The file a game's policy has in the package and in the cache: every field of
    the spec, so that two games never share one (cups as `2x1`, `none` when equal)."""

    def text(value: object) -> str:
        if isinstance(value, tuple):
            return "x".join(map(str, value)) or "none"
        return str(value)

    fields = "-".join(
        f"{k}-{text(v)}".lower().replace("_", "-") for k, v in sorted(asdict(spec).items())
    )
    return f"lean-{fields}.npz"


def cache_dir() -> Path:
    from platformdirs import user_cache_path

    return user_cache_path("bluffdice") / "policies"


@lru_cache(maxsize=8)
def _found(spec: DudoSpec, cache: Path) -> LeanPolicy | None:
    name = file_name(spec)
    resource = resources.files(DATA_PACKAGE).joinpath(name)
    if resource.is_file():
        return LeanPolicy.read(resource.read_bytes(), name, spec)
    path = cache / name
    if path.is_file():
        return LeanPolicy.load(path, spec)
    return None


def find(spec: DudoSpec) -> LeanPolicy | None:
    """The shipped or cached policy of `spec`, else None (nothing is solved)."""
    return _found(spec, cache_dir())


def cheap(spec: DudoSpec) -> bool:
    """Whether `obtain` solves `spec` on first use: a game the lean solver takes, of at
    most `CHEAP_BIDS` bids."""
    try:
        game = lean_game(spec)
    except RuleError:
        return False
    return game.n_bids <= CHEAP_BIDS


def obtain(spec: DudoSpec, rules: str, show: bool = True) -> LeanPolicy | None:
    """The policy of `spec`: shipped, cached, or solved now to `TARGET` and cached when
    the game is `cheap` (with a progress bar on stderr when `show`); None otherwise."""
    found = find(spec)
    if found is not None or not cheap(spec):
        return found
    policy = solve(spec, rules, show=show)
    policy.save(cache_dir() / file_name(spec))
    _found.cache_clear()
    return policy


def solve(
    spec: DudoSpec,
    rules: str,
    target: float = TARGET,
    show: bool = True,
    levels: int = LEVELS,
    max_seconds: float = MAX_SECONDS,
) -> LeanPolicy:
    """Solve `spec` with the lean solver (CFR+, float32) until the exploitability is at
    most `target`, and keep its average strategy."""
    game: LeanGame = lean_game(spec)
    solver = LeanSolver(game)
    started = time.perf_counter()
    with _bar(spec, target, show) as progress:
        task = progress.add_task("solve", total=1.0, status="")

        def checkpoint(cp: LeanCheckpoint) -> None:
            # Progress on a log scale, from 1 (a first guess) down to the target.
            done = math.log(max(cp.exploitability, target)) / math.log(target)
            progress.update(
                task,
                completed=min(max(done, 0.0), 1.0),
                status=f"{cp.iterations} iterations, exploitability {cp.exploitability:.2e}",
            )

        solve_to(solver, target, max_seconds, on_checkpoint=checkpoint)
    return from_solver(solver, rules, levels, time.perf_counter() - started)


def _bar(spec: DudoSpec, target: float, show: bool) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    label = f"solving {spec.describe()} to {target:g} (once; cached in {cache_dir()})"
    return Progress(
        TextColumn(label),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        console=Console(file=sys.stderr),
        transient=True,
        disable=not show,
    )
