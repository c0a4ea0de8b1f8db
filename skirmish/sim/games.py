"""One seeded bot game, with the light counters a designer needs, and a batch of them.

Everything here runs inside a worker process (or in-process for one worker), so it is a plain
function of picklable values: a `Plan` (scenario, troupes, options, run seed) and a range of game
indices. Game `i` uses seed `derive_seed(run_seed, i)` and puts troupe A on side 0 when `i` is
even and on side 1 when it is odd (always on side 0 when the scenario declares `fixed_roles`), so
it can be replayed alone with `skirmish play` (see
`Plan.command`) and its result never depends on which worker played it or when.

The game is played with `record_log=False`: building the text log costs more than half of a
game's time. Per-model figures come instead from a wrapper around the scenario rules'
`on_wound` hook (called on every HP lost, with the attacker) and from the actions the bots
choose (AP costs are static: a shot's weapon or ability, an ability's cost, all AP for Taking
Cover). The play loop is `bots.runner.play_out` step for step, so the game is the one `play` plays.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field

from skirmish.bots.registry import DEFAULT
from skirmish.bots.runner import MAX_ACTIONS, BotStuck, seat_bots
from skirmish.data.options import RuleOptions
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine.core.actions import React, Shoot, TakeCover, UseAbility
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game
from skirmish.rules.dice import derive_seed
from skirmish.sim.collector import fewer_collections

WIN_A, WIN_B, DRAW = 1, -1, 0


@dataclass(frozen=True)
class Matchup:
    """Troupe `a` against troupe `b`; `a_arg`/`b_arg` are the command-line names, for replay commands."""

    a: Troupe
    b: Troupe
    a_arg: str
    b_arg: str
    policy: str | None = None
    """Bot policy of this matchup's seats, when not the plan's (`test-troupes --compare-bots`)."""


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play any game of the run (picklable, sent once per batch)."""

    scenario: Scenario
    matchups: tuple[Matchup, ...]
    options: RuleOptions
    seed: int
    policy: str = DEFAULT
    """The bot of every seat, unless `policy_a` / `policy_b` name the bot of troupe A's or B's side."""
    policy_a: str | None = None
    policy_b: str | None = None
    scenario_arg: str = "open_battle"
    turns: int | None = None
    option_args: tuple[str, ...] = ()
    replay_dir: str | None = None

    def game_seed(self, index: int) -> int:
        return derive_seed(self.seed, index)

    def a_side(self, index: int) -> int:
        """The side troupe A plays in game `index`: sides swap every other game, unless the scenario
        declares fixed roles (an asymmetric game such as the Pursuit: A keeps side 0)."""
        return 0 if self.scenario.fixed_roles else a_side(index)

    def policies(self, index: int, matchup: Matchup | None = None) -> list[str]:
        """The bot of each seat in game `index`: A's bot goes with A when the sides swap; a matchup
        with its own policy (`--compare-bots`) seats that bot on every side."""
        if matchup is not None and matchup.policy:
            seats = [matchup.policy, matchup.policy]
        else:
            pa, pb = self.policy_a or self.policy, self.policy_b or self.policy
            seats = [pa, pb] if self.a_side(index) == 0 else [pb, pa]
        if self.scenario.fixed_roles:  # a side the scenario drives itself keeps its own bot
            return [s.bot or p for s, p in zip(self.scenario.sides, seats, strict=False)]
        return seats

    def command(self, matchup: int, index: int) -> str:
        """The `skirmish play` command that replays game `index` of matchup `matchup` exactly.

        Shell-quoted (`shlex.join`): a troupe or scenario given as a path with spaces must paste
        back as one argument; plain names and flags come out unquoted, as before."""
        m = self.matchups[matchup]
        first, second = (m.a_arg, m.b_arg) if self.a_side(index) == 0 else (m.b_arg, m.a_arg)
        parts = [
            "skirmish",
            "play",
            self.scenario_arg,
            "--troupe",
            first,
            "--troupe",
            second,
            "--seed",
            str(self.game_seed(index)),
            "--headless",
            "--bots",
            ",".join(dict.fromkeys(self.policies(index, m))),
        ]
        if self.turns is not None:
            parts += ["--turns", str(self.turns)]
        for opt in self.option_args:
            parts += ["--option", opt]
        return shlex.join(parts)


def a_side(index: int) -> int:
    """The side troupe A plays in game `index`: sides swap every other game."""
    return index % 2


@dataclass(slots=True)
class ModelLine:
    """One model's figures in one game."""

    key: str
    damage_dealt: int = 0
    damage_taken: int = 0
    kos: int = 0
    survived: bool = True
    ap_spent: int = 0
    abilities: int = 0


@dataclass(slots=True)
class GameRecord:
    """What a game leaves behind: small enough to stream thousands of them between processes."""

    matchup: int
    index: int
    seed: int
    a_side: int
    outcome: int
    turns: int
    reason: str
    bp_a: tuple[int, ...]
    bp_b: tuple[int, ...]
    kos_a: int
    kos_b: int
    models_a: list[ModelLine] = field(default_factory=list)
    models_b: list[ModelLine] = field(default_factory=list)
    replay: str | None = None
    """The game's replay JSON when the plan asks for replays (`replay_dir`); written by the client."""

    def replay_name(self) -> str:
        """The file name of this game's replay in the `--save-replays` folder."""
        return f"game_m{self.matchup}_{self.index:06d}.json"


