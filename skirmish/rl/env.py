"""A PettingZoo AEC environment over a Skirmish game (the `rl` extra:
`pip install 'skirmish-four-kingdoms[rl]'`).

One agent per seat (`player_0`, `player_1`, ...), in the game's own turn order: the agent to act
is always the engine's active player (a pending counter-charge or reaction hands the turn to the
player it offers it to). Seats can instead be played by a bot inside the environment (`bots=`),
as can the sides a scenario drives itself (a side with `bot` set, such as the Pursuit's hunters).

Actions are a fixed-size encoding over the engine's own `legal_actions()`: action `i` is the
`i`-th legal action now, in the engine's order (pinned over the golden replays by
`tests/test_legal_order.py`), and the action mask marks the first `len(legal_actions())` slots.
A longer list keeps its first `max_actions - 1` entries and its last (always the pass, `EndStep`
or `Decline`), so passing is never masked out. Observations are built from what every player at
the table sees, from `game.observation(player)` (positions, HP, statuses, the step and the score;
of hidden things only that player's own): never the dice stream, a hidden deck or another
player's secrets. Reward: +1 to each winning seat, -1 to each losing one
at the end, 0 for a draw and before.

Only the engine's public face is used (`skirmish.engine`, `skirmish.bots.registry`): an
import-linter contract in pyproject.toml says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium  # type: ignore[import-not-found, unused-ignore]
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

from skirmish.bots.registry import make_bot
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine import STEPS, Action, Game, IllegalAction

GLOBAL_FEATURES = 4 + len(STEPS)
"""Turn progress, whether this seat acts now, whether a decision is pending, the score margin, the step."""
MODEL_FEATURES = 18
"""Per model: position, base, HP, AP, statuses, owner relative to the observer, cover, height."""
STEP_NAMES = tuple(STEPS)


class SkirmishAEC(AECEnv):  # type: ignore[misc]
    """Skirmish as an AEC environment: `legal_actions()` as a masked `Discrete`, one agent per seat."""

    metadata = {"name": "skirmish_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        scenario: str | Path | Scenario = "open_battle",
        troupes: list[str | Path | Troupe | None] | None = None,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        bots: Mapping[int, str] | None = None,
        max_actions: int = 512,
        max_steps: int = 20_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if max_actions < 2:
            raise ValueError("max_actions: at least 2 (one action and the pass)")
        self._spec = (scenario, troupes, dict(options or {}))
        self._seed = seed
        self.max_actions = max_actions
        self.max_steps = max_steps
        self.render_mode = render_mode
        probe = self._new_game(seed)
        seats = len(probe.state.players)
        driven = {i: side.bot for i, side in enumerate(probe.scenario.sides) if side.bot}
        self._bot_policies: dict[int, str] = {**driven, **dict(bots or {})}
        bad = sorted(k for k in self._bot_policies if not 0 <= k < seats)
        if bad:
            raise ValueError(f"bots: no seat {bad[0]} (seats 0 to {seats - 1})")
        self._seat_of = {f"player_{p}": p for p in range(seats) if p not in self._bot_policies}
        if not self._seat_of:
            raise ValueError("bots: every seat is played by a bot; leave at least one to an agent")
        self.possible_agents = list(self._seat_of)
        self._n_models = len(probe.state.models)
        size = GLOBAL_FEATURES + MODEL_FEATURES * self._n_models
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (max_actions,), dtype=np.int8),
            }
        )
        act_space = gymnasium.spaces.Discrete(max_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.game = probe
        self._legal: list[Action] = []
        self._steps = 0
        self._reset_bookkeeping()

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with `seed`, that seed (and later resets count on from it); else the next one."""
        if seed is not None:
            self._seed = seed
        else:
            self._seed += 1
        self.game = self._new_game(self._seed)
        self._steps = 0
        self._reset_bookkeeping()
        self._play_bots()
        self._after_change()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self._observation(self._seat_of[agent]), "action_mask": self._mask(agent)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self._legal):
            raise ValueError(
                f"action {action!r} is masked out for {agent}: choose 0 to {len(self._legal) - 1}"
            )
        self._cumulative_rewards[agent] = 0
        chosen = self._legal[int(action)]
        try:
            self.game.apply(chosen)
        except IllegalAction as exc:  # legal_actions() offered it: a defect of the engine, not of the agent
            raise RuntimeError(f"the engine refused its own legal action {chosen!r}: {exc}") from exc
        self._steps += 1
        self._play_bots()
        self._after_change()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        s = self.game.state
        lines = [repr(self.game)]
        for m in s.models:
            if m.on_table:
                x, y = s.xy[m.index]
                status = "KO" if m.ko else f"{m.hp}/{m.profile.hp} HP"
                lines.append(f"  {m.id:<24} ({x:5.1f}, {y:5.1f}) {status}")
        return "\n".join(lines)

    def close(self) -> None:
        self._legal = []

    # ------------------------------------------------------------------ the encoding
    def legal_actions(self) -> list[Action]:
        """The engine actions the slots of the current agent's mask stand for, in slot order."""
        return list(self._legal)

    def action_of(self, index: int) -> Action:
        """The engine action a slot stands for now (for logs and debugging)."""
        return self._legal[index]

    # ------------------------------------------------------------------ inside
    def _new_game(self, seed: int) -> Game:
        scenario, troupes, options = self._spec
        return Game.from_scenario(scenario, troupes, seed=seed, options=options or None, record_log=False)

    def _reset_bookkeeping(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._bots = {p: make_bot(policy, self.game.seed, p) for p, policy in self._bot_policies.items()}
        self.agent_selection = self.agents[0]

    def _play_bots(self) -> None:
        """Seats played inside the environment act until an agent's turn comes (or the game ends)."""
        game = self.game
        while not game.over and game.state.active_player in self._bots and self._steps < self.max_steps:
            game.apply(self._bots[game.state.active_player].choose(game))
            self._steps += 1

    def _after_change(self) -> None:
        game = self.game
        if game.over or self._steps >= self.max_steps:
            over = game.over
            team = game.state.winning_team
            for agent, p in self._seat_of.items():
                if agent not in self.terminations:
                    continue
                if over and team is not None:
                    self.rewards[agent] = 1.0 if game.state.players[p].team == team else -1.0
                self.terminations[agent] = over
                self.truncations[agent] = not over
            self._legal = []
            self.agent_selection = next((a for a in self.agents), self.agent_selection)
            return
        legal = game.legal_actions()
        if len(legal) > self.max_actions:
            legal = legal[: self.max_actions - 1] + legal[-1:]
        self._legal = legal
        self.agent_selection = f"player_{game.state.active_player}"

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[: len(self._legal)] = 1
        return mask

    def _observation(self, seat: int) -> np.ndarray:
        """What the player in `seat` may know (`game.observation(seat)`: public facts and that
        player's own secrets only), as a vector in [0, 1]; cover and height come from the public
        table and the bases' positions."""
        game = self.game
        obs = game.observation(seat)
        board = game.scenario.board
        teams = {p["index"]: p["team"] for p in obs["players"]}
        me_team = teams[seat]
        points = {p["index"]: sum(p["bp"]) for p in obs["players"]}
        mine = sum(v for p, v in points.items() if teams[p] == me_team)
        theirs = max((v for p, v in points.items() if teams[p] != me_team), default=0)
        out = np.zeros(GLOBAL_FEATURES + MODEL_FEATURES * self._n_models, dtype=np.float32)
        out[0] = obs["turn"] / max(1, game.scenario.turns)
        out[1] = float(not obs["over"] and obs["active_player"] == seat)
        out[2] = float(obs["pending"] is not None)
        out[3] = 0.5 + 0.5 * np.tanh((mine - theirs) / 10.0)
        if obs["step"] in STEP_NAMES:
            out[4 + STEP_NAMES.index(obs["step"])] = 1.0
        for k, row in enumerate(obs["models"]):
            base = GLOBAL_FEATURES + MODEL_FEATURES * k
            if row["removed"]:
                out[base + 6] = 1.0
                continue
            m = game.model(row["id"])
            active = not row["ko"]
            x, y = row["xy"]
            team = teams[row["player"]]
            out[base : base + MODEL_FEATURES] = (
                x / board.width,
                y / board.height,
                m.profile.base / 6.0,
                row["hp"] / max(1, m.profile.hp),
                row["ap"] / 10.0,
                float(active),
                0.0,
                float(row["ko"]),
                float(row["taking_cover"]),
                float(row["limping"]),
                float(row["moved"]),
                float(row["fired"]),
                float(row["charged"]),
                float(row["player"] == seat),
                float(team == me_team and row["player"] != seat),
                float(team != me_team),
                game.cover(m) / 3.0 if active else 0.0,
                game.height(m) / 5.0 if active else 0.0,
            )
        np.clip(out, 0.0, 1.0, out=out)
        return out


def env(**kwargs: Any) -> SkirmishAEC:
    """The environment, as PettingZoo's `env()` convention names it."""
    return SkirmishAEC(**kwargs)
