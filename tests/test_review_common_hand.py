"""Reviewing a common-hand game: claims, rerolls and calls rated with chances that the
test counts again over every roll of the dice, in its own way."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.games.common_hand import Challenge, Claim, ClaimTable, Reroll, parse_claim
from bluffdice.games.registry import parse_rules
from bluffdice.review import review_game
from bluffdice.review.common_hand import p_makes, p_reroll_beats
from bluffdice.table import Table, run_sync, seeded

runner = CliRunner()
ROLLS = list(product(range(1, 7), repeat=5))


def test_five_dice_make_the_lowest_claim_unless_they_are_nothing() -> None:
    # "nothing": five different faces that are not a straight. 6*5*4*3*2 = 720 ordered
    # rolls have five different faces; 2 straights * 120 orders of them are straights.
    nothing = Fraction(720 - 240, 6**5)
    assert p_makes(parse_claim("pair 9").key, True) == float(1 - nothing)
    # without straights those 240 rolls are nothing too
    assert p_makes(parse_claim("pair 9").key, False) == float(1 - Fraction(720, 6**5))
    # a straight 10 to A or better: 120 straights, 300 full houses, 150 fours, 6 fives
    assert p_makes(parse_claim("straight A").key, True) == float(Fraction(576, 6**5))


def test_a_reroll_is_rated_by_the_chance_of_a_hand_above_the_claim() -> None:
    # 9 9 9 K A, putting back K and A, against three nines: a nine among the two new dice
    # (11 of 36) makes four or five nines, a pair of another face (5 of 36) a full house.
    claim = parse_claim("three 9")
    assert p_reroll_beats((1, 1, 1, 5, 6), (5, 6), claim.key, True) == float(Fraction(16, 36))


def test_every_decision_of_a_bot_game_is_rated_as_counted_over_the_dice_here() -> None:
    from bluffdice.bots import load_bot

    rules = parse_rules("common-hand")
    claims = ClaimTable(rules)
    names = ["bluffer", "honest"]
    bots = [load_bot(name, "common-hand", random.Random(i)) for i, name in enumerate(names)]
    table = Table(rules, 2, dice=seeded(random.Random(11)))
    run_sync(table, bots)
    review = review_game(table.record, 0)
    assert review.ratings
    kinds = Counter(r.kind for r in review.ratings)
    assert kinds["claim"] and kinds["call"] + kinds["reroll"]
    for rating in review.ratings:
        before = table.log[rating.step - 1].state if rating.step else table.initial
        view = before.view(0)
        own = tuple(sorted(view.my_dice))
        risk: dict[str, Fraction] = {}
        for legal in view.legal_actions:
            if isinstance(legal, Claim):
                risk[str(legal)] = Fraction(0 if claims.makes(own, legal) else 1)
            elif isinstance(legal, Challenge):
                made = sum(1 for roll in ROLLS if claims.makes(tuple(sorted(roll)), view.claim))
                risk[str(legal)] = Fraction(made, len(ROLLS))
            elif isinstance(legal, Reroll):
                kept = list(own)
                for face in legal.dice:
                    kept.remove(face)
                news = list(product(range(1, 7), repeat=len(legal.dice)))
                # a hand above the claim makes the next claim up (claims are a ladder)
                higher = claims.claims[claims.index[view.claim] + 1]
                above = sum(
                    1 for new in news if claims.makes(tuple(sorted(kept + list(new))), higher)
                )
                risk[str(legal)] = 1 - Fraction(above, len(news))
        lowest = min(risk.values())
        assert rating.cost is not None
        assert abs(rating.cost - float(risk[rating.choice] - lowest)) < 1e-4
        for option, shown in rating.options.items():
            assert abs(shown - float(risk[option])) < 1e-4
        if rating.kind == "call":
            assert rating.truth is not None and "the claimer's dice" in rating.truth
    summary = review.summary
    assert 0 <= summary["honesty_rate"] <= 1 and "call_rate" in summary


def test_a_common_hand_game_played_at_the_terminal_is_kept_and_reviewed(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    script = "reroll all\nliar\nthree K\nfive A\n" * 100
    played = runner.invoke(
        app, ["play", "common-hand", "--bots", "1", "--seed", "3", "--db", db], input=script
    )
    assert played.exit_code == 0, played.stderr
    result = runner.invoke(app, ["review", "last", "--db", db, "--json"])
    assert result.exit_code == 0, result.stderr
    review = json.loads(result.stdout)
    assert review["game"].startswith("Common hand") and review["ratings"]
    assert {r["model"] for r in review["ratings"]} == {"poker-dice odds"}
    for rating in review["ratings"]:
        if rating["choice"] == "five A":  # a bluff unless the dice are five aces
            assert rating["figures"]["claim_true"] == (rating["knew"].count("A") == 5)
            assert rating["mark"] == ("??" if rating["cost"] > 0.2 else rating["mark"])
    text = runner.invoke(app, ["review", "last", "--db", db])
    assert text.exit_code == 0 and "poker-dice odds" in text.stdout
