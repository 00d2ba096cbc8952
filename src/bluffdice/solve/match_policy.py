"""The strategy of a solved heads-up Mia match (`bluffdice.solve.match`), kept to be played.

`bluffdice solve mia --match` solves every lives state of a match, but prints only its
values. A bot that plays the match needs each state's strategy: this module keeps them
as one policy per state (`bluffdice.solve.policy.Policy` nodes, keyed as the `cfr` bot
keys the round: `holder|floor|calls`), in one gzip-compressed JSON file:

    {"format": 1, "game": "mia", "rules": "mia(pass_limit=1)", "lives": 6,
     "target": 0.001, "exploitability": 7.6e-3, "seconds": 1893.5,
     "states": {"6,6": {"value": 0.046, "nodes": {...}}, ...}}

The classic match (6 lives) takes some 4 to 6 minutes of CPU and several megabytes of
strategy, so it is not shipped: it is solved on first use, to the `solve mia --match`
default target, with a progress bar on stderr, and kept in the user cache
(`platformdirs.user_cache_path("bluffdice") / "policies"`) beside the lean solver's
policies. A file of the same name in the package (`bluffdice/solve/data/`) would be
found first.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from bluffdice.games.base import BluffdiceError
from bluffdice.solve.policy import Policy

FORMAT = 1
TARGET = 1e-3
"""Each round is solved to this exploitability (the default of `solve mia --match`)."""
DATA_PACKAGE = "bluffdice.solve.data"

State = tuple[int, int]


@dataclass
class MatchPolicy:
    """Every lives state's strategy of one solved match: state -> policy of its round,
    player 0 of each being the player who opens the round (holding `state[0]` lives)."""

    rules: str
    lives: int
    states: dict[State, Policy]
    exploitability: float | None = None

    def policy(self, opener_lives: int, other_lives: int) -> Policy | None:
        return self.states.get((opener_lives, other_lives))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": "mia",
            "rules": self.rules,
            "lives": self.lives,
            "exploitability": self.exploitability,
            "states": {
                f"{a},{b}": {"value": p.value, "nodes": p.nodes}
                for (a, b), p in sorted(self.states.items())
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchPolicy:
        if data.get("format") != FORMAT or data.get("game") != "mia":
            raise BluffdiceError("not a Mia match policy file of format 1")
        rules = str(data["rules"])
        states: dict[State, Policy] = {}
        for key, entry in data["states"].items():
            a, b = (int(x) for x in key.split(","))
            states[(a, b)] = Policy(
                game="mia",
                rules=rules,
                spec={},
                title=f"match state {a},{b}",
                nodes=entry["nodes"],
                value=entry.get("value"),
            )
        return cls(rules, int(data["lives"]), states, data.get("exploitability"))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        partial.write_bytes(gzip.compress(json.dumps(self.to_json()).encode(), mtime=0))
        partial.replace(path)  # a reader never sees half a file


def match_text(rules: Any) -> str | None:
    """The rule string of the match the solver plays for `rules` (with the pass limit it
    adds where the pass is unlimited), or None where it takes no such match: rules not in
    lives mode, more than 9 lives, or a round the Mia solver does not take."""
    from bluffdice.games.registry import rules_string
    from bluffdice.solve import match

    try:
        fixed = match.match_rules(rules)
        match.spec_from_rules(fixed)
    except BluffdiceError:
        return None
    return rules_string(fixed)


def file_name(text: str) -> str:
    """The file of a match's policy: the hash of its rule string (which names it in full)."""
    return f"mia-match-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json.gz"


def cache_dir() -> Path:
    from platformdirs import user_cache_path

    return user_cache_path("bluffdice") / "policies"


_SOLVED: dict[str, MatchPolicy] = {}
"""Matches solved or read in this process, by rule string."""


def find(text: str) -> MatchPolicy | None:
    """The policy of the match `text` (a `match_text`) at hand: in this process, shipped
    or cached; None where it is not (nothing is solved)."""
    if text in _SOLVED:
        return _SOLVED[text]
    found = _read(text, cache_dir())
    if found is not None:
        _SOLVED[text] = found
    return found


@lru_cache(maxsize=8)
def _read(text: str, cache: Path) -> MatchPolicy | None:
    name = file_name(text)
    resource = resources.files(DATA_PACKAGE).joinpath(name)
    if resource.is_file():
        raw = resource.read_bytes()
    elif (cache / name).is_file():
        raw = (cache / name).read_bytes()
    else:
        return None
    found = MatchPolicy.from_json(json.loads(gzip.decompress(raw)))
    if found.rules != text:
        raise BluffdiceError(f"{name} holds the match of {found.rules}, not of {text}")
    return found


def obtain(text: str, target: float = TARGET, show: bool = True) -> MatchPolicy:
    """The policy of the match `text`: at hand, or solved now (`bluffdice.solve.match`,
    to `target`, with a progress bar on stderr when `show`) and cached."""
    found = find(text)
    if found is not None:
        return found
    solved = solve(text, target, show)
    solved.save(cache_dir() / file_name(text))
    _read.cache_clear()
    _SOLVED[text] = solved
    return solved


def solve(text: str, target: float = TARGET, show: bool = True) -> MatchPolicy:
    """Solve the match `text` state by state, as `bluffdice solve mia --match` does, and
    keep each state's average strategy as a policy of its round."""
    from bluffdice.games.registry import parse_rules
    from bluffdice.solve import match, mia
    from bluffdice.solve.policy import extract

    spec = match.spec_from_rules(parse_rules(text, game="mia"))
    # The round's tree is the same at every state (only the ends' payoffs differ), so
    # one tree lays out every state's strategy.
    tree = mia.build(spec.round)
    started = time.perf_counter()
    with _bar(text, target, show) as progress:
        task = progress.add_task("match", total=len(match.states(spec.lives)), status="")

        def shown(state: match.StateSolution) -> None:
            a, b = state.state
            progress.update(task, advance=1, status=f"{a} lives against {b}")

        solution = match.solve(spec, text, target=target, on_state=shown)
    states: dict[State, Policy] = {}
    for state, solved in solution.states.items():
        assert solved.strategy is not None  # match.solve keeps every state's strategy
        states[state] = Policy(
            game="mia",
            rules=text,
            spec={},
            title=f"match state {state[0]},{state[1]}",
            nodes=extract(tree, solved.strategy, mia.key_text),
            solver={"algorithm": "cfr+", "seconds": time.perf_counter() - started},
            value=solved.value,
        )
    return MatchPolicy(text, spec.lives, states, solution.exploitability)


def _bar(text: str, target: float, show: bool) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    label = f"solving the match {text} to {target:g} (once; cached in {cache_dir()})"
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        console=Console(file=sys.stderr),
        transient=True,
        disable=not show,
    )
