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

Python games are slow: OpenSpiel's tabular CFR walks the whole game tree each iteration,
and a full Mia round has far too many histories for that (every roll branches 21 ways and
announcements can climb through all 21 values). The test and `docs/research.md` solve the
end of the heads-up `maexchen` round (a prefix that leaves few values to announce).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from bluffdice.games.base import CHANCE
from bluffdice.games.registry import game_of, parse_rules
from bluffdice.rl.spaces import Encoding, Recall

SHORT_NAME = "python_bluffdice"

_PARAMS = {"rules": "maexchen", "players": 2, "first": 0, "prefix": ""}

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
        self._start: tuple[Any, Recall] | None = None
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
        what each player has seen of it; worked out once (OpenSpiel makes a new
        initial state for every clone)."""
        if self._start is None:
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
            self._start = (state, recall)
        return self._start

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BluffdiceObserver:
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return BluffdiceObserver(self, bool(recall))


class _Shared:
    """Holds a value that copies share: OpenSpiel clones a Python state by deep-copying
    its attributes, and the engine's states are immutable, so a copy is the same value."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class BluffdiceState(pyspiel.State):  # type: ignore[misc]
    """Wraps an engine state (immutable) and what each player has seen."""

    def __init__(self, game: BluffdiceGame) -> None:
        super().__init__(game)
        self.game = _Shared(game)
        start = game.start()
        self.engine = _Shared(start[0])
        self.recall = start[1].copy()

    @property
    def _g(self) -> BluffdiceGame:
        g: BluffdiceGame = self.game.value
        return g

    @property
    def state(self) -> Any:
        """The engine state."""
        return self.engine.value

    def _step(self, action: Any) -> None:
        step = self.engine.value.apply(action)
        self.engine = _Shared(step.state)
        self.recall.add(step.events)

    def current_player(self) -> int:
        state = self.engine.value
        if state.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        player = state.current_player
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else int(player)

    def _legal_actions(self, player: int) -> list[int]:
        return self._g.encoding.legal_indices(self.engine.value.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        index = self._g.encoding.chance_index
        return [(index[o], float(p)) for o, p in self.engine.value.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        enc = self._g.encoding
        if self.engine.value.current_player == CHANCE:
            self._step(enc.chance[action])
        else:
            self._step(enc.actions[action])

    def _action_to_string(self, player: int, action: int) -> str:
        enc = self._g.encoding
        chance = player == int(pyspiel.PlayerId.CHANCE)
        return str(enc.chance[action] if chance else enc.actions[action])

    def is_terminal(self) -> bool:
        return bool(self.engine.value.is_terminal)

    def returns(self) -> list[float]:
        return [float(r) for r in self.engine.value.returns()]

    def __str__(self) -> str:
        state = self.engine.value
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


def load(rules: str, players: int = 2, first: int = 0, prefix: str = "") -> Any:
    """`pyspiel.load_game` for a rule set, registering the game first."""
    register()
    params = {"rules": spiel_rules(rules), "players": players, "first": first, "prefix": prefix}
    return pyspiel.load_game(SHORT_NAME, params)


def register() -> None:
    """Make `python_bluffdice` loadable with `pyspiel.load_game` (once per process)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_TYPE, BluffdiceGame)
