"""docs/fairness.md is enough to check a record's chance steps without the rules engine:
a few lines written from the page alone ("Which dice each chance node rolls") agree with
`bluffdice verify` on records of every game, player count and start rule, and both refuse
the same respelled steps."""

from __future__ import annotations

import random

import msgspec
import pytest

from bluffdice.bots import load_bot
from bluffdice.games import game_of, parse_rules
from bluffdice.table.fair import FairRecord, digest_of, play_fair, server_seed_from, verify

LETTERS = "9TJQKA"


def chance_text(game: str, faces: int, dice: list[int]) -> str | None:
    """The one spelling of a roll's `dice` step, from the page's table; None if no roll
    of `game` has these faces."""
    if game == "mia" and faces == 6 and len(dice) == 2:
        return f"dice {max(dice)}{min(dice)}"
    if game == "common-hand" and faces == 6:
        return "dice " + "".join(LETTERS[d - 1] for d in sorted(dice))
    if game == "liars-dice":
        return "dice " + "".join(str(d) for d in sorted(dice))
    return None


def spec_check(fair: FairRecord) -> bool:
    """Only what the page says: the chance steps are the steps written `first ...` or
    `dice ...`, one per roll, each spelled as the table says."""
    steps = [s for s in fair.record.steps if s.startswith(("first ", "dice "))]
    if len(steps) != len(fair.rolls):
        return False
    for step, roll in zip(steps, fair.rolls, strict=True):
        seat_draw = step.startswith("first ")
        if seat_draw and roll.faces == fair.record.players and len(roll.dice) == 1:
            expected: str | None = f"first {roll.dice[0] - 1}"
        elif seat_draw:
            expected = None
        else:
            expected = chance_text(fair.record.game, roll.faces, list(roll.dice))
        if step != expected:
            return False
    return True


TABLES = [
    ("classic", 2),
    ("classic", 10),  # the seat draw is a ten-sided die: die 10 is `first 9`
    ("mia(beat_mia=on,lives=2)", 3),
    ("liars-dice(dice=2,faces=9)", 8),
    ("openspiel", 2),  # start=first-seat: no seat draw, the first chance step is a cup
    ("common-hand-round", 2),
    ("common-hand(start=first-seat)", 2),
]


def fair_game(rules_text: str, players: int, seed: int) -> FairRecord:
    rules = parse_rules(rules_text)
    game = game_of(rules).name
    bots = [load_bot("random", game, random.Random(seed * 31 + seat)) for seat in range(players)]
    return play_fair(rules, players, bots, server_seed_from(seed), ["a"] * (seed % 3))


def respell(fair: FairRecord, index: int, text: str) -> FairRecord:
    steps = list(fair.record.steps)
    steps[index] = text
    changed = msgspec.structs.replace(
        fair, record=msgspec.structs.replace(fair.record, steps=tuple(steps))
    )
    return msgspec.structs.replace(changed, digest=digest_of(changed))


def variants(text: str) -> list[str]:
    head, _, body = text.partition(" ")
    found = [text.upper(), f"{head}  {body}", f"{head} {' '.join(body)}"]
    if head == "first":
        found.append(f"first 0{body}")
    if len(set(body)) > 1:
        found.append(f"{head} {body[::-1]}")
    return [v for v in found if v != text]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_a_verifier_written_from_the_page_agrees_with_verify(rules: str, players: int) -> None:
    for seed in range(3):
        fair = fair_game(rules, players, seed)
        assert verify(fair).verified and spec_check(fair), fair.record.steps[:6]
        chance = [i for i, s in enumerate(fair.record.steps) if s.startswith(("first ", "dice "))]
        for index in chance[:4]:
            for text in variants(fair.record.steps[index]):
                changed = respell(fair, index, text)
                assert not spec_check(changed), text
                problem = verify(changed).problem
                assert problem is not None and f"the record says {text!r}" in problem


def test_the_ten_seat_draw_reaches_die_ten() -> None:
    draws = {fair_game("classic", 10, seed).rolls[0].dice[0] for seed in range(80)}
    assert 10 in draws  # so `first 9` and `10:10` are really written
