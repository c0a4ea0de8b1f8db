"""What-if from any replay: re-play the rest of a game N times with bots and fresh dice.

A player who lost wants to know whether it was the dice or the plan. From the position after the
first `at` actions of a replay, game `i` re-plays the rest with bots in every seat and a new dice
stream seeded `derive_seed(seed, i)` (bots seeded from it too), so the distribution of outcomes
says how often that position is won, drawn or lost, next to what really happened.

Like troupe testing (`sim.games`, `sim.run`), each game is a pure function of the plan and its
index, batches run on any `concurrent.futures.Executor` (`sim.executors`) and are consumed in index
order: the distribution depends only on the replay, the step, N and the seed — never on the
number of workers.
"""

from __future__ import annotations

import copy
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any

from skirmish.bots.runner import MAX_ACTIONS, BotStuck, seat_bots
from skirmish.engine.game import Game
from skirmish.engine.replay import Replay
from skirmish.rules.dice import Dice, derive_seed
from skirmish.sim.collector import fewer_collections
from skirmish.sim.games import batches
from skirmish.sim.stats import wilson

DRAW = "draw"


@dataclass(frozen=True)
class WhatIfPlan:
    """Everything a worker needs (picklable): the replay, the step to start from, the run seed."""

    replay: Replay
    at: int
    seed: int
    policy: str = "heuristic"

    def game_seed(self, index: int) -> int:
        return derive_seed(self.seed, index)


@dataclass(frozen=True, slots=True)
class WhatIfGame:
    """One re-played ending: who won (a label of `outcome_labels`), when, and the Battle Points."""

    index: int
    outcome: str
    turns: int
    battle_points: tuple[int, ...]


def outcome_labels(game: Game) -> list[str]:
    """Every possible outcome, in seat order: each team's players joined by " + ", then "draw"."""
    teams: dict[int, list[str]] = {}
    for p in game.state.players:
        teams.setdefault(p.team, []).append(p.name)
    return [" + ".join(names) for names in teams.values()] + [DRAW]


def outcome_of(game: Game) -> str:
    """The label of a finished game's result."""
    s = game.state
    if s.winning_team is None:
        return DRAW
    return " + ".join(p.name for p in s.players if p.team == s.winning_team)


def position(plan: WhatIfPlan) -> Game:
    """The game after the first `plan.at` actions (no log: the play-outs only need the state)."""
    return plan.replay.play(record_log=False, upto=plan.at, transactional=False)


def shared_objects(game: Game) -> dict[int, Any]:
    """A `deepcopy` memo of what a copy of a game may share with it: the read-only data (scenario,
    options, tables, troupes, armouries, profiles). Also the bots' thinking copies (`ui.botworker`)."""
    memo: dict[int, Any] = {}
    for o in (game.scenario, game.options, game.table, game.base_table, *game.troupes):
        memo[id(o)] = o
    for p in game.state.players:
        memo[id(p.troupe)] = p.troupe
        memo[id(p.armoury)] = p.armoury
    for m in game.state.models:
        memo[id(m.profile)] = m.profile
    return memo


def _fork(game: Game) -> Game:
    """An independent copy of a position; the scenario, troupes, options and tables are shared."""
    return copy.deepcopy(game, shared_objects(game))


def play_from(start: Game, plan: WhatIfPlan, index: int) -> WhatIfGame:
    """Game `index`: the position with fresh dice, played to its end by bots in every seat."""
    game = _fork(start)
    seed = plan.game_seed(index)
    game.dice = Dice(seed)
    game.seed = seed  # bots are seeded from the game's seed (`seat_bots`)
    bots = seat_bots(game, [plan.policy] * len(game.state.players))
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        bot = bots[game.state.active_player]
        assert bot is not None  # every seat is given a bot above
        game.apply(bot.choose(game))
    else:
        raise BotStuck(f"what-if game {index} (seed {seed}) did not end within {MAX_ACTIONS} actions")
    return WhatIfGame(
        index, outcome_of(game), game.state.turn, tuple(p.total_points for p in game.state.players)
    )


def play_batch(plan: WhatIfPlan, start: int, stop: int) -> list[WhatIfGame]:
    """Games `start..stop-1`; the position is rebuilt once per batch (a worker's unit of work)."""
    base = position(plan)
    with fewer_collections():
        return [play_from(base, plan, i) for i in range(start, stop)]