def model_key(m: ModelState) -> str:
    """A model's id without its seat prefix (`p1.sokka` -> `sokka`), the same on either side."""
    return m.id.split(".", 1)[1]


class _Counters:
    """Per-model damage and KOs, fed by the scenario rules' `on_wound` hook."""

    def __init__(self, game: Game) -> None:
        n = len(game.state.models)
        self.dealt = [0] * n
        self.taken = [0] * n
        self.kos = [0] * n
        self.ap = [0] * n
        self.abilities = [0] * n
        original = game.rules.on_wound

        def on_wound(target: ModelState, hp_lost: int, by: ModelState | None) -> None:
            self.taken[target.index] += hp_lost
            if by is not None:
                self.dealt[by.index] += hp_lost
                if target.ko:
                    self.kos[by.index] += 1
            original(target, hp_lost, by)

        game.rules.on_wound = on_wound  # type: ignore[method-assign]

    def count_action(self, game: Game, action: object) -> None:
        """AP and abilities an action is about to spend (costs are paid in full once declared)."""
        if isinstance(action, Shoot):
            m = game.state.model(action.model)
            if m is None:
                return
            from skirmish.engine.queries import shot_options

            spec = next((sp for sp in shot_options(game, m) if sp.name == action.weapon), None)
            if spec is not None:
                self.ap[m.index] += spec.ap_cost
                self.abilities[m.index] += int(spec.ability)
        elif isinstance(action, UseAbility | React):
            m = game.state.model(action.model)
            if m is None:
                return
            ab = game.armoury(m).ability_by_name().get(action.ability)
            self.ap[m.index] += ab.ap_cost if ab is not None else 0
            self.abilities[m.index] += 1
        elif isinstance(action, TakeCover):
            m = game.state.model(action.model)
            if m is not None:
                self.ap[m.index] += m.ap


def play_game(plan: Plan, matchup: int, index: int) -> GameRecord:
    """Play game `index` of `matchup` to its end with bots in every seat."""
    m = plan.matchups[matchup]
    side_a = plan.a_side(index)
    troupes = [m.a, m.b] if side_a == 0 else [m.b, m.a]
    seed = plan.game_seed(index)
    policies = plan.policies(index, m)
    game = Game(
        plan.scenario,
        troupes,
        seed=seed,
        options=plan.options,
        bots=policies,
        record_log=plan.replay_dir is not None,
        transactional=False,
    )
    counters = _Counters(game)
    bots = seat_bots(game, policies)
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        p = game.state.active_player
        bot = bots[p]
        if bot is None:  # pragma: no cover - every seat is given a bot above
            raise BotStuck(f"player {p} has no bot")
        action = bot.choose(game)
        counters.count_action(game, action)
        game.apply(action)
    else:
        raise BotStuck(f"game {index} (seed {seed}) did not end within {MAX_ACTIONS} actions")
    replay = None
    if plan.replay_dir is not None:
        # Sent back with the record and written by the client: on a cluster the workers' disks
        # are not the user's.
        from skirmish.engine.replay import dumps

        replay = dumps(game)
    s = game.state
    side_b = 1 - side_a
    outcome = DRAW
    if s.winning_team is not None:
        outcome = WIN_A if s.players[side_a].team == s.winning_team else WIN_B
    ko_by = s.extra.get("ko_by", {})
    kos = [sum(1 for x in s.models if x.player != p and x.ko and ko_by.get(x.id) == p) for p in (0, 1)]
    lines: list[list[ModelLine]] = [[], []]
    for x in s.models:
        i = x.index
        lines[x.player].append(
            ModelLine(
                model_key(x),
                counters.dealt[i],
                counters.taken[i],
                counters.kos[i],
                not x.ko and not x.removed,
                counters.ap[i],
                counters.abilities[i],
            )
        )
    record = GameRecord(
        matchup=matchup,
        index=index,
        seed=seed,
        a_side=side_a,
        outcome=outcome,
        turns=s.turn,
        reason=s.result_reason,
        bp_a=tuple(s.players[side_a].battle_points),
        bp_b=tuple(s.players[side_b].battle_points),
        kos_a=kos[side_a],
        kos_b=kos[side_b],
        models_a=lines[side_a],
        models_b=lines[side_b],
        replay=replay,
    )
    game.discard()  # freed by reference counting as this returns, not by the collector
    return record


def play_batch(plan: Plan, start: int, stop: int) -> list[GameRecord]:
    """Games `start..stop-1` of every matchup, in (index, matchup) order: one unit of work for a worker."""
    with fewer_collections():
        return [play_game(plan, k, i) for i in range(start, stop) for k in range(len(plan.matchups))]


def batches(games: int, size: int) -> list[tuple[int, int]]:
    """Split `games` indices into consecutive ranges of `size` (the last may be shorter)."""
    return [(s, min(s + size, games)) for s in range(0, games, size)]


def default_batch_size(games: int) -> int:
    """Games per task, from N alone (never the worker count, so early stopping stays deterministic).

    Large enough to amortise the pickling and scheduling of a task (tens of milliseconds or more
    even once a game takes only a few milliseconds), small enough to give every worker work and to
    check the stopping rule often.
    """
    return max(1, min(25, games // 64))


def side_titles(plan: Plan, matchup: int) -> Sequence[str]:
    m = plan.matchups[matchup]
    return m.a.title, m.b.title
