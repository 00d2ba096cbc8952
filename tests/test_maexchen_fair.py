"""Fair dice in Mäxchen contests: every stored round verifies, a tampered one does not."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.maexchen.server import fair_rounds
from bluffdice.store import Store
from bluffdice.store.maexchen import ContestStore, FairRoundRow
from bluffdice.table.fair import commitment_of, load_fair_record, verify


def test_fair_rounds_have_their_own_seeds_and_are_reproducible_with_a_seed() -> None:
    seeded = fair_rounds(4)
    assert seeded(1).commitment == fair_rounds(4)(1).commitment
    assert seeded(1).commitment != seeded(2).commitment != fair_rounds(5)(2).commitment
    fresh = fair_rounds()
    assert fresh(1).commitment != fresh(1).commitment


def test_a_fair_contest_stores_rounds_that_verify_and_tampering_fails(tmp_path: Path) -> None:
    db = str(tmp_path / "fair.db")
    runner = CliRunner()
    args = ["maexchen", "--port", "0", "--host", "127.0.0.1", "--house-bots", "honest,odds,liar"]
    result = runner.invoke(
        app, [*args, "--rounds", "12", "--seed", "3", "--dice", "fair", "--db", db, "--json"]
    )
    assert result.exit_code == 0, result.output
    store = Store(db)
    contests = ContestStore(store)
    played = contests.rounds(1)
    assert len(played) == 12
    for r in played:
        fair = load_fair_record(json.dumps(contests.fair_round(1, r.number)))
        assert fair.record == r.record  # the proof is of the very round that was scored
        assert commitment_of(bytes.fromhex(fair.server_seed)) == fair.commitment
        assert verify(fair).problem is None
    number = played[-1].number
    # The CLI reads a stored round by contest and number, or the latest contest's.
    for source in (f"maexchen:1:{number}", f"maexchen:{number}"):
        checked = runner.invoke(app, ["verify", source, "--db", db, "--json"])
        assert checked.exit_code == 0, checked.output
        verdict = json.loads(checked.stdout)
        assert verdict["verified"] and verdict["players"] == 3
    # Change one die of the stored proof: verify names the roll.
    with store._session("tamper with") as session:
        row = session.get(FairRoundRow, (1, number))
        assert row is not None
        fair_json = dict(row.fair)
        rolls = [dict(roll) for roll in fair_json["rolls"]]
        last = rolls[-1]
        last["dice"] = [d % last["faces"] + 1 for d in last["dice"]]
        row.fair = {**fair_json, "rolls": rolls}
        session.commit()
    store.close()
    tampered = runner.invoke(app, ["verify", f"maexchen:1:{number}", "--db", db])
    assert tampered.exit_code == 1
    assert "not verified" in tampered.stdout and f"roll {len(rolls)}" in tampered.stdout
    # Rounds that do not exist, and bad references, are one clear error line.
    for source, message in (
        ("maexchen:1:999", "was not played with fair dice"),
        ("maexchen:2:1", "no Mäxchen contest 2"),
        ("maexchen:x", "maexchen:ROUND or maexchen:CONTEST:ROUND"),
    ):
        bad = runner.invoke(app, ["verify", source, "--db", db])
        assert bad.exit_code == 2 and message in bad.stderr, (source, bad.output)
        assert "Traceback" not in bad.output


def test_a_contest_without_fair_dice_has_nothing_to_verify(tmp_path: Path) -> None:
    db = str(tmp_path / "plain.db")
    runner = CliRunner()
    args = ["maexchen", "--port", "0", "--host", "127.0.0.1", "--house-bots", "honest,odds"]
    result = runner.invoke(app, [*args, "--rounds", "3", "--seed", "1", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    bad = runner.invoke(app, ["verify", "maexchen:1:1", "--db", db])
    assert bad.exit_code == 2 and "was not played with fair dice" in bad.stderr
    wrong = runner.invoke(app, ["maexchen", "--port", "0", "--no-store", "--dice", "loaded"])
    assert wrong.exit_code == 2 and "--dice must be system or fair" in wrong.stderr
