"""Solved policies as files: what to do at each public node, for each hand.

A policy file is gzip-compressed JSON:

    {"format": 1, "game": "mia", "rules": "...", "spec": {...}, "title": "...",
     "solver": {"algorithm": "cfr+", "iterations": 2000, "seconds": 12.3},
     "exploitability": 1.2e-4, "nash_conv": 2.4e-4, "value": 0.2957,
     "nodes": {"<public key>": {"actions": ["31", "32", ...],
                                 "rows": {"<hand>": [[action index, probability], ...]}}}}

`rows` holds, for each hand the acting player can hold there, the actions played with
probability above `threshold` (renormalised). A node where the player holds nothing
(in Mia, the receiver) has a single row under "*". Hands the player never holds at a
node under this policy (their own earlier play rules it out) are left out, which keeps
the files small; a bot that finds no row falls back on its own rule.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from bluffdice.games.base import BluffdiceError
from bluffdice.solve.cfr import reaches
from bluffdice.solve.tree import DECISION, FloatArray, PublicGame

FORMAT = 1
ANY_HAND = "*"
DATA_PACKAGE = "bluffdice.solve.data"


@dataclass
class Policy:
    """A solved policy: per public node, its actions and a distribution per hand."""

    game: str
    rules: str
    spec: dict[str, Any]
    title: str
    nodes: dict[str, dict[str, Any]]
    solver: dict[str, Any] = field(default_factory=dict)
    exploitability: float | None = None
    nash_conv: float | None = None
    value: float | None = None

    def distribution(self, key: str, hand: str | None) -> dict[str, float] | None:
        """Action label -> probability at `key` for `hand` (None: holds nothing)."""
        node = self.nodes.get(key)
        if node is None:
            return None
        rows = node["rows"]
        row = rows.get(ANY_HAND) if hand is None or ANY_HAND in rows else rows.get(hand)
        if row is None:
            return None
        actions = node["actions"]
        return {actions[a]: p for a, p in row}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "rules": self.rules,
            "spec": self.spec,
            "title": self.title,
            "solver": self.solver,
            "exploitability": self.exploitability,
            "nash_conv": self.nash_conv,
            "value": self.value,
            "nodes": self.nodes,
        }

    def save(self, path: str | Path) -> None:
        data = json.dumps(self.to_json(), separators=(",", ":")).encode()
        Path(path).write_bytes(gzip.compress(data, mtime=0))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Policy:
        if data.get("format") != FORMAT:
            raise BluffdiceError(f"unknown policy format {data.get('format')!r}")
        return cls(
            game=data["game"],
            rules=data["rules"],
            spec=data["spec"],
            title=data.get("title", ""),
            nodes=data["nodes"],
            solver=data.get("solver", {}),
            exploitability=data.get("exploitability"),
            nash_conv=data.get("nash_conv"),
            value=data.get("value"),
        )

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise BluffdiceError(f"cannot read policy file {path}: {exc.strerror}") from None
        return cls.from_json(_decode(raw, str(path)))


def _decode(raw: bytes, name: str) -> dict[str, Any]:
    try:
        text = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise BluffdiceError(f"{name} is not a policy file: {exc}") from None
    if not isinstance(data, dict):
        raise BluffdiceError(f"{name} is not a policy file")
    return data


INDEX = "index.json"


@lru_cache(maxsize=16)
def shipped(name: str) -> Policy:
    """A policy shipped inside the package (`bluffdice/solve/data/<name>.json.gz`)."""
    resource = resources.files(DATA_PACKAGE).joinpath(f"{name}.json.gz")
    try:
        raw = resource.read_bytes()
    except (FileNotFoundError, OSError):
        raise BluffdiceError(f"no shipped policy named {name!r}") from None
    return Policy.from_json(_decode(raw, name))


def shipped_names() -> list[str]:
    return sorted(shipped_index())


@lru_cache(maxsize=1)
def shipped_index() -> dict[str, dict[str, Any]]:
    """Name -> {game, rules, spec, title, exploitability, ...} of every shipped policy,
    read from a small index so that finding a policy does not load them all."""
    resource = resources.files(DATA_PACKAGE).joinpath(INDEX)
    try:
        data = json.loads(resource.read_text())
    except (FileNotFoundError, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def summary(policy: Policy) -> dict[str, Any]:
    """The index entry of a policy: everything but its nodes."""
    data = policy.to_json()
    del data["nodes"]
    data["nodes"] = len(policy.nodes)
    return data


def extract(
    game: PublicGame,
    strategy: tuple[FloatArray, FloatArray],
    key_text: Callable[[Any], str],
    threshold: float = 1e-3,
    digits: int = 4,
) -> dict[str, dict[str, Any]]:
    """The nodes of a policy file from a strategy laid out as `game.edges`."""
    reach = reaches(game, strategy)
    nodes: dict[str, dict[str, Any]] = {}
    for p in (0, 1):
        decisions = game.decisions[p]
        offsets = game.decision_offsets[p]
        labels = game.hand_labels[p]
        for d, node in enumerate(decisions):
            if game.kind[node] != DECISION:  # pragma: no cover - decisions only
                continue
            lo = int(offsets[d])
            n = int(game.n_children[node])
            probs = strategy[p][lo : lo + n]  # (actions, hands)
            actions = [game.labels[c] for c in game.children(int(node))]
            rows: dict[str, list[list[float]]] = {}
            if game.private[node]:
                held = np.flatnonzero(reach[p][node] > 1e-12)
                for h in held:
                    rows[labels[h]] = _sparse(probs[:, h], threshold, digits)
            else:
                rows[ANY_HAND] = _sparse(probs[:, 0], threshold, digits)
            if rows:
                nodes[key_text(game.info[node])] = {"actions": actions, "rows": rows}
    return nodes


Fallback = Callable[[Any, "str | None", list[str]], dict[str, float]]
"""(node info, hand label or None, action labels) -> action label -> probability."""


def to_strategy(
    game: PublicGame,
    policy: Policy,
    key_text: Callable[[Any], str],
    fallback: Fallback | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Lay a policy out on `game` (edges as `game.edges`), e.g. to measure it exactly.

    Nodes or hands the policy lacks take `fallback` (uniform without one); actions the
    policy does not name get probability 0.
    """
    out = []
    for p in (0, 1):
        strat = np.zeros((len(game.edges[p]), game.n_hands))
        labels = game.hand_labels[p]
        for d, node in enumerate(game.decisions[p]):
            lo = int(game.decision_offsets[p][d])
            actions = [game.labels[c] for c in game.children(int(node))]
            index = {a: i for i, a in enumerate(actions)}
            key = key_text(game.info[node])
            # A player with fewer hands (a smaller cup) leaves the padding at 0.
            hands = range(len(labels)) if game.private[node] else range(1)
            for h in hands:
                hand = labels[h] if game.private[node] else None
                dist = policy.distribution(key, hand)
                if dist is None and fallback is not None:
                    dist = fallback(game.info[node], hand, actions)
                column = np.zeros(len(actions))
                if dist:
                    for a, prob in dist.items():
                        if a in index:
                            column[index[a]] += prob
                if column.sum() <= 0:
                    column[:] = 1.0
                column /= column.sum()
                if game.private[node]:
                    strat[lo : lo + len(actions), h] = column
                else:
                    strat[lo : lo + len(actions), :] = column[:, None]
        out.append(strat)
    return out[0], out[1]


def _sparse(column: FloatArray, threshold: float, digits: int) -> list[list[float]]:
    kept = np.where(column >= threshold, column, 0.0)
    total = kept.sum()
    if total <= 0:
        kept, total = column, column.sum()
    out: list[list[float]] = []
    for a in np.flatnonzero(kept):
        out.append([int(a), round(float(kept[a] / total), digits)])
    return out
