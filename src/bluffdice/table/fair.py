"""Dice nobody has to trust: a commit-reveal dice source and the check of its records.

Before the first roll the table publishes a commitment, the SHA-256 of a secret server
seed; players then add seeds of their own. Every die comes from an HMAC-SHA256 byte
stream keyed by the server seed over the players' seeds, so neither side alone chose
any die. When the game ends the server seed is revealed and anyone can recompute every
die, check it against the commitment, and replay the moves through the rules.
docs/fairness.md specifies the byte layout for verifiers written elsewhere.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from bluffdice.games.base import CHANCE, BluffdiceError, GameState, IllegalAction
from bluffdice.games.record import Record
from bluffdice.games.registry import get_game
from bluffdice.table.dice import DiceSource, seeded, system

SCHEME = "bluffdice-fair-v1"
"""Names this scheme in every record; a change of byte layout gets a new name."""

SERVER_SEED_BYTES = 32
MAX_CLIENT_SEED_BYTES = 1024
MAX_FACES = 256
BLOCK_BYTES = 32  # one HMAC-SHA256 output


class FairnessError(BluffdiceError):
    """Seeds or dice that the scheme does not allow."""


class DiceRoll(msgspec.Struct, frozen=True):
    """The dice of one chance node as they fell, and how many faces each had: enough
    for a verifier that knows nothing of the games to recompute them."""

    faces: int
    dice: tuple[int, ...]


class FairRecord(msgspec.Struct, frozen=True):
    """A game record with what proves its dice: published commitment, revealed server
    seed, players' seeds, every roll, and a digest of all of it (shown at the end)."""

    record: Record
    commitment: str
    server_seed: str
    client_seeds: tuple[str, ...] = ()
    rolls: tuple[DiceRoll, ...] = ()
    digest: str = ""
    scheme: str = SCHEME


# --- the scheme -------------------------------------------------------------------------


def commitment_of(server_seed: bytes) -> str:
    """What the table publishes before the first roll: SHA-256 of the seed, hex."""
    return hashlib.sha256(server_seed).hexdigest()


def server_seed_from(seed: int) -> bytes:
    """A server seed for reproducible runs (--seed): anyone who knows `seed` knows it,
    so it proves nothing to players; live tables use `new_server_seed`."""
    return hashlib.sha256(f"{SCHEME} server seed {seed}".encode()).digest()


def new_server_seed() -> bytes:
    """A server seed nobody can guess: 32 bytes from the operating system."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def check_client_seeds(client_seeds: Sequence[str]) -> tuple[str, ...]:
    """The players' seeds as the scheme takes them: strings of at most 1024 UTF-8 bytes."""
    for seed in client_seeds:
        if not isinstance(seed, str):
            raise FairnessError(f"a client seed is text, not {seed!r}")
        try:
            size = len(seed.encode("utf-8"))
        except UnicodeEncodeError:
            raise FairnessError(f"client seed {seed!r} is not valid UTF-8 text") from None
        if size > MAX_CLIENT_SEED_BYTES:
            raise FairnessError(
                f"a client seed may have at most {MAX_CLIENT_SEED_BYTES} bytes, not {size}"
            )
    return tuple(client_seeds)


def client_message(client_seeds: Sequence[str]) -> bytes:
    """The players' seeds, in seat order, each as its UTF-8 length (4 bytes, big-endian)
    and bytes: no two lists of seeds give the same message."""
    parts = []
    for seed in check_client_seeds(client_seeds):
        data = seed.encode("utf-8")
        parts.append(len(data).to_bytes(4, "big") + data)
    return b"".join(parts)


def acceptance_limit(faces: int) -> int:
    """Bytes below this (the largest multiple of `faces` up to 256) make a die; the rest
    are skipped, so every face has exactly the same number of bytes behind it."""
    if type(faces) is not int or not 1 <= faces <= MAX_FACES:
        raise FairnessError(f"a fair die has 1 to {MAX_FACES} faces, not {faces!r}")
    return MAX_FACES - MAX_FACES % faces


_LIMITS = {faces: MAX_FACES - MAX_FACES % faces for faces in range(1, MAX_FACES + 1)}


