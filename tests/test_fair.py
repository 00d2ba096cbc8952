"""The fair dice scheme against its specification (docs/fairness.md).

The known-answer vectors are read from the documentation and checked twice: against a
few-line implementation written here from the specification with hashlib and hmac only,
and against the package. So the document, an independent reading of it and the code
cannot drift apart. The statistical check reads 10 million dice per face count.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import random
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bluffdice.bots import load_bot
from bluffdice.chisquare import chi_square_sf, uniformity
from bluffdice.games import CHANCE, new_game
from bluffdice.table.dice import RandomDice, seeded
from bluffdice.table.fair import (
    FairDice,
    FairnessError,
    FairStream,
    acceptance_limit,
    client_message,
    commitment_of,
    dice_source,
    load_fair_record,
    play_fair,
    server_seed_from,
    verify,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "fairness.md"
EXAMPLE = ROOT / "docs" / "examples" / "fair-mia.json"


# --- an independent implementation, from the specification ------------------------------


def ref_message(client_seeds: list[str]) -> bytes:
    return b"".join(len(s.encode()).to_bytes(4, "big") + s.encode() for s in client_seeds)


def ref_block(server_seed: bytes, client_seeds: list[str], counter: int) -> bytes:
    message = ref_message(client_seeds) + counter.to_bytes(8, "big")
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def ref_stream(server_seed: bytes, client_seeds: list[str]) -> Iterator[int]:
    counter = 0
    while True:
        yield from ref_block(server_seed, client_seeds, counter)
        counter += 1


def ref_dice(stream: Iterator[int], faces: int, count: int) -> list[int]:
    dice: list[int] = []
    while len(dice) < count:
        byte = next(stream)
        if byte < 256 - 256 % faces:
            dice.append(byte % faces + 1)
    return dice


def ref_digest(data: dict[str, Any]) -> str:
    record = data["record"]
    texts = [
        data["scheme"],
        record["game"],
        record["rules"],
        str(record["players"]),
        data["commitment"],
        data["server_seed"],
        str(len(data["client_seeds"])),
        *data["client_seeds"],
        str(len(record["steps"])),
        *record["steps"],
        str(len(data["rolls"])),
        *(f"{r['faces']}:" + " ".join(map(str, r["dice"])) for r in data["rolls"]),
    ]
    return hashlib.sha256(
        b"".join(len(t.encode()).to_bytes(4, "big") + t.encode() for t in texts)
    ).hexdigest()


def vectors() -> list[dict[str, str]]:
    """The documentation's vector blocks: `key: value` lines after `vector NAME`."""
    found = []
    for block in re.findall(r"```text\n(vector .*?)```", DOC.read_text("utf-8"), re.DOTALL):
        lines = block.strip().splitlines()
        entry = {"name": lines[0].split()[1]}
        for line in lines[1:]:
            key, _, value = line.partition(":")
            entry[key.strip()] = value.strip()
        found.append(entry)
    return found


VECTORS = vectors()


def rolls_of(vector: dict[str, str]) -> list[tuple[int, int, list[int]]]:
    """(faces, count, dice) for each `dN xC:` line, in order."""
    rolls = []
    for key, value in vector.items():
        match = re.fullmatch(r"d(\d+) x(\d+)", key)
        if match:
            dice = [int(d) for d in value.split()]
            assert len(dice) == int(match.group(2))
            rolls.append((int(match.group(1)), len(dice), dice))
    return rolls


# --- known answers ----------------------------------------------------------------------


def test_the_documentation_has_vectors_that_show_the_tricky_parts() -> None:
    assert [v["name"] for v in VECTORS] == ["A", "B", "C"]
    seeds = [json.loads(v["client seeds"]) for v in VECTORS]
    assert [] in seeds and any("" in s and any(not c.isascii() for c in s) for s in seeds)
    # Vector A skips a byte within its first ten six-sided dice (0xfe in block 0).
    block = bytes.fromhex(VECTORS[0]["block 0"])
    assert 0xFE in block[:11] and all(len(rolls_of(v)) == 6 for v in VECTORS)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["name"])
def test_vectors_match_an_independent_implementation(vector: dict[str, str]) -> None:
    server_seed = bytes.fromhex(vector["server seed"])
    client_seeds = json.loads(vector["client seeds"])
    assert hashlib.sha256(server_seed).hexdigest() == vector["commitment"]
    assert (ref_message(client_seeds) + bytes(8)).hex() == vector["message 0"]
    for k in range(3):
        assert ref_block(server_seed, client_seeds, k).hex() == vector[f"block {k}"]
    stream = ref_stream(server_seed, client_seeds)
    for faces, count, dice in rolls_of(vector):
        assert ref_dice(stream, faces, count) == dice, (faces, count)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["name"])
def test_vectors_match_the_package(vector: dict[str, str]) -> None:
    server_seed = bytes.fromhex(vector["server seed"])
    client_seeds = json.loads(vector["client seeds"])
    assert commitment_of(server_seed) == vector["commitment"]
    assert (client_message(client_seeds) + bytes(8)).hex() == vector["message 0"]
    one, bulk = FairStream(server_seed, client_seeds), FairStream(server_seed, client_seeds)
    for k in range(3):
        assert one.block(k).hex() == vector[f"block {k}"]
    for faces, count, dice in rolls_of(vector):
        assert list(one.dice(count, faces)) == dice
        assert [d + 1 for d in bulk.many(count, faces)] == dice


