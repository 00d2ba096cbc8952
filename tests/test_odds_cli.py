"""`bluffdice odds`: tables, one JSON document on stdout, charts, and refused input."""

from __future__ import annotations

import contextlib
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bluffdice.cli import app
from bluffdice.games.registry import parse_rules
from bluffdice.odds import mia

runner = CliRunner()

VALUE_KEYS = {
    "value",
    "ways",
    "p_beat",
    "p_beat_or_tie",
    "p_lose",
    "p_beat_exact",
    "p_beat_or_tie_exact",
    "p_lose_exact",
}


def odds(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["odds", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("rules", "median"), [("classic", 54), ("meyer", 61)])
def test_mia_json_is_one_document_with_rules_median_and_values(rules: str, median: int) -> None:
    code, out, err = odds("mia", "--rules", rules, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rules"] == parse_rules(rules).text
    assert doc["median"] == median
    assert len(doc["values"]) == 21
    table = mia.value_table(parse_rules(rules))
    for row, entry in zip(table, doc["values"], strict=True):
        assert set(entry) >= VALUE_KEYS
        assert entry["value"] == row.value and entry["ways"] == row.ways
        for key in ("p_beat", "p_beat_or_tie", "p_lose"):
            exact = Fraction(entry[f"{key}_exact"])
            assert exact == getattr(row, key)
            assert str(exact) == entry[f"{key}_exact"]  # reduced: "1/12", not "3/36"
            assert entry[key] == pytest.approx(float(exact))


def test_mia_json_fractions_are_reduced() -> None:
    doc = json.loads(odds("mia", "--json")[1])
    by_value = {v["value"]: v for v in doc["values"]}
    assert by_value[55]["p_beat_exact"] == "1/12"  # 3/36
    assert by_value[55]["p_beat_or_tie_exact"] == "1/9"  # 4/36
    assert by_value[62]["p_beat_exact"] == "7/18"  # 14/36


def test_mia_table_shows_percentages_fractions_and_the_median() -> None:
    code, out, _ = odds("mia")
    assert code == 0
    line55 = next(line for line in out.splitlines() if " 55 " in line)
    assert "8.3%" in line55 and "3/36" in line55 and "88.9%" in line55
    median_line = next(line for line in out.splitlines() if "◀" in line)
    assert " 54 " in median_line


def test_mia_pips_table_groups_ties() -> None:
    code, out, _ = odds("mia", "--rules", "mia(pips=on)")
    assert code == 0
    assert "7 pips: 61 52 43" in out and "8 pips: 62 53 ◀" in out


def test_believe_explains_one_case() -> None:
    code, out, err = odds("mia", "--believe", "62", "--after", "61")
    assert code == 0, err
    assert "1/11" in out and "Best: challenge" in out


def test_believe_lists_every_previous_announcement() -> None:
    code, out, err = odds("mia", "--believe", "62", "--json")
    assert code == 0, err
    doc = json.loads(out)
    previous = [d["previous"] for d in doc["decisions"]]
    assert previous[0] is None and previous[-1] == 61 and 62 not in previous
    last = doc["decisions"][-1]
    assert last["best"] == "challenge" and Fraction(last["p_true_exact"]) == Fraction(1, 11)
    assert set(last["options"]) == {"believe", "challenge"}


def test_believe_mia_offers_give_up_and_look() -> None:
    doc = json.loads(odds("mia", "--believe", "mia", "--after", "66", "--json")[1])
    (decision,) = doc["decisions"]
    assert set(decision["options"]) == {"give up", "look"} and decision["best"] == "look"


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_mia_plot_writes_a_real_chart(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"odds{suffix}"
    code, out, err = odds("mia", "--json", "--plot", str(path))
    assert code == 0, err
    json.loads(out)  # the chart's message went to stderr
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    else:
        assert b"<svg" in data[:1000] and b"</svg>" in data


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_liars_dice_plot_writes_a_real_chart(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"dice{suffix}"
    code, _, err = odds("liars-dice", "--dice", "8", "--own", "1,2,2", "--plot", str(path))
    assert code == 0, err
    assert path.stat().st_size > 10_000


def test_liars_dice_json_shape() -> None:
    code, out, err = odds("liars-dice", "--dice", "10", "--own", "1,3,3,5,6", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["dice"], doc["faces"], doc["wild"], doc["unknown"]) == (10, 6, 1, 5)
    assert [f["face"] for f in doc["by_face"]] == [1, 2, 3, 4, 5, 6]
    threes = doc["by_face"][2]
    assert threes["own_matches"] == 3 and threes["p_die_exact"] == "1/3"
    assert Fraction(threes["expected_exact"]) == 3 + Fraction(5, 3)
    counts = threes["counts"]
    assert [c["quantity"] for c in counts] == list(range(11))
    assert sum(Fraction(c["p_exactly_exact"]) for c in counts) == 1
    best = threes["best_bid"]
    assert Fraction(counts[best]["p_at_least_exact"]) >= Fraction(1, 2)
    assert Fraction(counts[best + 1]["p_at_least_exact"]) < Fraction(1, 2)


def test_liars_dice_no_wild_and_one_face_in_detail() -> None:
    code, out, _ = odds("liars-dice", "--dice", "3", "--no-wild", "--face", "2")
    assert code == 0
    assert "91/216" in out  # at least one 2 among 3 dice: 1 - (5/6)^3
    doc = json.loads(odds("liars-dice", "--dice", "3", "--no-wild", "--face", "2", "--json")[1])
    assert doc["wild"] is None and [f["face"] for f in doc["by_face"]] == [2]


def test_liars_dice_takes_dice_and_wild_face_from_rules() -> None:
    doc = json.loads(odds("liars-dice", "--rules", "dudo", "--players", "3", "--json")[1])
    assert (doc["dice"], doc["wild"], doc["rules"]) == (15, 1, parse_rules("dudo").text)
    doc = json.loads(odds("liars-dice", "--rules", "openspiel", "--players", "2", "--json")[1])
    assert (doc["dice"], doc["wild"]) == (2, 6)
    # Unequal cups: the dice in play are the cups' sum, no --players needed.
    doc = json.loads(odds("liars-dice", "--rules", "openspiel(cups=3:2)", "--json")[1])
    assert doc["dice"] == 5
    code, _, err = odds("liars-dice", "--rules", "openspiel(cups=3:2)", "--players", "3")
    assert code != 0 and "2 cups, one per player, not 3" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mia", "--rules", "nonsense"], "unknown preset"),
        (["mia", "--rules", "dudo"], "not of mia"),
        (["mia", "--believe", "77"], "not a Mia value"),
        (["mia", "--believe", "61", "--after", "62"], "may not follow"),
        (["mia", "--after", "61"], "goes with --believe"),
        (["mia", "--plot", "chart.jpg"], ".png or .svg"),
        (["mia", "--plot", "/no/such/folder/chart.png"], "does not exist"),
        (["liars-dice"], "--dice N"),
        (["liars-dice", "--dice", "2", "--own", "1,2,3"], "only 2 are in play"),
        (["liars-dice", "--dice", "5", "--own", "1,9"], "1 to 6"),
        (["liars-dice", "--dice", "5", "--face", "7"], "1 to 6"),
        (["liars-dice", "--rules", "classic", "--players", "2"], "not of liars-dice"),
        (["liars-dice", "--rules", "dudo"], "--players"),
    ],
)
def test_bad_input_is_an_error_on_stderr_without_a_traceback(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = odds(*args)
    assert code == 2
    assert message in " ".join(err.split()) and out == ""
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_python_example_of_docs_odds_prints_what_the_page_says() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "odds.md").read_text("utf-8")
    section = page[page.index("## From Python") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    shown = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert code is not None and shown is not None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.group(1), "docs/odds.md", "exec"), {})  # noqa: S102
    assert printed.getvalue() == shown.group(1)