class FairStream:
    """The byte stream of one game and the dice read from it, in order.

    Block k is HMAC-SHA256(key=server seed, message=client message + k as 8 bytes,
    big-endian), k = 0, 1, 2, ...; the stream is the blocks one after another. Each die
    reads bytes from where the last one stopped, across blocks and across rolls.
    """

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str] = ()) -> None:
        self._key = server_seed
        self._prefix = client_message(client_seeds)
        self._block = b""
        self._pos = 0
        self._counter = 0

    def block(self, counter: int) -> bytes:
        return hmac.digest(self._key, self._prefix + counter.to_bytes(8, "big"), "sha256")

    def _next_block(self) -> None:
        self._block = self.block(self._counter)
        self._counter += 1
        self._pos = 0

    def die(self, faces: int) -> int:
        """The next die with `faces` faces, 1 to `faces`."""
        limit = _LIMITS.get(faces) if type(faces) is int else None
        if limit is None:
            limit = acceptance_limit(faces)  # raises: not a die
        block, pos = self._block, self._pos
        while True:
            if pos == len(block):
                self._next_block()
                block, pos = self._block, 0
            byte = block[pos]
            pos += 1
            if byte < limit:
                self._pos = pos
                return byte % faces + 1

    def dice(self, count: int, faces: int) -> tuple[int, ...]:
        die = self.die
        return tuple([die(faces) for _ in range(count)])

    def many(self, count: int, faces: int) -> bytes:
        """The next `count` dice at once, each as a byte holding die - 1: the same dice
        `die` reads one by one, fast enough to test millions of them."""
        limit = acceptance_limit(faces)
        if count < 0:
            raise FairnessError(f"cannot read {count} dice")
        table = bytes(b % faces for b in range(MAX_FACES))
        rejected = bytes(range(limit, MAX_FACES))
        parts: list[bytes] = []
        need = count
        while need:
            if self._pos == len(self._block):
                whole = need // BLOCK_BYTES
                if whole > 1:  # blocks that cannot hold more dice than needed: in one go
                    first = self._counter
                    self._counter += whole
                    made = b"".join(map(self.block, range(first, self._counter)))
                    made = made.translate(table, rejected)
                    parts.append(made)
                    need -= len(made)
                    continue
                self._next_block()
            rest = self._block[self._pos :]
            made = rest.translate(table, rejected)
            if len(made) < need:
                parts.append(made)
                need -= len(made)
                self._pos = len(self._block)
                continue
            taken = 0  # the block holds the last die needed: stop right after it
            for offset, byte in enumerate(rest):
                taken += byte < limit
                if taken == need:
                    parts.append(made[:need])
                    self._pos += offset + 1
                    need = 0
                    break
        return b"".join(parts)


# --- the dice source ------------------------------------------------------------------------


class FairDice:
    """A `DiceSource` whose every die can be checked after the game.

    Publish `commitment` before the first roll, take the players' seeds
    (`set_client_seeds`) before the first roll too, then `draw` as any source. At the
    end `fair_record` reveals the server seed together with the game's record.
    """

    def __init__(self, server_seed: bytes | None = None, client_seeds: Sequence[str] = ()) -> None:
        seed = new_server_seed() if server_seed is None else server_seed
        if not isinstance(seed, bytes) or len(seed) != SERVER_SEED_BYTES:
            raise FairnessError(f"a server seed is {SERVER_SEED_BYTES} bytes")
        self._server_seed = seed
        self.commitment = commitment_of(seed)
        self._client_seeds = check_client_seeds(client_seeds)
        self._stream: FairStream | None = None
        self.rolls: list[DiceRoll] = []

    @property
    def client_seeds(self) -> tuple[str, ...]:
        return self._client_seeds

    def set_client_seeds(self, client_seeds: Sequence[str]) -> None:
        """The players' seeds, in seat order ("" for a player who gave none); only before
        the first roll, or the server could pick seeds after seeing dice."""
        if self._stream is not None:
            raise FairnessError("client seeds are taken before the first roll")
        self._client_seeds = check_client_seeds(client_seeds)

    def draw(self, state: GameState) -> Any:
        if self._stream is None:
            self._stream = FairStream(self._server_seed, self._client_seeds)
        if not hasattr(state, "physical_roll"):
            raise FairnessError(
                f"{type(state).__name__} does not say which dice its chance steps roll "
                "(physical_roll, outcome_of_roll), so it cannot use fair dice"
            )
        count, faces = state.physical_roll()
        dice = self._stream.dice(count, faces)
        self.rolls.append(DiceRoll(faces=faces, dice=dice))
        return state.outcome_of_roll(dice)

    def fair_record(self, record: Record, unfinished: bool = False) -> FairRecord:
        """The record with the server seed revealed. Only once the game is over, since the
        seed tells every die still to come; `unfinished` for a game abandoned for good."""
        if not unfinished and not record.replay().is_terminal:
            raise FairnessError(
                "the game is not over: revealing the server seed would show the dice to come"
            )
        fair = FairRecord(
            record=record,
            commitment=self.commitment,
            server_seed=self._server_seed.hex(),
            client_seeds=self._client_seeds,
            rolls=tuple(self.rolls),
        )
        return msgspec.structs.replace(fair, digest=digest_of(fair))


