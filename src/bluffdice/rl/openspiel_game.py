"""bluffdice games as OpenSpiel Python games: OpenSpiel's algorithms on any Mia, Liar's
Dice or common-hand rule set.

    from bluffdice.rl.openspiel_game import load
    game = load("maexchen(rounds=1)", players=2)   # registers python_bluffdice

Parameters: `rules` (a preset or rule string; OpenSpiel's game strings give `( ) = ,`
a meaning of their own, so options travel as `mia[lives:3/pass:off]`, see `spiel_rules`,
or use `load`), `players`, `first` (the seat that opens;
-1 leaves it to chance, as the engine does) and `prefix`: moves, in the text form of game
records separated by `;`, played before the game is handed over (dice included), so a game
may start in the middle of a round. Action ids and the observation tensor are those of
`bluffdice.rl.spaces`; chance outcomes have ids too (Mia: the 21 values, then the opening
seats; Liar's Dice: every hand of 1 to `dice` dice, then the seats; common hand: every
hand of 1 to 5 dice, then the seats). The information-state
string is the player's whole history of visible events (perfect recall); the observation
string is the player's view. Returns are the engine's (zero-sum). Needs the `bench` extra.

`cut="roll"` with a `continuation` table (`66:-0.91;55:-0.83`, see `continuation_text`)
ends a heads-up Mia game at the next fresh roll: when the receiver believes and rolls,
the game stops and the roller gets the table's value for the value they must beat (the
other player its negative). That is exact where nobody holds private information at a
fresh roll and the rest of the game depends on nothing but who rolls and what they must
beat (`cut_problem` says where that fails); docs/research.md solves the whole heads-up
round segment by segment with it.

OpenSpiel's tabular CFR walks the whole game tree each iteration, and a full Mia round
has far too many histories for that (every roll branches 21 ways and announcements can
climb through all 21 values): the cut above is what brings the round within reach. A
state is one node of a tree the game keeps (`_Node`): a tree walk that comes back to the
same history finds its children, legal actions and returns already worked out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from bluffdice.games.base import CHANCE
from bluffdice.games.mia.actions import Roll
from bluffdice.games.mia.values import MIA, parse_value
from bluffdice.games.registry import game_of, parse_rules
from bluffdice.rl.spaces import Encoding, Recall

SHORT_NAME = "python_bluffdice"

_PARAMS = {
    "rules": "maexchen",
    "players": 2,
    "first": 0,
    "prefix": "",
    "cut": "",
    "continuation": "",
}

_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="bluffdice: Mia and Liar's Dice, any rule set",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


class BluffdiceGame(pyspiel.Game):  # type: ignore[misc]
    """One rule set as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_PARAMS, **(params or {})}
        self.rules = parse_rules(rules_text(str(merged["rules"])))
        self.players = int(merged["players"])
        self.first = int(merged["first"])
        self.prefix = [p.strip() for p in str(merged["prefix"]).split(";") if p.strip()]
        self.spec = game_of(self.rules)
        self.encoding = Encoding(self.rules, self.players)
        self._root: _Node | None = None
        self.cached = 0
        self.cut = str(merged["cut"])
        self.continuation: dict[int, float] = {}
        if self.cut not in ("", "roll"):
            raise ValueError(f"cut must be 'roll' or empty, not {self.cut!r}")
        if self.cut:
            problem = cut_problem(self.rules, self.players)
            if problem:
                raise ValueError(f"cut=roll is not exact here: {problem}")
            self.continuation = parse_continuation(str(merged["continuation"]))
            missing = [v for v in self.rolls_to_beat() if v not in self.continuation]
            if missing:
                raise ValueError(
                    "cut=roll needs a continuation value for every value a roll may have "
                    f"to beat: missing {', '.join(map(str, missing))}"
                )
        elif merged["continuation"]:
            raise ValueError("a continuation table needs cut=roll")
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=len(self.encoding.chance),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=100_000,
        )
        super().__init__(_TYPE, info, merged)

    def new_initial_state(self) -> BluffdiceState:
        return BluffdiceState(self)

    def start(self) -> tuple[Any, Recall]:
        """The engine state the game starts from (opening seat and prefix played), and
        what each player has seen of it."""
        root = self.root()
        return root.state, root.recall

    def root(self) -> _Node:
        """The node the game starts from, worked out once (OpenSpiel makes a new initial
        state for every clone)."""
        if self._root is None:
            state: Any = self.spec.new_game(self.rules, self.players)
            recall = Recall(self.players)

            def play(action: Any) -> Any:
                step = state.apply(action)
                recall.add(step.events)
                return step.state

            if self.first >= 0 and state.phase == "seat":
                state = play(state.chance_outcomes()[self.first][0])
            for text in self.prefix:
                state = play(self.spec.parse_action(text))
            self._root = _Node(state, recall, cut=False)
        return self._root

    def child(self, node: _Node, action: int) -> _Node:
        """The node after `action` (an id): the engine's next state, what each player has
        seen, and whether the game was cut there. Tree-walking algorithms visit the same
        nodes every iteration, so the first `CACHED_NODES` children are kept."""
        found = node.children.get(action)
        if found is not None:
            return found
        state = node.state
        move = self.encoding.chance[action] if state.current_player == CHANCE else None
        move = self.encoding.actions[action] if move is None else move
        step = state.apply(move)
        recall = node.recall.copy()
        recall.add(step.events)
        cut = bool(self.cut) and isinstance(move, Roll) and state.phase == "respond"
        found = _Node(step.state, recall, cut)
        if self.cached < CACHED_NODES:
            node.children[action] = found
            self.cached += 1
        return found

    def rolls_to_beat(self) -> list[int]:
        """The values a fresh roll may have to beat from the start on: every value above
        the one standing (the one standing too if the next player may roll at once),
        except Mia, which no roll follows."""
        state = self.start()[0]
        ranking = self.rules.ranking
        if not state.announced:
            values = ranking.worst_first
        elif state.phase == "respond":
            values = ranking.at_least[state.announced]
        else:
            values = ranking.above[state.announced]
        return [v for v in values if v != MIA]

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BluffdiceObserver:
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return BluffdiceObserver(self, bool(recall))


TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)

CACHED_NODES = 100_000
"""Children each game keeps (a kilobyte or so each, more in long games): the trees that
OpenSpiel's tabular algorithms walk many times over fit (a segment of a Mia round has
about 1,300 nodes, the end game from 44 some 22,000), while a long run of random play,
which seldom comes back to the same node, cannot fill the memory."""


class _Game:
    """The game, shared by every copy of a state (OpenSpiel copies a Python state by
    deep-copying its attributes, and a deep copy of a game would lose ours)."""

    __slots__ = ("game",)

    def __init__(self, game: BluffdiceGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Game:
        return self


class _Node:
    """One history: the engine's state (immutable), what each player has seen, whether
    the game was cut there, who moves (OpenSpiel's player id) and the children and legal
    action ids found so far. OpenSpiel clones a Python state by deep-copying its
    attributes; a node never changes what it stands for, so a copy is the same node."""

    __slots__ = ("state", "recall", "cut", "player", "children", "legal", "returns")

    def __init__(self, state: Any, recall: Recall, cut: bool) -> None:
        self.state = state
        self.recall = recall
        self.cut = cut
        """Whether the game ended here at a fresh roll (`cut="roll"`)."""
        if cut or state.is_terminal:
            self.player = TERMINAL_ID
        elif state.current_player == CHANCE:
            self.player = int(pyspiel.PlayerId.CHANCE)
        else:
            self.player = int(state.current_player)
        self.children: dict[int, _Node] = {}
        self.legal: list[int] | None = None
        self.returns: list[float] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self


class BluffdiceState(pyspiel.State):  # type: ignore[misc]
    """A node of the game's tree (see `_Node`), as OpenSpiel's state."""

    def __init__(self, game: BluffdiceGame) -> None:
        super().__init__(game)
        self.game = _Game(game)
        self.node = game.root()

    @property
    def _g(self) -> BluffdiceGame:
        return self.game.game

    @property
    def state(self) -> Any:
        """The engine state."""
        return self.node.state

    @property
    def recall(self) -> Recall:
        """What each player has seen."""
        return self.node.recall

    def current_player(self) -> int:
        return self.node.player

    def _legal_actions(self, player: int) -> list[int]:
        node = self.node
        if node.legal is None:
            node.legal = self._g.encoding.legal_indices(node.state.legal_actions())
        return list(node.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        index = self._g.encoding.chance_index
        return [(index[o], float(p)) for o, p in self.node.state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        self.node = self._g.child(self.node, action)

    def _action_to_string(self, player: int, action: int) -> str:
        enc = self._g.encoding
        chance = player == int(pyspiel.PlayerId.CHANCE)
        return str(enc.chance[action] if chance else enc.actions[action])

    def is_terminal(self) -> bool:
        return self.node.player == TERMINAL_ID

    def returns(self) -> list[float]:
        node = self.node
        if node.returns is None:
            state = node.state
            if node.cut:  # `turn` has believed and must beat `announced` with a fresh roll
                value = self._g.continuation[state.announced]
                node.returns = [value if p == state.turn else -value for p in range(state.players)]
            else:
                node.returns = [float(r) for r in state.returns()]
        return list(node.returns)

    def __str__(self) -> str:
        state = self.node.state
        return f"moves {state.moves}, phase {state.phase}"


class BluffdiceObserver:
    """OpenSpiel's observer protocol: a tensor (`spaces.Encoding`) and strings."""

    def __init__(self, game: BluffdiceGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BluffdiceState, player: int) -> None:
        self.tensor[:] = self.game.encoding.observe(state.state.view(player))

    def string_from(self, state: BluffdiceState, player: int) -> str:
        if self.perfect_recall:
            return state.recall.string(player)
        import msgspec

        return msgspec.json.encode(state.state.view(player)).decode()


_SPIEL = str.maketrans({"(": "[", ")": "]", "=": ":", ",": "/"})
_OURS = str.maketrans({"[": "(", "]": ")", ":": "=", "/": ","})


def rules_text(param: str) -> str:
    """A `rules` parameter back as a rule string (see `spiel_rules`)."""
    return param.translate(_OURS)


def spiel_rules(text: str) -> str:
    """A rule string as OpenSpiel can carry it in a parameter: its game strings give
    `( ) = ,` a meaning of their own, so `mia(lives=3,pass=off)` travels as
    `mia[lives:3/pass:off]`."""
    return text.translate(_SPIEL)


def cut_problem(rules: Any, players: int) -> str | None:
    """Why ending the game at the next fresh roll with a value per (value to beat) would
    not be exact for `rules` and `players`, or None where it is.

    A believing roll replaces the dice, and the dice are the only thing a Mia player
    hides, so at that moment nobody holds private information: the rest of the game is a
    subgame with a public root. A pass keeps the old dice alive, but it is no roll and no
    cut is made there; the pass limit counts from the last roll, so it does not reach
    across either. What remains to check is that the root's value depends on nothing but
    the value to beat: two players (the loser pays the winner, so the roller's value is
    the whole story, whichever seat rolls), one round that decides the game, no cheers
    (joker32 starts the round again), and segments that end (a pass limit where the pass
    is on: otherwise the same value may be passed back and forth for ever).
    """
    if getattr(rules, "game_name", None) != "mia":
        return "only Mia rounds restart at a fresh roll"
    if players != 2:
        return "more than two players: the rest of the round is not one value for the roller"
    one_round = (rules.mode == "lives" and rules.lives == 1) or (
        rules.mode != "lives" and rules.rounds == 1
    )
    if not one_round:
        return (
            "the game goes on after the round, so a roll's value depends on the score or "
            "lives too: use rounds=1 (score, drinking) or lives=1"
        )
    if rules.joker32:
        return "joker32: cheers starts the round again"
    if rules.pass_allowed and rules.pass_limit == 0:
        return "the pass without a pass_limit: passes may go on for ever between two rolls"
    return None


def parse_continuation(text: str) -> dict[int, float]:
    """A continuation table from its text, `66:-0.91;55:-0.83` (see `continuation_text`)."""
    table: dict[int, float] = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        value, sep, number = item.partition(":")
        try:
            if not sep:
                raise ValueError
            key, worth = parse_value(value), float(number)
        except ValueError:
            raise ValueError(
                f"bad continuation entry {item!r}: expected value:number, e.g. 55:-0.83"
            ) from None
        if not -1.0 <= worth <= 1.0:
            raise ValueError(f"continuation entry {item!r}: a round is worth -1 to 1")
        table[key] = worth
    return table


def continuation_text(table: Mapping[int, float]) -> str:
    """A continuation table as a game parameter: for each value a roll must beat, the
    roller's value of the rest of the round, exact to the last bit (`repr`)."""
    return ";".join(f"{value}:{float(number)!r}" for value, number in table.items())


def load(
    rules: str,
    players: int = 2,
    first: int = 0,
    prefix: str = "",
    continuation: Mapping[int, float] | None = None,
) -> Any:
    """`pyspiel.load_game` for a rule set, registering the game first; a `continuation`
    table ends the game at the next fresh roll (`cut="roll"`)."""
    register()
    params: dict[str, Any] = {
        "rules": spiel_rules(rules),
        "players": players,
        "first": first,
        "prefix": prefix,
    }
    if continuation is not None:
        params.update(cut="roll", continuation=continuation_text(continuation))
    return pyspiel.load_game(SHORT_NAME, params)


def register() -> None:
    """Make `python_bluffdice` loadable with `pyspiel.load_game` (once per process)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_TYPE, BluffdiceGame)
