"""`bluffdice review`: a game played at the terminal is kept and every decision rated;
the ratings are checked against chances counted here from the dice themselves."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.games.registry import parse_rules
from bluffdice.odds.mia import decide
from bluffdice.store import Store

runner = CliRunner()

# Believe, look, announce 62 (or Mia when 62 may not follow), then challenge: refused
# lines change nothing, so the person alternates believing and challenging.
SCRIPT = "roll\nlook\n62\nmia\nchallenge\n" * 200

# Classic Mia, worst first: 31 ... 65, the doubles 11 ... 66, Mia (21) on top.
ORDER = [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21]


def value(a: int, b: int) -> int:
    hi, lo = max(a, b), min(a, b)
    return 21 if {hi, lo} == {2, 1} else hi * 10 + lo


def p_true_by_counting(previous: int | None, announced: int) -> Fraction:
    """Of the 36 rolls, those announced as `announced` (the truth when it beats
    `previous`, else the smallest legal lie) that really are at least `announced`."""
    floor = -1 if previous is None else ORDER.index(previous)
    smallest_lie = ORDER[floor + 1]
    said_true, said = 0, 0
    for a, b in product(range(1, 7), repeat=2):
        roll = value(a, b)
        claim = roll if ORDER.index(roll) > floor else smallest_lie
        if claim == announced:
            said += 1
            said_true += ORDER.index(roll) >= ORDER.index(announced)
    return Fraction(said_true, said)


def test_a_challenge_of_62_after_61_wins_ten_times_in_eleven() -> None:
    # 61 to beat: only a real 62 (2 rolls of 36) says 62 truthfully; the 20 rolls of 61
    # and below all lie with 62, the smallest legal lie.
    assert p_true_by_counting(61, 62) == Fraction(1, 11)
    assert decide(parse_rules("classic"), 61, 62).p_true == Fraction(1, 11)


def test_a_played_game_is_kept_and_reviewed_with_ratings_that_match_the_counted_odds(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "games.db")
    played = runner.invoke(
        app,
        ["play", "-r", "classic", "--bots", "1", "-o", "cfr", "--seed", "7", "--db", db],
        input=SCRIPT,
    )
    assert played.exit_code == 0, played.stderr
    assert "The game is kept" in played.stdout
    store = Store(db)
    stored = store.last_played()
    store.close()
    assert stored.person_seat == 0 and stored.bots == ("You", "Cfr")

    result = runner.invoke(app, ["review", "last", "--db", db, "--json"])
    assert result.exit_code == 0, result.stderr
    review = json.loads(result.stdout)
    assert review["seat"] == 0 and review["names"] == ["You", "Cfr"]
    ratings = review["ratings"]
    answers = [r for r in ratings if r["kind"] == "answer" and r["model"] == "odds model"]
    claims = [r for r in ratings if r["kind"] == "announce" and r["model"] == "odds model"]
    assert answers and claims
    for rating in answers:  # the chance a challenge wins, recounted from the 36 rolls
        words = rating["situation"].split()
        announced = int(words[2])
        previous = int(words[4]) if words[3] == "after" else None
        expected = 1 - p_true_by_counting(previous, announced)
        assert abs(rating["figures"]["p_challenge_wins"] - float(expected)) < 1e-4
        names = {"roll": "believe", "give-up": "give up"}
        if announced == 21:  # against Mia a challenge is a look
            names["challenge"] = "look"
        chosen = names.get(rating["choice"], rating["choice"])
        cost = rating["options"][chosen] - min(rating["options"].values())
        assert abs(rating["cost"] - cost) < 1e-3
        assert rating["mark"] == ("??" if cost > 0.2 else "?" if cost > 0.05 else "")
    for rating in claims:  # truthful exactly when the dice were at least the claim
        if rating["knew"] == "you announced blind":
            assert "truthful" not in rating["figures"]
            continue
        dice = int(rating["knew"].split()[-1])
        said = int(rating["choice"])
        truthful = ORDER.index(dice) >= ORDER.index(said)
        assert rating["figures"]["truthful"] == (1.0 if truthful else 0.0)
    # heads-up classic is covered by the shipped policy: the equilibrium is shown, named,
    # and a mark the equilibrium disagrees with says so
    for rating in ratings:
        if rating["mark"] and (rating["equilibrium_choice"] or 0) >= 0.5:
            assert "the equilibrium makes this move" in rating["note"]
    assert any(r["equilibrium"] for r in ratings)
    assert any(name.startswith("equilibrium mia-classic") for name in review["models"])
    summary = review["summary"]
    assert summary["decisions"] == len(ratings)
    costs = sorted((r["cost"] or 0.0 for r in ratings), reverse=True)
    top = [r for r in ratings if r["number"] in summary["costliest"]]
    assert sorted((r["cost"] for r in top), reverse=True) == costs[: len(top)]

    text = runner.invoke(app, ["review", "1", "--db", db, "--plot", str(tmp_path / "c.png")])
    assert text.exit_code == 0, text.stderr
    assert "Summary" in text.stdout and "odds model" in text.stdout
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert f"plot: {tmp_path / 'c.png'}" in text.stderr  # says where it wrote


def test_no_store_keeps_nothing_and_review_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    played = runner.invoke(
        app, ["play", "--bots", "1", "--seed", "3", "--db", db, "--no-store"], input=SCRIPT
    )
    assert played.exit_code == 0 and "kept" not in played.stdout
    result = runner.invoke(app, ["review", "last", "--db", db])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: no played game yet")
    assert "bluffdice play" in result.stderr


def test_an_abandoned_game_is_kept_and_a_record_file_can_be_reviewed(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    played = runner.invoke(
        app,
        ["play", "-r", "classic", "--bots", "2", "--seed", "5", "--db", db],
        input="roll\nlook\n62\nroll\nquit\n",
    )
    assert played.exit_code == 0, played.stderr
    store = Store(db)
    stored = store.last_played()
    store.close()
    assert stored.result["abandoned"] is True
    exported = runner.invoke(app, ["replay", str(stored.id), "--db", db, "--json"])
    assert exported.exit_code == 0, exported.stderr
    record = json.loads(exported.stdout)  # a record file, as `replay --json` writes it
    assert record["person_seat"] == 0
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["review", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    reviewed = json.loads(result.stdout)
    assert reviewed["result"] == "abandoned before the end" and reviewed["seat"] == 0
    assert reviewed["ratings"]
    assert {r["choice"] for r in reviewed["ratings"]} <= {"62", "roll"}


def swing(own: list[int], total: int, quantity: int, face: int) -> Fraction:
    """A bid's expected dice swing by the review's model, counted cup by cup: the next
    player (heads-up: all the other dice) calls when, from their cup, the bid is more
    likely to fail than to hold; then the bidder loses a die if it fails, else the caller."""
    import itertools
    from math import comb

    def counts(d: int) -> bool:
        return d == face or (d == 1 and face != 1)

    p = Fraction(1, 6) if face == 1 else Fraction(2, 6)
    theirs = total - len(own)
    mine = sum(map(counts, own))
    result = Fraction(0)
    for cup in itertools.product(range(1, 7), repeat=theirs):
        j = sum(map(counts, cup))
        unseen, need = total - theirs, quantity - j  # what they must believe of our cup
        believed = sum(
            (
                comb(unseen, k) * p**k * (1 - p) ** (unseen - k)
                for k in range(max(need, 0), unseen + 1)
            ),
            Fraction(0),
        )
        if believed < Fraction(1, 2):
            result += Fraction(1, 6**theirs) * (1 if mine + j < quantity else -1)
    return result


def test_liars_dice_bids_and_calls_are_rated_with_the_binomial_chance_counted_here() -> None:
    import random
    from math import comb

    from bluffdice.bots import load_bot
    from bluffdice.review import review_game
    from bluffdice.review.words import spoken_bid
    from bluffdice.table import Table, run_sync, seeded

    rules = parse_rules("liars-dice(dice=3)")
    bots = [load_bot("odds", "liars-dice", random.Random(i)) for i in range(2)]
    table = Table(rules, 2, dice=seeded(random.Random(4)))
    run_sync(table, bots)
    review = review_game(table.record, 0)
    assert review.ratings and {r.kind for r in review.ratings} <= {"bid", "call"}
    checked = 0
    for rating in review.ratings:  # a revealed count is about this move's bid only
        if rating.truth is not None:  # (both said aloud: "3 sixes", the move is "3x6")
            if rating.kind == "bid":
                quantity, face = map(int, rating.choice.split("x"))
                tested = str(spoken_bid(quantity, face))
            else:
                tested = rating.situation.removeprefix("facing ").split(" (")[0]
            assert f"for {tested}:" in rating.truth
    for rating in review.ratings:
        own = [int(d) for d in rating.knew.removeprefix("your dice: ").split()]
        total = int(rating.situation.split("(")[1].split()[0])
        if rating.kind != "bid" or "x" not in rating.choice:
            continue
        quantity, face = map(int, rating.choice.split("x"))
        # ones wild: an unseen die counts for a face other than 1 with chance 2/6
        p = Fraction(1, 6) if face == 1 else Fraction(2, 6)
        mine = sum(1 for d in own if d == face or (d == 1 and face != 1))
        unseen, need = total - len(own), quantity - mine
        holds = sum(
            (
                comb(unseen, k) * p**k * (1 - p) ** (unseen - k)
                for k in range(max(need, 0), unseen + 1)
            ),
            Fraction(0),
        )
        assert abs(rating.figures["p_bid_holds"] - float(holds)) < 1e-4
        assert abs(rating.options[rating.choice] - float(swing(own, total, quantity, face))) < 1e-4
        checked += 1
    assert checked


def test_a_solved_rounds_title_in_the_reviews_words_is_the_solvers_own() -> None:
    """The review says a shipped policy's title from its templates (so a page can say it
    in its own language); in English that is the solver's `describe()`, word for word."""
    import itertools

    from bluffdice.games.mia.values import Ranking
    from bluffdice.review.mia import policy_title
    from bluffdice.solve.mia import MiaRoundSpec
    from bluffdice.solve.policy import shipped_index
    from bluffdice.solve.problems import mia_spec_from_json

    specs = [mia_spec_from_json(e["spec"]) for e in shipped_index().values() if e["game"] == "mia"]
    assert specs
    for flags in itertools.product((False, True), repeat=4):
        ranking = Ranking(*flags)
        for passing, at_cap, mia_end, beat in itertools.product(
            (False, True), ("draw", "forced"), ("instant", "receiver"), (False, True)
        ):
            specs.append(MiaRoundSpec(ranking, passing, 3 if passing else 0, mia_end, beat, at_cap))
    for spec in specs:
        assert str(policy_title(spec)) == spec.describe()


