"""The PettingZoo adapter (issue 12, item 6): `pettingzoo.test.api_test` on real scenarios.

Skipped when the `rl` extra is not installed (`pip install -e '.[rl]'`).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from skirmish.engine import EndStep  # noqa: E402
from skirmish.rl.env import SkirmishAEC  # noqa: E402


def _play(env: SkirmishAEC, seed: int) -> tuple[int, dict[str, float]]:
    """A whole game with uniformly random legal actions; the steps taken and each agent's return."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total: dict[str, float] = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] = total.get(agent, 0.0) + float(reward)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if terminated or truncated else int(rng.choice(legal)))
        steps += 1
    return steps, total


@pytest.mark.parametrize(
    ("scenario", "bots"),
    [
        ("open_battle", None),
        ("four_kingdoms_melee", None),
        ("the_pursuit", None),
        ("avatar_duel", None),
        ("open_battle", {1: "heuristic"}),
    ],
)
def test_r_t1_pettingzoo_api_test_passes(scenario: str, bots: dict[int, str] | None) -> None:
    env = SkirmishAEC(scenario, seed=0, bots=bots)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # The dict observation with an action mask is PettingZoo's own convention for masked
        # actions (its classic games warn the same); every other warning fails the test.
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env, num_cycles=400)


def test_r_t4_a_game_ends_with_the_winners_rewarded_and_seeds_repeat() -> None:
    env = SkirmishAEC("open_battle", seed=0)
    steps, total = _play(env, 3)
    assert env.game.over and env.agents == []
    winners = set(env.game.result()["winners"])
    names = {f"player_{p.index}": p.name for p in env.game.state.players}
    for agent, value in total.items():
        assert value == (1.0 if names[agent] in winners else -1.0 if winners else 0.0)
    assert _play(SkirmishAEC("open_battle", seed=0), 3) == (steps, total)
    seed_test(lambda: SkirmishAEC("open_battle"), num_cycles=30)


def test_the_mask_is_the_engines_legal_actions_and_pass_is_never_cut() -> None:
    env = SkirmishAEC("open_battle", seed=1, max_actions=4)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    legal = env.legal_actions()
    assert mask.sum() == len(legal) <= 4 and isinstance(legal[-1], EndStep)
    other = next(a for a in env.possible_agents if a != agent)
    assert env.observe(other)["action_mask"].sum() == 0  # only the player to act may act
    with pytest.raises(ValueError, match="masked out"):
        env.step(int(mask.sum()))


def test_observations_hold_only_what_the_table_shows() -> None:
    """Two games that differ only in their dice stream's future look the same before any roll."""
    a, b = SkirmishAEC("open_battle", seed=5), SkirmishAEC("open_battle", seed=6)
    a.reset(seed=5)
    b.reset(seed=6)
    assert a.game.dice.state != b.game.dice.state
    for agent in a.possible_agents:
        np.testing.assert_array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
