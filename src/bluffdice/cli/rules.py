"""`bluffdice rules`: the games and presets, or every option of one rule set.

Everything shown is read from the rules classes' `option(...)` declarations (through
`bluffdice.games.catalogue`, which the server's /api shares), so a new rule field or
preset appears here without touching this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from bluffdice.cli.app import app, escape, out, rules_option
from bluffdice.cli.play import players_text

if TYPE_CHECKING:  # the games load when the command runs, not when the CLI starts
    from bluffdice.games.registry import GameSpec

RULES_HELP = (
    "List the games and their presets, or explain every option of one rule set.\n\n"
    "A rule string is a preset or game name with options in brackets: meyer(lives=3), "
    "mia(doubles_ascending=on,pass=off). Options left out keep the preset's values."
)


@app.command(help=RULES_HELP, short_help="List the games and presets, or explain a rule set.")
def rules(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            metavar="RULESET",
            help="A preset (classic, meyer, ...), a game name or a rule string such as "
            "'mia(lives=3,pass=off)'. Leave out to list the games and presets.",
        ),
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print JSON and nothing else.")] = False,
) -> None:
    """The `rules` command; its help text is RULES_HELP."""
    from bluffdice.games.catalogue import game_entry, ruleset_entry
    from bluffdice.games.registry import games

    if ruleset is None:
        listing = [game_entry(spec) for spec in games()]
        if json:
            print_json({"games": listing})
        else:
            show_games(games())
        return
    chosen = rules_option(ruleset)
    entry = ruleset_entry(chosen)
    if json:
        print_json(entry)
    else:
        show_ruleset(entry)


def print_json(data: Any) -> None:
    """JSON on stdout with nothing else (no Rich wrapping or highlighting)."""
    import msgspec

    typer.echo(msgspec.json.format(msgspec.json.encode(data)).decode())


def show_games(specs: list[GameSpec]) -> None:
    from rich.table import Table

    from bluffdice.games.registry import rules_string

    for spec in specs:
        aliases = f" (also {', '.join(spec.aliases)})" if spec.aliases else ""
        out.print(
            f"[bold]{spec.name}[/]{escape(aliases)}: {escape(spec.summary)}; {players_text(spec)}"
        )
        grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 2))
        grid.add_column("Preset", style="bold", no_wrap=True)
        grid.add_column("Description")
        for name, preset in spec.presets.items():
            text = escape(spec.preset_docs.get(name, ""))
            grid.add_row(name, f"{text}\n[dim]{escape(rules_string(preset))}[/]")
        out.print(grid)
    out.print(
        "Every option of one rule set: [bold]bluffdice rules PRESET[/], e.g. bluffdice rules meyer"
    )


def show_ruleset(entry: dict[str, Any]) -> None:
    from rich.padding import Padding

    from bluffdice.games.rulestring import describe_value

    preset = f" (preset {entry['preset']})" if entry["preset"] else ""
    out.print(f"[bold]{entry['title']}[/]: {escape(entry['rules'])}{escape(preset)}")
    for item in entry["options"]:
        value = escape(describe_value(item["value"]))
        default = escape(describe_value(item["default"]))
        shown = f"[bold yellow]{value}[/] [dim](default {default})[/]" if item["changed"] else value
        out.print(f"\n[bold]{escape(item['key'])}[/] = {shown}")
        out.print(Padding(meaning(item), (0, 0, 0, 4), expand=False))
    out.print(
        "\n[dim]An option changed from the game's default shows the default in brackets. "
        f"Write a rule set as {escape(entry['game'])}(key=value,...), e.g. "
        f"{escape(example(entry))}.[/]"
    )


def example(entry: dict[str, Any]) -> str:
    """A rule string of this game with two options changed, for the footer's e.g."""
    parts = []
    for item in entry["options"]:
        value, default = item["value"], item["default"]
        if isinstance(default, bool):
            parts.append(f"{item['key']}={'off' if default else 'on'}")
        elif item["choices"]:
            other = [c for c in item["choices"] if c != default]
            parts.append(f"{item['key']}={other[0]}")
        elif isinstance(value, int) and item["minimum"] is not None:
            parts.append(
                f"{item['key']}={item['minimum'] if default != item['minimum'] else default + 1}"
            )
        if len(parts) == 2:
            break
    return f"{entry['game']}({','.join(parts)})"


def meaning(item: dict[str, Any]) -> str:
    """The option's meaning, then what it accepts; each choice with its own meaning."""
    text = escape(item["meaning"])
    if item["choices"]:
        choices = [f"[bold]{escape(k)}[/]: {escape(v)}" for k, v in item["choices"].items()]
        return text + ". One of:\n" + "\n".join(choices)
    return f"{text}. [dim]Allowed: {escape(item['allowed'])}.[/]"
