"""Words as data: one place says what happened; front ends only style it."""

from __future__ import annotations

from bluffdice.games import parse_rules
from bluffdice.games.mia.actions import Announced, Penalty
from bluffdice.narration import Part, plain, words_for
from bluffdice.narration.words import STYLES
from bluffdice.table import Table, seeded
from bluffdice.terminal.narration import render

NAMES = ["Ada", "[bold]Bob[/]", "Cy"]


def test_events_are_described_in_plain_words_with_styled_parts() -> None:
    words = words_for(parse_rules("classic"))
    said = words.describe(Announced(player=1, value=21), NAMES, viewer=0)
    assert said is not None
    assert plain(said) == "[bold]Bob[/] announces 21 (Mia)."
    assert Part("[bold]Bob[/]", "player", 1) in said and Part("21 (Mia)", "strong") in said
    mine = words.describe(Penalty(player=0, amount=2, reason="mia_found"), NAMES, viewer=0)
    assert mine is not None and plain(mine) == "You lose 2 lives (looked under a real Mia)."
    assert mine[0] == Part("You", "you", 0)


def test_the_terminal_colours_the_same_words_and_escapes_names() -> None:
    words = words_for(parse_rules("classic"))
    said = words.describe(Announced(player=1, value=54), NAMES, viewer=None)
    markup = render(said)
    assert markup is not None and "\\[bold]Bob\\[/]" in markup  # a name is never markup
    from rich.text import Text

    assert Text.from_markup(markup).plain == plain(said)  # type: ignore[arg-type]


def test_every_event_of_real_games_has_words_and_only_known_styles() -> None:
    for rules, players in (("meyer", 3), ("dudo", 3), ("common-hand", 2)):
        table = Table(rules, players, dice=seeded(4))
        words = words_for(table.rules)
        import random

        rng = random.Random(1)
        while (pending := table.pending()) is not None:
            table.submit(
                pending.seat, pending.state_id, rng.choice(list(pending.view.legal_actions))
            )
        described = 0
        for entry in table.log:
            for event in entry.events:
                said = words.describe(event, NAMES[:players], viewer=0)
                if said is not None:
                    described += 1
                    assert all(p.style in STYLES for p in said)
                    assert plain(said).strip()
        assert described > 10