@dataclass
class WhatIfResult:
    """The outcome distribution of a what-if run, next to what really happened."""

    plan: WhatIfPlan
    labels: list[str]
    players: list[str]
    counts: dict[str, int]
    games: int
    turns: int = 0
    battle_points: list[int] = field(default_factory=list)
    actual: str = ""
    actual_reason: str = ""
    actual_points: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def rate(self, label: str) -> float:
        return self.counts.get(label, 0) / self.games if self.games else 0.0

    def interval(self, label: str) -> tuple[float, float]:
        return wilson(self.counts.get(label, 0), self.games)

    def distribution(self) -> dict[str, dict[str, Any]]:
        """Per outcome: games, rate and 95% Wilson interval (the part that must not depend on workers)."""
        return {
            k: {"games": self.counts.get(k, 0), "rate": self.rate(k), "ci95": list(self.interval(k))}
            for k in self.labels
        }

    def summary(self) -> dict[str, Any]:
        g = max(1, self.games)
        return {
            "replay": self.plan.replay.name,
            "at": self.plan.at,
            "actions": len(self.plan.replay.actions),
            "games": self.games,
            "seed": self.plan.seed,
            "bots": self.plan.policy,
            "outcomes": self.distribution(),
            "mean_turns": self.turns / g,
            "mean_battle_points": {p: v / g for p, v in zip(self.players, self.battle_points, strict=True)},
            "actual": {
                "outcome": self.actual,
                "reason": self.actual_reason,
                "battle_points": self.actual_points,
            },
            "games_per_second": self.games / self.seconds if self.seconds > 0 else 0.0,
        }


def actual_outcome(replay: Replay) -> tuple[str, str, dict[str, int]]:
    """What really happened: the recorded result, or the replay played to its end when it has none."""
    result = replay.result
    if not result or "winners" not in result:
        game = replay.play(record_log=False, transactional=False)
        if not game.over:
            return "unfinished", "the replay stops before the game ends", {}
        result = game.result()
    if not result.get("over", True):
        return "unfinished", "the replay stops before the game ends", dict(result.get("battle_points", {}))
    winners = result.get("winners") or []
    return (
        " + ".join(winners) if winners else DRAW,
        str(result.get("reason", "")),
        dict(result.get("battle_points", {})),
    )


Progress = Callable[[int, int], None]


def run_whatif(
    plan: WhatIfPlan,
    games: int,
    executor: Executor,
    *,
    batch_size: int | None = None,
    window: int = 6,
    on_progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> WhatIfResult:
    """Play `games` endings on `executor` and fold them in index order.

    `cancelled` is asked between batches (the replay viewer's Esc): the result then holds the games
    folded so far.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    if not 0 <= plan.at < len(plan.replay.actions):
        raise ValueError(f"step {plan.at} is outside 0..{len(plan.replay.actions) - 1}")
    start_game = position(plan)
    labels = outcome_labels(start_game)
    players = [p.name for p in start_game.state.players]
    result = WhatIfResult(plan, labels, players, {k: 0 for k in labels}, 0, 0, [0] * len(players))
    result.actual, result.actual_reason, result.actual_points = actual_outcome(plan.replay)
    size = batch_size or max(1, min(10, games // 8))
    todo = deque(batches(games, size))
    inflight: deque[Future[list[WhatIfGame]]] = deque()
    started = time.perf_counter()

    def fill() -> None:
        while todo and len(inflight) < window:
            s, e = todo.popleft()
            inflight.append(executor.submit(play_batch, plan, s, e))

    try:
        fill()
        while inflight:
            for g in inflight.popleft().result():
                result.counts[g.outcome] = result.counts.get(g.outcome, 0) + 1
                result.games += 1
                result.turns += g.turns
                for k, v in enumerate(g.battle_points):
                    result.battle_points[k] += v
            if on_progress is not None:
                on_progress(result.games, games)
            if cancelled is not None and cancelled():
                break
            fill()
    finally:
        for fut in inflight:
            fut.cancel()
    result.seconds = time.perf_counter() - started
    return result


def report_lines(result: WhatIfResult, aligned: bool = True) -> list[str]:
    """The distribution in words: in columns for the terminal, as sentences (`aligned=False`) for
    the replay viewer's proportional font."""
    plan = result.plan
    total = len(plan.replay.actions)
    lines = [
        f"What if: from action {plan.at} of {total}, {result.games} endings re-played by {plan.policy} "
        f"bots with fresh dice (seed {plan.seed})"
    ]
    width = max(len(k) for k in result.labels)
    for k in result.labels:
        lo, hi = result.interval(k)
        won = "wins" if k != DRAW else "    "
        if not aligned:
            what = f"{k} wins" if k != DRAW else "draws"
            lines.append(
                f"{what}: {result.counts.get(k, 0)} of {result.games} ({result.rate(k):.0%}; "
                f"95% interval {lo:.0%} to {hi:.0%})"
            )
            continue
        lines.append(
            f"  {k:<{width}} {won} {result.counts.get(k, 0):>5}  {result.rate(k):6.1%}  "
            f"(95% interval {lo:.1%} to {hi:.1%})"
        )
    actual = result.actual if result.actual in (DRAW, "unfinished") else f"{result.actual} won"
    pts = ", ".join(f"{p} {v}" for p, v in result.actual_points.items())
    lines.append(
        f"What really happened: {actual}"
        + (f" ({result.actual_reason})" if result.actual_reason else "")
        + (f"; Battle Points {pts}" if pts else "")
    )
    if result.actual in result.counts and result.games:
        lines.append(
            f"  the bots reach that outcome in {result.rate(result.actual):.0%} of the re-played endings"
        )
    return lines
