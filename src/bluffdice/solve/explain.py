"""What a solved Mia round says, in numbers a player can use and sentences that say them.

Everything here reads a `Policy` (no solving): the chance of a challenge for every
announcement and value it had to beat, what to announce with each roll at the opening,
which lies to tell when the roll falls short, and how often a claim is honest. Both
seats' strategies for the same situation are averaged (the round after a roll is the
same game whichever seat holds the dice).

A claim is *honest* when the dice reach it (a challenge would fail), which includes
saying less than you rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bluffdice.games.mia.values import MIA, Ranking, probability
from bluffdice.solve import mia
from bluffdice.solve.policy import Policy
from bluffdice.solve.problems import mia_spec_from_json

OPENING = 0


@dataclass
class MiaExplanation:
    """The numbers behind the words; values are listed worst first (the claim order)."""

    title: str
    ranking: Ranking
    values: list[int]  # every claimable value, worst first
    floors: list[int]  # values a claim can have had to beat: 0 (opening) then worst first
    challenge: dict[int, dict[int, float]] = field(default_factory=dict)  # floor -> claim -> p
    pass_: dict[int, dict[int, float]] = field(default_factory=dict)  # floor -> claim -> p
    opening: dict[int, dict[int, float]] = field(default_factory=dict)  # roll -> claim -> p
    lies: dict[int, dict[int, float]] = field(default_factory=dict)  # floor -> claim -> p
    honest: dict[int, float] = field(default_factory=dict)  # floor -> P(claim is honest)
    reach: dict[int, float] = field(default_factory=dict)  # floor -> P(fresh roll beats it)
    mia_reply: dict[str, float] = field(default_factory=dict)  # after a Mia (receiver rules)
    value: float | None = None
    exploitability: float | None = None

    def label(self, floor: int) -> str:
        return "opening" if floor == OPENING else self.ranking.name(floor)

    def to_json(self) -> dict[str, Any]:
        def keyed(table: dict[int, dict[int, float]]) -> dict[str, dict[str, float]]:
            return {
                str(k): {str(v): round(p, 4) for v, p in row.items()} for k, row in table.items()
            }

        return {
            "title": self.title,
            "value_for_opener": self.value,
            "exploitability": self.exploitability,
            "challenge": keyed(self.challenge),
            "pass": keyed(self.pass_),
            "opening": keyed(self.opening),
            "lies": keyed(self.lies),
            "honest": {str(k): round(v, 4) for k, v in self.honest.items()},
            "mia_reply": self.mia_reply,
            "sentences": sentences(self),
        }


def explain(policy: Policy) -> MiaExplanation:
    if policy.game != "mia":
        raise ValueError("explain-policy reads Mia policies")
    spec = mia_spec_from_json(policy.spec)
    ranking = spec.ranking
    values = list(reversed(ranking.best_first))
    claimable = [v for v in values]
    floors = [OPENING] + [v for v in values if v != MIA]
    ex = MiaExplanation(
        title=policy.title,
        ranking=ranking,
        values=claimable,
        floors=floors,
        value=policy.value,
        exploitability=policy.exploitability,
    )
    for f in floors:
        frank = ranking.rank(f) if f else 0
        over = [w for w in claimable if ranking.rank(w) > frank]
        row_c: dict[int, float] = {}
        row_p: dict[int, float] = {}
        for w in over:
            dists = [
                policy.distribution(mia.key_text((role, frank, (w,))), None) for role in (0, 1)
            ]
            found = [d for d in dists if d]
            if not found:
                continue
            row_c[w] = float(np.mean([d.get(mia.CHALLENGE, 0.0) for d in found]))
            row_p[w] = float(
                np.mean([sum(p for a, p in d.items() if a.startswith("pass")) for d in found])
            )
        ex.challenge[f] = row_c
        if spec.pass_allowed:
            ex.pass_[f] = row_p
        ex.reach[f] = sum(float(probability(v)) for v in values if ranking.rank(v) > frank)
        _hold(policy, ex, f, frank)
    for role in (0, 1):
        d = policy.distribution(mia.key_text((role, 0, (MIA,))), None)
        if d and not ex.mia_reply:
            ex.mia_reply = d
    return ex


def _hold(policy: Policy, ex: MiaExplanation, f: int, frank: int) -> None:
    """Lies and honesty at the segment root where the holder must beat `f`."""
    ranking = ex.ranking
    lies: dict[int, float] = {}
    short_mass = honest = total = 0.0
    for role in (0, 1):
        node = policy.nodes.get(mia.key_text((role, frank, ())))
        if node is None:
            continue
        actions = node["actions"]
        for hand, row in node["rows"].items():
            d = int(hand)
            pd = float(probability(d))
            dist = {int(actions[a]): p for a, p in row}
            total += pd
            honest += pd * sum(p for w, p in dist.items() if ranking.rank(d) >= ranking.rank(w))
            if ranking.rank(d) <= frank:
                short_mass += pd
                for w, p in dist.items():
                    lies[w] = lies.get(w, 0.0) + pd * p
            if f == OPENING and role == 0:
                ex.opening[d] = dist
    if total:
        ex.honest[f] = honest / total
    if short_mass:
        ex.lies[f] = {w: p / short_mass for w, p in sorted(lies.items(), key=_by(ranking))}


def _by(ranking: Ranking) -> Any:
    return lambda item: ranking.rank(item[0])


def _pct(p: float) -> str:
    if p >= 0.995:
        return "always"
    if p < 0.005:
        return "never"
    return f"{p * 100:.0f}%"


def _often(p: float) -> str:
    """A rate as people say it: 'one time in eight', 'two times in three', '59%'."""
    numbers = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight"}
    numbers[10] = "ten"
    for num, den in ((1, 2), (1, 3), (2, 3), (1, 4), (3, 4), (1, 5), (1, 6), (1, 8), (1, 10)):
        if abs(p - num / den) < 0.012:
            word = "one time" if num == 1 else f"{numbers[num]} times"
            return f"{word} in {numbers[den]}"
    return f"{p * 100:.0f}% of the time"


def sentences(ex: MiaExplanation) -> list[str]:
    """Advice in words, each sentence read off the numbers above."""
    out: list[str] = []
    if ex.opening:
        out.append(_opening_sentence(ex))
    answer = _answer_opening_sentence(ex)
    if answer is not None:
        out.append(answer)
    out += _challenge_sentences(ex)
    inflation = _inflation_sentence(ex)
    if inflation is not None:
        out.append(inflation)
    out += _lie_sentences(ex)
    if ex.pass_:
        out.append(_pass_sentence(ex))
    if ex.mia_reply:
        parts = ", ".join(f"{a} {_pct(p)}" for a, p in ex.mia_reply.items())
        out.append(f"Answering an opening Mia: {parts}.")
    return out


def _answer_opening_sentence(ex: MiaExplanation) -> str | None:
    """Which opening claims to believe, which to challenge and how often."""
    r = ex.ranking
    row = ex.challenge.get(OPENING, {})
    if not row:
        return None
    believed = [w for w, p in row.items() if p < 0.005]
    line = "Answering the opening: "
    if believed:
        line += f"believe (roll) every claim up to {r.name(max(believed, key=r.rank))}; "
    mixed = sorted(((w, p) for w, p in row.items() if p >= 0.005), key=lambda kv: r.rank(kv[0]))
    if mixed:
        line += "challenge " + ", ".join(f"{r.name(w)} {_pct(p)}" for w, p in mixed)
    return line.rstrip("; ") + "."


def _challenge_sentences(ex: MiaExplanation) -> list[str]:
    """Answering later claims: as at the opening while the value to beat is low, then
    from some value on, always a challenge."""
    r = ex.ranking
    name = r.name
    out: list[str] = []
    always_from = None
    for f in ex.floors[1:]:
        cells = {w: p for w, p in ex.challenge.get(f, {}).items() if w != MIA}
        if cells and all(p >= 0.995 for p in cells.values()):
            always_from = f
            break
    early = [f for f in ex.floors[1:] if always_from is None or r.rank(f) < r.rank(always_from)]
    halves, believed_to = [], []
    for f in early:
        cells = ex.challenge.get(f, {})
        half = [w for w, p in cells.items() if p >= 0.5]
        if half:
            halves.append(min(half, key=r.rank))
        low = [w for w, p in cells.items() if p < 0.005]
        if low:
            believed_to.append(max(low, key=r.rank))
    if halves:
        typical = sorted(halves, key=r.rank)[len(halves) // 2]
        line = (
            f"Answering a claim that had to beat a low value ({ex.label(early[0])} to "
            f"{ex.label(early[-1])}): as at the opening"
        )
        if believed_to:
            top = sorted(believed_to, key=r.rank)[len(believed_to) // 2]
            line += f", believe claims up to about {name(top)}"
        out.append(line + f"; challenge about half the time from about {name(typical)} up.")
    if always_from is not None:
        out.append(
            f"When the claim had to beat {name(always_from)} or more, challenge it, whatever "
            "it is (short of Mia): rolling again to beat it would cost more than a challenge "
            "that fails."
        )
    return out


def _inflation_sentence(ex: MiaExplanation) -> str | None:
    """Whether a roll that beats the value to beat is still inflated, and where."""
    r = ex.ranking
    voluntary = {
        f: max(0.0, (ex.reach[f] - ex.honest[f]) / ex.reach[f])
        for f in ex.floors[1:]
        if f in ex.honest and ex.reach[f] > 0
    }
    inflated = [f for f, v in voluntary.items() if v >= 0.02]
    if voluntary and not inflated:
        return (
            "After the opening, lie only when you must: with a roll that beats what you must "
            "beat, announce it (or a lower value it still beats)."
        )
    if not inflated:
        return None
    worst = max(inflated, key=r.rank)
    honest_from = [f for f in voluntary if r.rank(f) > r.rank(worst)]
    line = (
        f"Must beat {ex.label(min(inflated, key=r.rank))} to {ex.label(worst)}: even a roll "
        f"that beats it is inflated up to {max(voluntary.values()) * 100:.0f}% of the time"
    )
    if honest_from:
        line += (
            f"; from {ex.label(min(honest_from, key=r.rank))} on, lie only when the roll "
            "falls short"
        )
    return line + "."


def _lie_sentences(ex: MiaExplanation) -> list[str]:
    """The commonest lies when the roll falls short, for a few values to beat."""
    r = ex.ranking
    out: list[str] = []
    for f in [f for f in ex.floors[1:] if f in ex.lies][::6][:3]:
        common = sorted(ex.lies[f].items(), key=lambda kv: -kv[1])[:3]
        out.append(
            f"Must beat {r.name(f)} and the roll falls short: lie "
            + ", ".join(
                f"{r.name(w)} ({p * 100:.0f}%)"
                for w, p in sorted(common, key=lambda kv: r.rank(kv[0]))
            )
            + "."
        )
    return out


def _pass_sentence(ex: MiaExplanation) -> str:
    used = [(f, w, p) for f, row in ex.pass_.items() for w, p in row.items() if p >= 0.01]
    if not used:
        return (
            "Passing: never (heads-up the cup goes back to the player who saw the dice, "
            "who knows whether to challenge)."
        )
    f, w, p = max(used, key=lambda t: t[2])
    return (
        f"Passing is rare: {len(used)} situations use it at least 1% of the time, "
        f"most of all a claim of {ex.ranking.name(w)} after {ex.label(f)} ({_pct(p)})."
    )


def _opening_sentence(ex: MiaExplanation) -> str:
    r = ex.ranking
    name = r.name
    honest = [d for d, dist in ex.opening.items() if _honest_only(r, d, dist)]
    lowest = min(honest, key=r.rank) if honest else None
    line = "Opening the round: "
    if lowest is not None:
        line += f"announce your roll as it is from {name(lowest)} up"
    below = [d for d in ex.opening if lowest is None or r.rank(d) < r.rank(lowest)]
    mixed = [d for d in below if ex.opening[d].get(d, 0.0) > 0.005]
    for d in sorted(mixed, key=r.rank, reverse=True):
        line += f"; with {name(d)}, say {name(d)} {_often(ex.opening[d][d])}, else lie"
    liars = [d for d in below if d not in mixed]
    lies: dict[int, float] = {}
    mass = sum(float(probability(d)) for d in liars)
    for d in liars:
        for w, p in ex.opening[d].items():
            lies[w] = lies.get(w, 0.0) + float(probability(d)) * p / mass
    top = sorted(lies.items(), key=lambda kv: -kv[1])[:4]
    if top:
        line += "; with anything lower, lie: " + ", ".join(
            f"{name(w)} ({p * 100:.0f}%)" for w, p in sorted(top, key=lambda kv: r.rank(kv[0]))
        )
        rest = 1 - sum(p for _, p in top)
        if rest > 0.01:
            line += f", higher ones now and then ({rest * 100:.0f}% together)"
    return line + "."


def _honest_only(r: Ranking, d: int, dist: dict[int, float]) -> bool:
    """Every claim the holder makes with dice `d` is one the dice reach."""
    return sum(p for w, p in dist.items() if r.rank(w) <= r.rank(d)) >= 0.995
