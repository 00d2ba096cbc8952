"""Verifying fair records: every untampered record verifies, and any change to a die, a
seed or a move of a random fair game is caught, with the place named where it can be.
Also the `bluffdice verify` command."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bluffdice.bots import load_bot
from bluffdice.cli import app
from bluffdice.games import CHANCE, game_of, get_game, parse_rules
from bluffdice.table.fair import (
    DiceRoll,
    FairnessError,
    FairRecord,
    digest_of,
    load_fair_record,
    play_fair,
    server_seed_from,
    verify,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "fair-mia.json"
runner = CliRunner()

GAMES = [
    ("classic", 2),
    ("classic", 3),
    ("mia(beat_mia=on,lives=2)", 3),
    ("maexchen", 4),
    ("dudo-single-round", 3),
    ("liars-dice(dice=2,faces=4)", 3),
    ("common-hand-round", 2),
]


def fair_game(rules_text: str, players: int, seed: int, client_seeds: list[str]) -> FairRecord:
    rules = parse_rules(rules_text)
    game = game_of(rules).name
    bots = [load_bot("random", game, random.Random(seed * 10 + seat)) for seat in range(players)]
    return play_fair(rules, players, bots, server_seed_from(seed), client_seeds)


def replace(fair: FairRecord, **changes: Any) -> FairRecord:
    return msgspec.structs.replace(fair, **changes)


def with_steps(fair: FairRecord, steps: list[str]) -> FairRecord:
    return replace(fair, record=msgspec.structs.replace(fair.record, steps=tuple(steps)))


def other_text(text: str, rng: random.Random) -> str:
    """A different, nonempty client seed or hex digit string of the same kind."""
    alphabet = "0123456789abcdef" if all(c in "0123456789abcdef" for c in text) and text else None
    if alphabet is None:
        return text + rng.choice("xyz") if rng.random() < 0.5 or not text else text[:-1]
    i = rng.randrange(len(text))
    return text[:i] + rng.choice(alphabet.replace(text[i], "")) + text[i + 1 :]


def chance_positions(fair: FairRecord) -> tuple[list[int], list[Any]]:
    """Indexes of the chance steps and the state before each step."""
    spec = get_game(fair.record.game)
    state = fair.record.start()
    chance, states = [], []
    for n, text in enumerate(fair.record.steps):
        states.append(state)
        if state.current_player == CHANCE:
            chance.append(n)
        state = state.apply(spec.parse_action(text)).state
    return chance, states


def tamper(fair: FairRecord, kind: str, rng: random.Random) -> tuple[FairRecord, str | None]:
    """One change of `kind`, and (where the verifier can know it) the place it must name."""
    steps = list(fair.record.steps)
    if kind == "die":
        r = rng.randrange(len(fair.rolls))
        roll = fair.rolls[r]
        d = rng.randrange(len(roll.dice))
        value = rng.choice([v for v in range(0, roll.faces + 2) if v != roll.dice[d]])
        dice = roll.dice[:d] + (value,) + roll.dice[d + 1 :]
        rolls = fair.rolls[:r] + (DiceRoll(roll.faces, dice),) + fair.rolls[r + 1 :]
        return replace(fair, rolls=rolls), f"roll {r + 1} ("
    if kind == "drop roll":
        r = rng.randrange(len(fair.rolls))
        return replace(fair, rolls=fair.rolls[:r] + fair.rolls[r + 1 :]), None
    if kind == "server seed":
        return replace(fair, server_seed=other_text(fair.server_seed, rng)), "commitment"
    if kind == "commitment":
        return replace(fair, commitment=other_text(fair.commitment, rng)), "commitment"
    if kind == "client seed":
        seeds = list(fair.client_seeds)
        if seeds and rng.random() < 0.8:
            i = rng.randrange(len(seeds))
            seeds[i] = other_text(seeds[i], rng)
        else:
            seeds.append("late")
        return replace(fair, client_seeds=tuple(seeds)), None
    chance, states = chance_positions(fair)
    if kind == "chance step":
        n = rng.choice(chance)
        outcomes = [str(o) for o, _ in states[n].chance_outcomes() if str(o) != steps[n]]
        if not outcomes:  # a seat draw among two has one other outcome, always there
            return with_steps(fair, steps[:n] + steps[n + 1 :]), None
        steps[n] = rng.choice(outcomes)
        return with_steps(fair, steps), f"(step {n + 1})"
    moves = [n for n in range(len(steps)) if n not in set(chance)]
    n = rng.choice(moves)
    legal = [str(a) for a in states[n].legal_actions() if str(a) != steps[n]]
    if kind == "move" and legal:
        steps[n] = rng.choice(legal)  # still legal here: only what follows can tell
        return with_steps(fair, steps), None
    if kind == "move":
        steps[n] = "challenge" if steps[n] != "challenge" else "roll"
        return with_steps(fair, steps), None
    if kind == "drop move":
        return with_steps(fair, steps[:n] + steps[n + 1 :]), None
    raise AssertionError(kind)


KINDS = ["die", "drop roll", "server seed", "commitment", "client seed", "chance step"]
KINDS += ["move", "drop move"]


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    client_seeds=st.lists(st.text(max_size=8), max_size=4),
    kind=st.sampled_from(KINDS),
    tamper_seed=st.integers(0, 2**32),
)
def test_any_tampering_is_caught_and_an_untampered_record_verifies(
    game: tuple[str, int], seed: int, client_seeds: list[str], kind: str, tamper_seed: int
) -> None:
    fair = fair_game(*game, seed, client_seeds)
    assert verify(fair).verified, verify(fair).problem
    encoded = msgspec.json.encode(fair)
    assert verify(load_fair_record(encoded)).verified  # also after a JSON round trip
    changed, place = tamper(fair, kind, random.Random(tamper_seed))
    assert changed != fair
    verdict = verify(load_fair_record(msgspec.json.encode(changed)))
    assert not verdict.verified, (kind, changed)
    if place is not None:
        assert place in str(verdict.problem), (kind, verdict.problem)


def test_the_problem_names_the_roll_and_what_the_seeds_give() -> None:
    fair = load_fair_record(EXAMPLE.read_bytes())
    roll = fair.rolls[3]
    wrong = DiceRoll(roll.faces, (7 - roll.dice[0], roll.dice[1]))
    verdict = verify(replace(fair, rolls=(*fair.rolls[:3], wrong, *fair.rolls[4:])))
    shown = " ".join(map(str, roll.dice))
    assert verdict.problem is not None and verdict.problem.startswith("roll 4 (step ")
    assert f"the seeds give {shown} (d6)" in verdict.problem
    assert verdict.rolls == 3  # the rolls before it matched


def test_a_legal_but_changed_move_is_caught_by_the_digest() -> None:
    fair = load_fair_record(EXAMPLE.read_bytes())
    steps = list(fair.record.steps)
    n = steps.index("pass 65")
    steps[n] = "pass 66"  # also legal: the rules cannot tell
    verdict = verify(with_steps(fair, steps))
    assert verdict.problem is not None and "digest" in verdict.problem


def test_the_server_seed_is_revealed_only_when_the_game_is_over() -> None:
    from bluffdice.table import Table
    from bluffdice.table.fair import FairDice

    dice = FairDice(server_seed_from(3), ["a", "b"])
    table = Table("classic", 2, dice=dice)
    with pytest.raises(FairnessError, match="not over"):
        dice.fair_record(table.record)
    abandoned = dice.fair_record(table.record, unfinished=True)
    verdict = verify(abandoned)
    assert verdict.verified and not verdict.finished and verdict.rolls == 1


def test_an_unfinished_game_verifies_as_far_as_it_goes() -> None:
    fair = fair_game("classic", 3, 4, ["a"])
    cut = with_steps(fair, list(fair.record.steps[:20]))
    rolls = sum(1 for s in cut.record.steps if s.startswith(("dice", "first")))
    from bluffdice.table.fair import digest_of

    cut = replace(cut, rolls=fair.rolls[:rolls])
    cut = replace(cut, digest=digest_of(cut))
    verdict = verify(cut)
    assert verdict.verified and not verdict.finished and verdict.steps == 20


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "invalid JSON"),
        (b"{not json", "invalid JSON"),
        (b"{}", "missing required field"),
        (b'{"record": 1, "commitment": "", "server_seed": ""}', "Expected `object`"),
    ],
)
def test_a_file_that_is_not_a_fair_record_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(FairnessError, match=message):
        load_fair_record(data)


def test_an_unknown_scheme_or_rules_are_problems_not_crashes() -> None:
    fair = load_fair_record(EXAMPLE.read_bytes())
    assert "unknown scheme" in str(verify(replace(fair, scheme="v0")).problem)
    record = msgspec.structs.replace(fair.record, rules="mia(lives=0)")
    assert "cannot be read" in str(verify(replace(fair, record=record)).problem)
    assert "not hexadecimal" in str(verify(replace(fair, server_seed="zz")).problem)
    upper = replace(fair, server_seed=fair.server_seed.upper())
    assert "lowercase hex" in str(verify(upper).problem)


def respelled(fair: FairRecord, index: int, text: str) -> FairRecord:
    """The record with step `index` written as `text` and the digest made to match, so
    that only the spelling of that step differs from what the table wrote."""
    steps = list(fair.record.steps)
    steps[index] = text
    changed = with_steps(fair, steps)
    return replace(changed, digest=digest_of(changed))


def _spellings() -> list[tuple[int, str, str]]:
    """(step, another spelling, what the refusal calls it) in the example record."""
    steps = load_fair_record(EXAMPLE.read_bytes()).record.steps
    assert steps[0].startswith("first ")
    n = next(i for i, t in enumerate(steps) if t.startswith("dice ") and t[5] != t[6])
    high, low = steps[n][5], steps[n][6]
    move = steps.index("roll")
    return [
        (n, f"dice {low}{high}", "these dice"),
        (n, f"dice {high} {low}", "these dice"),
        (n, f"DICE {high}{low}", "these dice"),
        (n, f"dice  {high}{low}", "these dice"),
        (0, f"first 0{steps[0][6:]}", "these dice"),
        (move, "ROLL", "this move"),
    ]


@pytest.mark.parametrize(("index", "text", "what"), _spellings())
def test_a_step_spelled_otherwise_than_the_table_writes_it_is_refused(
    index: int, text: str, what: str
) -> None:
    fair = load_fair_record(EXAMPLE.read_bytes())
    problem = str(verify(respelled(fair, index, text)).problem)
    assert f"the record says {text!r}" in problem, problem
    assert f"the table writes {what} as {fair.record.steps[index]!r}" in problem
    assert "exactly one spelling" in problem


# --- the command ---------------------------------------------------------------------------


def invoke(*args: str, stdin: bytes | None = None) -> Any:
    result = runner.invoke(app, ["verify", *args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_verify_prints_verified_with_the_commitment_and_digest() -> None:
    data = json.loads(EXAMPLE.read_text("utf-8"))
    result = invoke(str(EXAMPLE))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("verified: mia game (classic), 3 players: ")
    assert lines[1:] == [f"commitment: {data['commitment']}", f"digest:     {data['digest']}"]
    piped = invoke("-", stdin=EXAMPLE.read_bytes())
    assert piped.exit_code == 0 and piped.stdout == result.stdout


def test_verify_names_the_tampered_roll_and_exits_1(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text("utf-8"))
    die = data["rolls"][2]["dice"][0]
    data["rolls"][2]["dice"][0] = die % 6 + 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    result = invoke(str(path))
    assert result.exit_code == 1
    assert "not verified" in result.stdout and "roll 3 (step " in result.stdout
    as_json = json.loads(invoke(str(path), "--json").stdout)
    assert as_json["verified"] is False and as_json["problem"].startswith("roll 3 (step ")
    assert as_json["rolls"] == 2


def test_verify_json_is_the_verdict_and_nothing_else() -> None:
    result = invoke(str(EXAMPLE), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["verified"] is True and data["problem"] is None
    assert data["finished"] is True and data["game"] == "mia" and data["players"] == 3


def test_verify_checks_the_commitment_you_were_shown() -> None:
    data = json.loads(EXAMPLE.read_text("utf-8"))
    assert invoke(str(EXAMPLE), "--commitment", data["commitment"].upper()).exit_code == 0
    wrong = invoke(str(EXAMPLE), "--commitment", "00" * 32)
    assert wrong.exit_code == 1 and "is not the one the table showed" in wrong.stdout


def test_verify_checks_the_digest_you_were_shown() -> None:
    data = json.loads(EXAMPLE.read_text("utf-8"))
    shown = invoke(str(EXAMPLE), "--digest", f" {data['digest'].upper()} ")
    assert shown.exit_code == 0 and shown.stdout.startswith("verified")
    other = "0" * 64
    wrong = invoke(str(EXAMPLE), "--digest", other, "--json")
    verdict = json.loads(wrong.stdout)
    assert wrong.exit_code == 1 and verdict["verified"] is False
    assert verdict["problem"] == (
        f"the record's digest {data['digest']} is not the one the table showed ({other})"
    )


@pytest.mark.parametrize("flag", ["--digest", "--commitment"])
def test_a_digest_or_commitment_that_is_not_64_hex_digits_is_a_usage_error(flag: str) -> None:
    result = invoke(str(EXAMPLE), flag, "c5acabeb9f")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {flag} takes the 64 hex digits")


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["missing.json"], None, "missing.json: no such file"),
        (["."], None, "it is a folder"),
        (["-"], b"not json", "invalid JSON"),
        (["-"], b'{"record": {}}', "not a fair game record"),
        (["17", "--db", "/nonexistent/bluffdice.db"], None, "17: "),
    ],
)
def test_a_bad_record_is_one_error_line_and_exit_2(
    args: list[str], stdin: bytes | None, message: str
) -> None:
    result = invoke(*args, stdin=stdin)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
