"""The engine's public face: what asking costs (issue 12).

`why_not` runs an action on `apply`'s snapshot path and takes it back, so it costs a snapshot and
a restore on top of the checks; the UI asks it for every button of a selected model, so it must
answer in well under a frame. `matchup` is the bots' and the UI's odds of a pair now. The RL
figure is environment steps a second with uniformly random legal actions (observation and mask
built every step). Each figure is the median of 5 timed runs on the rulebook's worked shooting
position (`open_battle`, Sokka on the hill, Zuko in the grove, the shooting step).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from skirmish.data.catalogue import find_troupe
from skirmish.engine import Game, Shoot, matchup, setup, why_not

RUNS = 5


def _median_seconds(work: Callable[[], int]) -> float:
    """Median over RUNS of seconds per item."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        n = work()
        times.append((time.perf_counter() - start) / n)
    return statistics.median(times)


def _position() -> Game:
    avatar = find_troupe("team_avatar")
    bow = {"weapons": ["sword", "bow"]}
    models = [
        e.model_copy(update={"profile": e.profile.model_copy(update=bow)}) if e.profile.name == "sokka" else e
        for e in avatar.models
    ]
    game = Game.from_scenario(
        "open_battle", troupes=[avatar.model_copy(update={"models": models}), "zuko_hunting_party"], seed=1
    )
    setup.place_all(game, {"p0.sokka": (14.5, 20.0), "p0.katara": (14.5, 23.0), "p1.zuko": (33.0, 18.0)})
    setup.advance_to(game, "shooting", player=0)
    return game


def _rl_steps_per_second() -> float | None:
    try:
        import numpy as np

        from skirmish.rl.env import SkirmishAEC
    except ImportError:  # the rl extra is not installed
        return None
    env = SkirmishAEC("open_battle", seed=0)

    def work() -> int:
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps

    return 1.0 / _median_seconds(work)


def run() -> dict[str, float]:
    game = _position()
    legal = Shoot("p0.sokka", "p1.zuko", "bow")
    refused = Shoot("p0.sokka", "p0.katara", "bow")

    def ask() -> int:
        for _ in range(200):
            why_not(game, legal)
            why_not(game, refused)
        return 400

    def odds() -> int:
        for _ in range(500):
            matchup(game, "p0.sokka", "p1.zuko", weapon="bow")
            matchup(game, "p0.sokka", "p1.zuko", charging=True)
        return 1000

    out = {
        "face_why_not_us": round(_median_seconds(ask) * 1e6, 1),
        "face_matchup_us": round(_median_seconds(odds) * 1e6, 1),
    }
    rl = _rl_steps_per_second()
    if rl is not None:
        out["rl_env_steps_per_second"] = round(rl, 0)
    return out


if __name__ == "__main__":
    print(run())
