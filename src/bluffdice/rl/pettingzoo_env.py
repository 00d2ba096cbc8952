"""A PettingZoo AEC environment for every Mia, Liar's Dice and common-hand rule set.

    from bluffdice.rl.pettingzoo_env import env
    e = env("classic", players=3)          # wrapped as PettingZoo's own games are
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        action = None if term or trunc else pick(obs["observation"], obs["action_mask"])
        e.step(action)

Observations are dictionaries: `observation`, the float vector of `spaces.Encoding`, and
`action_mask`, 1 for each legal action index. `infos[agent]` carries the view's text
(`observation_string`) and the information-state string of perfect recall (every event
the agent has seen, `information_state`). Dice and the opening seat are drawn inside the
environment from the seed given to `reset`. Rewards come at the end: the game's returns
(winners share +1, losers -1). Needs the `rl` extra (pettingzoo, gymnasium).

As in PettingZoo's classic environments, `env()` is the environment wrapped in
PettingZoo's standard wrappers (an illegal action ends the game with reward -1 for the
player who made it, an action index out of range is an assertion error, and the AEC
call order is enforced); `raw_env()` is the environment itself. `render()` in `ansi`
mode returns the table as text, the way a spectator of `bluffdice play --watch` sees it.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from bluffdice.games.base import CHANCE
from bluffdice.games.registry import game_of, parse_rules, rules_string
from bluffdice.rl.spaces import Encoding, Recall
from bluffdice.sim.engine import sample_outcome


class BluffdiceEnv(AECEnv):  # type: ignore[misc]
    """One game of any Mia, Liar's Dice or common-hand rule set, for `players` agents."""

    metadata = {"name": "bluffdice_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self, rules: Any = "classic", players: int = 2, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.rules = parse_rules(rules) if isinstance(rules, str) else rules
        self.spec_game = game_of(self.rules)
        self.encoding = Encoding(self.rules, players)
        self.num_players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.encoding.num_actions
        obs = spaces.Box(low=-1.0, high=1.0, shape=(self.encoding.size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)
        self._observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state: Any = None
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- the AEC loop ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.recall = Recall(self.num_players)
        self.state = self.spec_game.new_game(self.rules, self.num_players)
        self._advance()
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._update_infos()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.encoding.actions[int(action)]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        _, events = self._apply(move)
        self.recall.add(events)
        self._advance()
        self._update_infos()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.agent_name_mapping[agent]
        view = self.state.view(seat)
        legal = view.legal_actions if self.state.current_player == seat else ()
        return {
            "observation": self.encoding.observe(view),
            "action_mask": self.encoding.mask(legal),
        }

    def render(self) -> str | None:
        """The table as a spectator sees it, as plain text (`ansi` mode), or None."""
        if self.render_mode is None:
            return None
        return table_text(self.rules, self.state, self.possible_agents)

    def close(self) -> None:
        pass

    # --- pieces -----------------------------------------------------------------------------

    def _apply(self, action: Any) -> Any:
        step = self.state.apply(action)
        self.state = step.state
        return step

    def _advance(self) -> None:
        """Play chance (dice, the opening seat) until a player must act or the game ends."""
        while self.state.current_player == CHANCE:
            outcome = sample_outcome(self.state.chance_outcomes(), self._rng)
            self.recall.add(self._apply(outcome).events)
        if self.state.is_terminal:
            returns = self.state.returns()
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]

    def _update_infos(self) -> None:
        for a in self.agents:
            seat = self.agent_name_mapping[a]
            self.infos[a] = {
                "information_state": self.recall.string(seat),
                "observation_string": msgspec.json.encode(self.state.view(seat)).decode(),
                "rules": rules_string(self.rules),
            }


def table_text(rules: Any, state: Any, names: list[str], width: int = 100) -> str:
    """A state's table as plain text, seen by a spectator (no dice under any cup)."""
    import io

    from rich.console import Console

    from bluffdice.terminal import presenter_for

    presenter = presenter_for(rules)
    view = state.view(None)
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False)
    console.print(
        presenter.result(view, names) if state.is_terminal else presenter.table(view, names)
    )
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text


def raw_env(
    rules: Any = "classic", players: int = 2, render_mode: str | None = None
) -> BluffdiceEnv:
    """The environment for a rule set (preset name, rule string or rules object), without
    PettingZoo's wrappers."""
    return BluffdiceEnv(rules, players, render_mode)


def env(rules: Any = "classic", players: int = 2, render_mode: str | None = None) -> AECEnv:
    """The environment wrapped as PettingZoo wraps its own classic games: illegal moves
    end the game (reward -1 to whoever made one), indexes are checked, the AEC order is
    enforced."""
    from pettingzoo.utils import wrappers

    wrapped: AECEnv = raw_env(rules, players, render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