def digest_of(fair: FairRecord) -> str:
    """SHA-256 over every field of a fair record (its own digest aside), each as UTF-8
    text with a 4-byte big-endian length; the table shows it when the game ends, so a
    record changed later no longer matches what the players saw."""
    record = fair.record
    texts = [
        fair.scheme,
        record.game,
        record.rules,
        str(record.players),
        fair.commitment,
        fair.server_seed,
        str(len(fair.client_seeds)),
        *fair.client_seeds,
        str(len(record.steps)),
        *record.steps,
        str(len(fair.rolls)),
        *(f"{roll.faces}:" + " ".join(str(d) for d in roll.dice) for roll in fair.rolls),
    ]
    h = hashlib.sha256()
    for text in texts:
        data = text.encode("utf-8")
        h.update(len(data).to_bytes(4, "big") + data)
    return h.hexdigest()


def dice_source(kind: str, seed: int | None = None, client_seeds: Sequence[str] = ()) -> DiceSource:
    """The dice source a command asks for: "system", "seeded" or "fair" (reproducible
    with a seed, unpredictable without)."""
    if kind == "system":
        return system()
    if kind == "seeded":
        if seed is None:
            raise FairnessError("seeded dice need a seed (--seed)")
        return seeded(seed)
    if kind == "fair":
        server_seed = None if seed is None else server_seed_from(seed)
        return FairDice(server_seed, client_seeds)
    raise FairnessError(f"unknown dice {kind!r}: choose system, seeded or fair")


# --- playing and checking ----------------------------------------------------------------


def play_fair(
    rules: Any,
    players: int,
    bots: Sequence[Any],
    server_seed: bytes | None = None,
    client_seeds: Sequence[str] = (),
) -> FairRecord:
    """Play one game of bots (in-process agents) at a table with fair dice and return its
    fair record: real records for tests and `verify`.

    The seeds are fixed before the table is made, because a table draws its first chance
    step (who starts) as soon as it exists.
    """
    from bluffdice.table.runners import run_sync
    from bluffdice.table.table import Table

    if len(bots) != players:
        raise FairnessError(f"{players} players need {players} bots, not {len(bots)}")
    dice = FairDice(server_seed, client_seeds)
    table = Table(rules, players, dice=dice)
    run_sync(table, bots)
    return dice.fair_record(table.record)


@dataclass(frozen=True)
class Verdict:
    """What `verify` found: `problem` is None when every check passed."""

    problem: str | None
    game: str
    rules: str
    players: int
    rolls: int
    steps: int
    finished: bool
    commitment: str
    digest: str

    @property
    def verified(self) -> bool:
        return self.problem is None


def load_fair_record(data: bytes | str) -> FairRecord:
    """Read a fair record from JSON; a file that is not one is a FairnessError."""
    try:
        return msgspec.json.decode(data, type=FairRecord)
    except msgspec.ValidationError as exc:
        raise FairnessError(f"not a fair game record: {exc}") from None
    except msgspec.DecodeError as exc:
        raise FairnessError(f"not a fair game record (invalid JSON): {exc}") from None