def test_the_server_seed_of_seed_42_is_vector_b() -> None:
    assert server_seed_from(42).hex() == VECTORS[1]["server seed"]
    assert (
        hashlib.sha256(b"bluffdice-fair-v1 server seed 42").hexdigest()
        == (VECTORS[1]["server seed"])
    )


def test_the_example_record_verifies_and_has_the_documented_digest() -> None:
    data = json.loads(EXAMPLE.read_text("utf-8"))
    assert ref_digest(data) == data["digest"]
    assert f"digest is `{data['digest']}`" in " ".join(DOC.read_text("utf-8").split())
    stream = ref_stream(bytes.fromhex(data["server_seed"]), data["client_seeds"])
    for roll in data["rolls"]:
        assert ref_dice(stream, roll["faces"], len(roll["dice"])) == roll["dice"]
    verdict = verify(load_fair_record(EXAMPLE.read_bytes()))
    assert verdict.verified and verdict.finished
    assert (verdict.rolls, verdict.steps) == (len(data["rolls"]), len(data["record"]["steps"]))


# --- the stream -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "limit"), [(1, 256), (2, 256), (5, 255), (6, 252), (10, 250), (7, 252), (256, 256)]
)
def test_bytes_are_accepted_below_the_largest_multiple_of_the_faces(faces: int, limit: int) -> None:
    assert acceptance_limit(faces) == limit


@pytest.mark.parametrize("faces", [0, -6, 257, True, 6.0])
def test_a_die_needs_1_to_256_faces(faces: Any) -> None:
    with pytest.raises(FairnessError, match="1 to 256 faces"):
        acceptance_limit(faces)
    with pytest.raises(FairnessError):
        FairStream(bytes(32)).die(faces)


@settings(max_examples=30, deadline=None)
@given(
    reads=st.lists(st.tuples(st.integers(1, 256), st.integers(0, 100), st.booleans()), max_size=10),
    seeds=st.lists(st.text(max_size=5), max_size=3),
)
def test_bulk_reads_give_the_same_dice_as_reading_one_by_one(
    reads: list[tuple[int, int, bool]], seeds: list[str]
) -> None:
    mixed, single = FairStream(bytes(32), seeds), FairStream(bytes(32), seeds)
    for faces, count, bulk in reads:
        expected = [d - 1 for d in single.dice(count, faces)]
        got = list(mixed.many(count, faces)) if bulk else [d - 1 for d in mixed.dice(count, faces)]
        assert got == expected
    assert mixed.die(6) == single.die(6)  # both stopped on the same byte


def test_client_seeds_are_length_prefixed_so_they_cannot_be_regrouped() -> None:
    assert client_message(["ab", "c"]) != client_message(["a", "bc"])
    assert client_message(["abc"]) != client_message(["abc", ""])
    assert client_message([]) == b""


# --- the dice source --------------------------------------------------------------------


def play_chance_only(source: Any, rules: str, players: int, seed: int) -> list[str]:
    """Random moves, the source's dice; the steps as text."""
    rng = random.Random(seed)
    state = new_game(rules, players)
    steps = []
    while not state.is_terminal:
        if state.current_player == CHANCE:
            action = source.draw(state)
        else:
            action = rng.choice(list(state.legal_actions()))
        state = state.apply(action).state
        steps.append(str(action))
    return steps


def test_fair_dice_publish_the_commitment_and_reveal_the_seed_only_in_the_record() -> None:
    seed = server_seed_from(5)
    dice = FairDice(seed, ["ann", "ben"])
    assert dice.commitment == hashlib.sha256(seed).hexdigest()
    assert seed.hex() not in repr(vars(dice).get("commitment"))
    steps = play_chance_only(dice, "dudo", 2, seed=1)
    assert len(dice.rolls) == sum(1 for s in steps if s.startswith(("dice", "first")))
    # Each roll's dice, sorted, are that step's hand.
    hands = [s.split()[1] for s in steps if s.startswith("dice")]
    rolled = ["".join(map(str, sorted(r.dice))) for r in dice.rolls if r.faces == 6]
    assert hands == rolled


def test_fair_dice_are_reproducible_from_seeds_and_change_with_any_seed() -> None:
    def steps(server: int, clients: list[str]) -> list[str]:
        return play_chance_only(FairDice(server_seed_from(server), clients), "classic", 3, 2)

    assert steps(1, ["a", "b"]) == steps(1, ["a", "b"])
    assert steps(1, ["a", "b"]) != steps(1, ["a", "c"])
    assert steps(1, ["a", "b"]) != steps(2, ["a", "b"])


def test_client_seeds_are_taken_before_the_first_roll_only() -> None:
    dice = FairDice()
    dice.set_client_seeds(["x", "", "z"])
    assert dice.client_seeds == ("x", "", "z")
    dice.draw(new_game("classic", 3))
    with pytest.raises(FairnessError, match="before the first roll"):
        dice.set_client_seeds(["late"])