def test_a_review_of_every_seat_names_the_player_and_one_of_your_own_says_you() -> None:
    """The replay page reviews every seat for whoever watches: a bot's decision reads
    "honest held 53", not "you held 53"; `bluffdice review` of your seat keeps "you"."""
    import random

    from bluffdice.bots import load_bot
    from bluffdice.review import review_game
    from bluffdice.table import Table, run_sync, seeded

    rules = parse_rules("classic")
    bots = [load_bot(name, "mia", random.Random(i)) for i, name in enumerate(["honest", "shark"])]
    table = Table(rules, 2, dice=seeded(random.Random(11)), names=["honest", "shark"])
    run_sync(table, bots)
    for seat, name in enumerate(["honest", "shark"]):
        own = review_game(table.record, seat, table.names)
        about = review_game(table.record, seat, table.names, about=True)
        assert [r.choice for r in own.ratings] == [r.choice for r in about.ratings]
        said = [str(part) for r in about.ratings for part in (r.situation, r.knew, r.truth)]
        assert any(f"{name} held" in s or f"{name}'s dice" in s for s in said), said[:6]
        assert not any(s.startswith(("you ", "your ")) for s in said), said[:6]
        mine = [str(r.knew) for r in own.ratings]
        assert any(s.startswith(("you", "your")) for s in mine), mine[:6]
        keys = {getattr(r.knew, "key", "") for r in about.ratings}
        assert keys and all(k.endswith(".they") for k in keys), keys