def verify(fair: FairRecord) -> Verdict:
    """Check the commitment, recompute every die, replay every step through the rules and
    check the digest; the first thing that does not match is the verdict's problem."""
    checked = _Check(fair)
    problem = checked.run()
    record = fair.record
    return Verdict(
        problem=problem,
        game=record.game,
        rules=record.rules,
        players=record.players,
        rolls=checked.rolls,
        steps=checked.steps,
        finished=checked.finished,
        commitment=fair.commitment,
        digest=fair.digest,
    )


class _Check:
    """One verification, counting how far it got: the rolls and steps that matched."""

    def __init__(self, fair: FairRecord) -> None:
        self.fair = fair
        self.rolls = 0
        self.steps = 0
        self.finished = False

    def run(self) -> str | None:
        fair = self.fair
        if fair.scheme != SCHEME:
            return f"unknown scheme {fair.scheme!r} (this verifier knows {SCHEME})"
        try:
            server_seed = bytes.fromhex(fair.server_seed)
        except ValueError:
            return f"the server seed {fair.server_seed!r} is not hexadecimal"
        if len(server_seed) != SERVER_SEED_BYTES or fair.server_seed != server_seed.hex():
            return f"the server seed must be {SERVER_SEED_BYTES} bytes in lowercase hex"
        if commitment_of(server_seed) != fair.commitment:
            return (
                f"the revealed server seed does not match the commitment {fair.commitment}: "
                f"its SHA-256 is {commitment_of(server_seed)}"
            )
        try:
            stream = FairStream(server_seed, fair.client_seeds)
            state = fair.record.start()
        except BluffdiceError as exc:
            return f"the record cannot be read: {exc}"
        problem = self._replay(stream, state)
        if problem is not None:
            return problem
        if self.rolls < len(fair.rolls):
            return f"the record lists {len(fair.rolls)} rolls but the game rolled {self.rolls}"
        if digest_of(fair) != fair.digest:
            return (
                f"the record does not match its digest {fair.digest or '(none)'}: something "
                f"was changed after the game (its contents give {digest_of(fair)})"
            )
        return None

    def _replay(self, stream: FairStream, state: GameState) -> str | None:
        """Every step in order: a chance step must be what the recomputed dice make, a
        move must be legal; stops at the first that is not."""
        fair = self.fair
        parse = get_game(fair.record.game).parse_action
        for number, text in enumerate(fair.record.steps, start=1):
            player = state.current_player
            if player == CHANCE:
                count, faces = state.physical_roll()
                dice = DiceRoll(faces, stream.dice(count, faces))
                where = f"roll {self.rolls + 1} (step {number})"
                if self.rolls >= len(fair.rolls):
                    return f"{where}: the record lists only {len(fair.rolls)} rolls"
                recorded = fair.rolls[self.rolls]
                if recorded != dice:
                    return (
                        f"{where}: the record's dice are {_show(recorded)}, the seeds give "
                        f"{_show(dice)}"
                    )
                action: Any = state.outcome_of_roll(dice.dice)
                if text != str(action):
                    same = _parsed(parse, text) == action
                    return f"{where}: the record says {text!r}, but " + (
                        f"the table writes these dice as {str(action)!r} (a chance step has "
                        "exactly one spelling, so a game has exactly one digest)"
                        if same
                        else f"the dice {_show(dice)} make {str(action)!r}"
                    )
                self.rolls += 1
            else:
                try:
                    action = parse(text)
                except ValueError as exc:
                    return f"step {number} (player {player}): {text!r} cannot be read: {exc}"
                if text != str(action):
                    return (
                        f"step {number} (player {player}): the record says {text!r}, but the "
                        f"table writes this move as {str(action)!r} (every step has exactly "
                        "one spelling, so a game has exactly one digest)"
                    )
            try:
                state = state.apply(action).state
            except IllegalAction as exc:
                return f"step {number} (player {player}): {text!r} is not a legal move: {exc}"
            self.steps = number
        self.finished = state.is_terminal
        return None


def _parsed(parse: Any, text: str) -> Any:
    try:
        return parse(text)
    except ValueError:
        return None


def _show(roll: DiceRoll) -> str:
    return " ".join(str(d) for d in roll.dice) + f" (d{roll.faces})"