@pytest.mark.parametrize(
    ("server_seed", "client_seeds", "message"),
    [
        (bytes(31), [], "32 bytes"),
        ("00" * 32, [], "32 bytes"),
        (None, ["x" * 1025], "at most 1024 bytes"),
        (None, [42], "is text"),
        (None, ["\ud800"], "not valid UTF-8"),
    ],
)
def test_bad_seeds_are_refused(server_seed: Any, client_seeds: list[Any], message: str) -> None:
    with pytest.raises(FairnessError, match=message):
        FairDice(server_seed, client_seeds)


def test_dice_source_makes_each_kind() -> None:
    assert isinstance(dice_source("system"), RandomDice)
    reproducible = dice_source("seeded", 7)
    assert play_chance_only(reproducible, "dudo", 3, 0) == play_chance_only(seeded(7), "dudo", 3, 0)
    fair = dice_source("fair", 7, ["a"])
    assert isinstance(fair, FairDice) and fair.client_seeds == ("a",)
    assert (
        fair.commitment == dice_source("fair", 7).commitment == commitment_of(server_seed_from(7))
    )
    assert dice_source("fair").commitment != dice_source("fair").commitment
    with pytest.raises(FairnessError, match="need a seed"):
        dice_source("seeded", None)
    with pytest.raises(FairnessError, match="choose system, seeded or fair"):
        dice_source("loaded", 1)


def test_a_game_that_does_not_name_its_physical_dice_cannot_use_fair_dice() -> None:
    class CoinState:
        current_player = CHANCE

        def chance_outcomes(self) -> list[tuple[str, Fraction]]:
            return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    with pytest.raises(FairnessError, match="CoinState does not say which dice"):
        FairDice().draw(CoinState())  # type: ignore[arg-type]
    assert RandomDice(random.Random(1)).draw(CoinState()) in ("heads", "tails")  # type: ignore[arg-type]


def test_play_fair_needs_a_bot_per_player() -> None:
    with pytest.raises(FairnessError, match="3 players need 3 bots"):
        play_fair("classic", 3, [load_bot("random", "mia")] * 2)


# --- equal odds: chi-square over 10 million rolls ----------------------------------------


def test_the_chi_square_p_value_matches_tables_and_the_integrated_density() -> None:
    # Critical values at 5 % from standard tables.
    for x, df in [(3.841458820694124, 1), (5.991464547107979, 2), (11.070497693516351, 5)]:
        assert chi_square_sf(x, df) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(6.0, 2) == pytest.approx(math.exp(-3.0))
    assert chi_square_sf(0.0, 3) == 1.0 and chi_square_sf(1e6, 255) == 0.0
    for df in range(2, 13):  # 1 - the integral of the density (Simpson's rule)
        x, n = 7.5, 20_000
        h = x / n

        def pdf(t: float, k: int = df) -> float:
            return t ** (k / 2 - 1) * math.exp(-t / 2) / (2 ** (k / 2) * math.gamma(k / 2))

        integral = (
            h
            / 3
            * sum((1 if i in (0, n) else 4 if i % 2 else 2) * pdf(i * h) for i in range(n + 1))
        )
        assert chi_square_sf(x, df) == pytest.approx(1 - integral, abs=1e-6), df


def test_uniformity_needs_two_faces_and_a_roll() -> None:
    with pytest.raises(ValueError):
        uniformity([5])
    with pytest.raises(ValueError):
        uniformity([0, 0])


ROLLS = 10_000_000


@pytest.mark.parametrize("faces", [2, 5, 6, 10])
def test_ten_million_fair_dice_show_no_bias(faces: int) -> None:
    made = FairStream(server_seed_from(2026), ["chi-square"]).many(ROLLS, faces)
    counts = np.bincount(np.frombuffer(made, dtype=np.uint8), minlength=faces)
    assert len(counts) == faces and counts.sum() == ROLLS
    statistic, df, p = uniformity([int(n) for n in counts])
    assert p > 0.001, (statistic, df, p)


def test_the_same_test_catches_dice_made_without_rejection() -> None:
    """Using every byte (b % faces + 1) favours the low faces by one byte in 256: ten
    million rolls show it clearly, so the check above has the power to see a bias."""
    made = FairStream(server_seed_from(2026), ["chi-square"]).many(ROLLS, 256)
    per_byte = np.bincount(np.frombuffer(made, dtype=np.uint8), minlength=256)
    for faces in (5, 6, 10):
        counts = [int(per_byte[face::faces].sum()) for face in range(faces)]
        assert uniformity(counts)[2] < 1e-9, faces


def test_the_seat_draw_of_each_table_size_is_a_fair_die() -> None:
    """Exactly: every face has the same number of accepted bytes behind it."""
    for players in range(2, 11):
        limit = acceptance_limit(players)
        per_face = [sum(1 for b in range(limit) if b % players == f) for f in range(players)]
        assert set(per_face) == {limit // players}
        outcomes = dict(new_game("classic", players).chance_outcomes())
        assert set(outcomes.values()) == {Fraction(1, players)}
