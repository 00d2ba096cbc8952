"""A conformance check that ships with the library: `check_rules(rules, players)`.

It plays many random games under a rule set and checks, at every step, the contracts
that every other layer relies on. Any game of the engine (and any new variant) is checked
by one call; a failure names the seed and the record so it can be replayed.

Checked at each step:
- a state that is not over has a legal action (or, for chance, outcomes);
- chance probabilities are positive exact Fractions that sum to exactly 1;
- illegal actions (junk, and real actions that are legal elsewhere but not here) raise
  `IllegalAction` and leave the state unchanged;
- a player's view is the same in every state that player cannot tell apart from the real
  one (`state.indistinguishable(player)`), so no view leaks hidden dice; views encode
  to JSON;
- the state's own invariants hold (`state.invariants()`: e.g. lives never negative);
- the state id grows by one per step.
At the end: payoffs are zero-sum, and the record replays (also after a JSON round trip)
to the identical final state.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import msgspec

from bluffdice.dealer import Game
from bluffdice.games.base import CHANCE, IllegalAction, PrivateEvent
from bluffdice.games.record import Record
from bluffdice.games.registry import parse_rules, rules_string
from bluffdice.table.dice import sample


class ConformanceError(AssertionError):
    """A rule set broke a contract; the message says which, with seed and record."""


@dataclass
class CheckReport:
    rules: str
    players: int
    games: int = 0
    steps: int = 0
    illegal_tried: int = 0
    views_compared: int = 0
    winners: dict[int, int] = field(default_factory=dict)


_JUNK: tuple[Any, ...] = (None, "garbage", 12345, ("not", "an", "action"))


def check_rules(
    rules: Any,
    players: int,
    games: int = 20,
    seed: int = 0,
    max_steps: int = 20_000,
    probe_every: int = 1,
) -> CheckReport:
    """Play `games` random games of `rules` with `players` seats and check every contract.

    `rules` is a rules object or a rule string. Raises ConformanceError on the first
    violation. `probe_every` thins the expensive probes (illegal actions, hidden-info
    variants) for long games; 1 probes every step.
    """
    if isinstance(rules, str):
        rules = parse_rules(rules)
    report = CheckReport(rules=str(getattr(rules, "text", rules)), players=players)
    pool: dict[str, Any] = {}  # every action seen legal anywhere, by its text
    for number in range(games):
        game_seed = seed * 1_000_003 + number
        rng = random.Random(game_seed)
        game = Game.new(rules, players)
        _play_and_check(game, rng, pool, report, game_seed, max_steps, probe_every)
        report.games += 1
    return report


def _fail(message: str, game: Game, seed: int) -> ConformanceError:
    record = msgspec.json.encode(game.record).decode()
    return ConformanceError(f"{message}\n  game seed: {seed}\n  record: {record}")


def _play_and_check(
    game: Game,
    rng: random.Random,
    pool: dict[str, Any],
    report: CheckReport,
    seed: int,
    max_steps: int,
    probe_every: int,
) -> None:
    for step in range(max_steps):
        state = game.state
        if state.is_terminal:
            _check_end(game, report, seed)
            return
        probe = step % probe_every == 0
        _check_invariants(state, game, seed)
        if probe:
            _check_views(state, game, seed, report)
        player = state.current_player
        if player == CHANCE:
            outcomes = list(state.chance_outcomes())
            _check_chance(outcomes, game, seed)
            action = sample(outcomes, rng)
            legal: list[Any] = [o for o, _ in outcomes]
        else:
            legal = list(state.legal_actions())
            if not legal:
                raise _fail(f"player {player} has no legal action in a live state", game, seed)
            for a in legal:
                pool.setdefault(str(a), a)
            action = rng.choice(legal)
        if probe:
            _check_illegal(state, legal, pool, game, seed, report)
        before_id = state.state_id
        events = game.step(action)
        report.steps += 1
        # The id counts public steps: a step only its actor knows of (a blind roller's
        # look) must leave it as it was, or the id itself would tell the others.
        hidden = bool(events) and all(isinstance(e, PrivateEvent) for e in events)
        if game.state.state_id != before_id + (0 if hidden and player != CHANCE else 1):
            raise _fail("state id did not grow by one (public step) or zero (hidden)", game, seed)
    raise _fail(f"game did not end within {max_steps} steps", game, seed)


def _check_chance(outcomes: list[tuple[Any, Fraction]], game: Game, seed: int) -> None:
    if not outcomes:
        raise _fail("chance node without outcomes", game, seed)
    total = Fraction(0)
    for outcome, p in outcomes:
        if not isinstance(p, Fraction) or p <= 0:
            raise _fail(f"chance outcome {outcome} has probability {p!r}", game, seed)
        total += p
    if total != 1:
        raise _fail(f"chance probabilities sum to {total}, not 1", game, seed)


def _check_illegal(
    state: Any,
    legal: list[Any],
    pool: dict[str, Any],
    game: Game,
    seed: int,
    report: CheckReport,
) -> None:
    legal_texts = {str(a) for a in legal}
    candidates: list[Any] = list(_JUNK)
    candidates.extend(a for text, a in pool.items() if text not in legal_texts)
    snapshot = copy.deepcopy(state)
    for bad in candidates:
        try:
            state.apply(bad)
        except IllegalAction:
            pass
        except Exception as exc:  # noqa: BLE001 - any other error is a contract breach
            raise _fail(f"illegal {bad!r} raised {type(exc).__name__}: {exc}", game, seed) from exc
        else:
            raise _fail(f"illegal action {bad!r} was accepted", game, seed)
        report.illegal_tried += 1
    if state != snapshot:
        raise _fail("refusing an illegal action changed the state", game, seed)


def _check_views(state: Any, game: Game, seed: int, report: CheckReport) -> None:
    variants_of = getattr(state, "indistinguishable", None)
    for player in [None, *range(state.num_players)]:
        view = state.view(player)
        try:
            msgspec.json.encode(view)
        except (TypeError, msgspec.EncodeError) as exc:
            raise _fail(f"view of {player} does not encode to JSON: {exc}", game, seed) from exc
        if variants_of is None:
            continue
        variants: Iterable[Any] = variants_of(player)
        for other in variants:
            report.views_compared += 1
            if other.view(player) != view:
                raise _fail(
                    f"the view of player {player} depends on hidden information:\n"
                    f"  {view}\n  vs {other.view(player)}",
                    game,
                    seed,
                )


def _check_invariants(state: Any, game: Game, seed: int) -> None:
    invariants = getattr(state, "invariants", None)
    if invariants is None:
        return
    broken = invariants()
    if broken:
        raise _fail("invariant broken: " + "; ".join(broken), game, seed)


def _check_end(game: Game, report: CheckReport, seed: int) -> None:
    state = game.state
    _check_invariants(state, game, seed)
    returns = state.returns()
    if len(returns) != state.num_players or abs(sum(returns)) > 1e-9:
        raise _fail(f"terminal returns {returns} are not zero-sum", game, seed)
    if game.record.replay() != state:
        raise _fail("replaying the record does not reproduce the final state", game, seed)
    decoded = msgspec.json.decode(msgspec.json.encode(game.record), type=Record)
    if decoded.replay() != state:
        raise _fail("the record does not survive a JSON round trip", game, seed)
    best = max(returns)
    for player, value in enumerate(returns):
        if value == best and best > 0:
            report.winners[player] = report.winners.get(player, 0) + 1


# --- non-interference: what a seat receives never depends on what it may not see -------


@dataclass
class SecrecyReport:
    """How much `check_secrecy` compared: games, (game, seat) pairs, encoded messages
    found byte-identical, and pairs cut short (a reveal, or a move that the changed
    dice made illegal, ends the comparison)."""

    rules: str
    players: int
    games: int = 0
    seats: int = 0
    messages: int = 0
    cut_at_reveal: int = 0
    cut_at_illegal: int = 0


class _SwappedDice:
    """Replays game A's dice for game B, but swaps the dice of players other than the
    observer (each roll with probability 1/2) for another possible outcome."""

    def __init__(self, outcomes: list[Any], observer: int, rng: random.Random) -> None:
        self.outcomes = iter(outcomes)
        self.observer = observer
        self.rng = rng

    def draw(self, state: Any) -> Any:
        original = next(self.outcomes, None)
        possible = [o for o, _ in state.chance_outcomes()]
        if original not in possible:  # B has already parted from A (after a reveal)
            return self.rng.choice(possible)
        if state.phase == "seat" or state.turn == self.observer or self.rng.random() < 0.5:
            return original
        others = [o for o in possible if o != original]
        return self.rng.choice(others) if others else original


def check_secrecy(rules: Any, players: int, games: int = 20, seed: int = 0) -> SecrecyReport:
    """Play random games (A); for every seat s replay each as a game B that differs only
    in what s may not see (other players' dice, and their hidden moves such as a blind
    roller's look, taken or left out); every message the table encodes for s must be
    byte-identical in A and B until a reveal shows different dice. Raises
    ConformanceError with the seeds on the first leak."""
    from bluffdice.table import Table, encode
    from bluffdice.table.dice import RandomDice

    if isinstance(rules, str):
        rules = parse_rules(rules)
    report = SecrecyReport(rules=rules_string(rules), players=players)
    for number in range(games):
        game_seed = seed * 1_000_003 + number
        rng = random.Random(game_seed)
        a = Table(rules, players, dice=RandomDice(rng))
        while (pending := a.pending()) is not None:
            a.submit(pending.seat, pending.state_id, rng.choice(list(pending.view.legal_actions)))
        report.games += 1
        where = f"rules {rules}, game seed {game_seed}"
        for observer in range(players):
            report.seats += 1
            expected = [encode(u) for u in a.history(observer)]
            b, illegal = _replayed_unseen(a, rules, players, observer, random.Random(number))
            got = [encode(u) for u in b.history(observer)]
            report.messages += _compare(a, observer, expected, got, illegal, report, where)
    return report


def _replayed_unseen(
    a: Any, rules: Any, players: int, observer: int, rng: random.Random
) -> tuple[Any, bool]:
    """Game B: game A again with what `observer` may not see changed (others' dice
    swapped, their hidden moves left out or others taken); and whether a move of A
    became illegal in it."""
    from bluffdice.table import Refused, Table

    hidden_texts = {
        e.text
        for e in a.log
        if e.actor >= 0 and e.events and all(isinstance(x, PrivateEvent) for x in e.events)
    }
    chance = [e.action for e in a.log if e.actor == CHANCE]
    b = Table(rules, players, dice=_SwappedDice(chance, observer, rng))
    for entry in [e for e in a.log if e.actor >= 0]:
        actor = entry.actor
        if actor != observer and entry.text in hidden_texts:
            continue  # leave the hidden move out
        if actor != observer:
            for action in b.state.legal_actions():
                if str(action) in hidden_texts and str(action) != entry.text:
                    b.submit(actor, b.state_id, action)  # take one A did not
                    break
        if isinstance(b.submit(actor, b.state_id, entry.action), Refused):
            return b, True
    return b, False


def _compare(
    a: Any,
    observer: int,
    expected: list[bytes],
    got: list[bytes],
    illegal: bool,
    report: SecrecyReport,
    where: str,
) -> int:
    """How many of the messages to `observer` are the same in A and B, up to the first
    reveal of different dice; a difference before it is a leak."""
    same = 0
    for mine, theirs in zip(expected, got, strict=False):
        if mine != theirs:
            if not _is_reveal(a, observer, same):
                raise ConformanceError(
                    f"message {same} to seat {observer} depends on hidden "
                    f"information ({where}):\n"
                    f"  A: {mine[:400]!r}\n  B: {theirs[:400]!r}"
                )
            report.cut_at_reveal += 1
            return same
        same += 1
    if illegal:
        report.cut_at_illegal += 1
    elif len(expected) != len(got):
        raise ConformanceError(
            f"seat {observer} got {len(got)} messages instead of {len(expected)} ({where})"
        )
    return same


def _is_reveal(table: Any, recipient: int, index: int) -> bool:
    """Whether the recipient's message number `index` shows dice that were hidden."""
    from bluffdice.games.base import DiceRevealed

    updates = table.history(recipient)
    return any(isinstance(e, DiceRevealed) for e in updates[index].events)
