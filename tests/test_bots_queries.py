"""The read-only queries added for the bots' speed give the same answers as the lists they shorten.

`queries.first_move_option` must be `move_options(game, m, [goal])[0]` exactly (the heuristic bot's
zone holders take that move, R-M2), `goal_moves` the list's first entries (the moves toward the
goals), `straight_goal_move` its first entry when that is a straight line, and `straight_move_ends`
where every other entry can end (the bot skips the list when none of them could beat a move toward
a goal), so golden replays cannot move. They are checked at every movement decision of real games,
for goals that are reached in a straight line, that need a path around terrain, that lie where the
model stands and that lie closer than the 0.25" a move must cover.
"""

from __future__ import annotations

import numpy as np
import pytest

from skirmish.bots import make_bot
from skirmish.bots.base import Bot
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine import queries
from skirmish.engine.core.actions import Shoot, UseAbility
from skirmish.engine.game import Game


def _start(scenario: str, seed: int) -> tuple[Game, list[Bot | None]]:
    sc = find_scenario(scenario)
    troupes = [find_troupe(s.troupe) for s in sc.sides if s.troupe is not None]
    pols: list[str | None] = ["heuristic"] * len(sc.sides)
    game = Game(sc, troupes, seed=seed, bots=pols, record_log=False)
    return game, seat_bots(game, pols)


def _goals(game: Game, m: queries.ModelState) -> list[np.ndarray]:
    here = game.state.xy[m.index]
    return [
        *queries.move_goals(game, m),
        here.copy(),  # no move at all: the straight lines come first
        here + np.array([0.1, 0.05]),  # too short to keep
        np.array([24.0, 24.0]),
        np.array([here[0], game.table.height - 1.0]),
        here + np.array([30.0, -7.0]),  # off the table
    ]


@pytest.mark.parametrize("scenario", ["open_battle", "hold_the_zones"])
def test_r_m2_first_move_option_is_the_first_of_move_options(scenario: str) -> None:
    game, bots = _start(scenario, 3)
    checked = lines = 0
    while not game.over and game.state.turn <= 3:
        if game.state.step == "movement" and game.state.pending is None:
            for m in game.player_models(game.state.active_player):
                if not m.active or not queries.can_move(game, m):
                    continue
                ends = [tuple(map(float, e)) for e in queries.straight_move_ends(game, m)]
                for goal in _goals(game, m):
                    full = queries.move_options(game, m, [goal])
                    assert queries.first_move_option(game, m, goal) == (full[0] if full else None)
                    heading = queries.goal_moves(game, m, [goal])
                    assert heading == full[: len(heading)]
                    line = queries.straight_goal_move(game, m, goal)
                    assert line is None or (heading == [line] and len(line.path) == 2)
                    lines += line is not None
                    straight = full[len(heading) :]
                    # every other entry is a straight line ending at one of the listed ends, in order
                    at = [ends.index(c.path[-1]) for c in straight]
                    assert all(len(c.path) == 2 for c in straight) and at == sorted(at)
                    checked += 1
                goals = [*queries.move_goals(game, m), *_goals(game, m)]  # the default goals twice
                full = queries.move_options(game, m, goals)
                heading = queries.goal_moves(game, m, goals)
                assert heading == full[: len(heading)]
                assert all(len(c.path) == 2 and c.path[-1] in ends for c in full[len(heading) :])
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    assert checked > 50 and lines > 10


@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee"])
def test_r_m2_move_option_paths_are_the_paths_of_move_options_and_skip_their_check(scenario: str) -> None:
    """`move_option_paths` is `move_options`' paths in its order, the very tuples (so the Move a bot
    makes of one is the listed entry: equal, and applied without its path checked again), for the
    default goals and given ones."""
    from skirmish.engine.core.actions import Move
    from skirmish.engine.effects.moving import move_budget
    from skirmish.engine.steps.movement import listed_here

    game, bots = _start(scenario, 5)
    checked = 0
    while not game.over and game.state.turn <= 3:
        if game.state.step == "movement" and game.state.pending is None:
            for m in game.player_models(game.state.active_player):
                if not m.active or not queries.can_move(game, m):
                    continue
                for goals in (None, _goals(game, m)):
                    paths = queries.move_option_paths(game, m, goals)
                    moves = queries.move_options(game, m, goals)
                    assert [Move(m.id, p) for p in paths] == moves
                    assert all(a is b.path for a, b in zip(paths, moves, strict=True))
                    budget = move_budget(game, m)
                    assert all(listed_here(game, m, p, budget) for p in paths)
                    checked += 1
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    assert checked > 20


def _effect(game: Game, ua: UseAbility) -> str:
    m = game.model(ua.model)
    return next(a.effect for a in queries.abilities_of(m, game.armoury(m)) if a.name == ua.ability)


@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee", "day_of_black_sun"])
def test_r_p4_ability_actions_of_is_ability_actions_cut_to_the_effects(scenario: str) -> None:
    game, bots = _start(scenario, 7)
    wanted = [frozenset({e}) for e in ("buff", "heal", "push", "wall", "chi_block", "glide")]
    wanted += [frozenset({"heal", "push"}), frozenset({"buff", "chi_block"})]
    seen: set[str] = set()
    while not game.over and game.state.turn <= 3:
        if game.state.pending is None:
            player = game.state.active_player
            full = queries.ability_actions(game, player)
            seen.update(_effect(game, ua) for ua in full)
            for effects in wanted:
                expected = [ua for ua in full if _effect(game, ua) in effects]
                assert queries.ability_actions_of(game, player, effects) == expected
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    assert seen, "no ability was usable: the check compared empty lists only"


@pytest.mark.parametrize(
    ("scenario", "policy"),
    [
        ("open_battle", "heuristic"),
        ("the_pursuit", "heuristic"),
        ("hold_the_zones", "guess"),
        ("four_kingdoms_melee", "heuristic"),
    ],
)
def test_r_t4_the_bots_memos_never_change_a_choice(scenario: str, policy: str) -> None:
    """The heuristic bot keeps answers between and within decisions (the moves it chose not to
    make, zone duties, toughness by model and HP, the zones, a per-decision table, the Pursuit
    heroes' roles): a bot made afresh for every decision, with nothing remembered, chooses the
    same action every time."""
    sc = find_scenario(scenario)
    troupes = [find_troupe(s.troupe) for s in sc.sides if s.troupe is not None]
    pols: list[str | None] = [policy] * len(sc.sides)
    game = Game(sc, troupes, seed=4, bots=pols, record_log=False)
    bots = seat_bots(game, pols)
    decisions = 0
    while not game.over and game.state.turn <= 3:
        player = game.state.active_player
        bot = bots[player]
        assert bot is not None
        action = bot.choose(game)
        assert make_bot(policy, game.seed, player, game).choose(game) == action
        game.apply(action)
        decisions += 1
    assert decisions > 20


def _in_range(game: Game, m: queries.ModelState, t: queries.ModelState, spec: queries.ShotSpec) -> bool:
    return game.distance(m, t) <= spec.range


def _every_other(game: Game, m: queries.ModelState, t: queries.ModelState, spec: queries.ShotSpec) -> bool:
    return (m.index + t.index + len(spec.name)) % 2 == 0


@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee", "hold_the_zones", "the_pursuit"])
def test_r_c1_shot_matchups_within_are_the_matchups_of_shot_actions_cut_to_the_filter(scenario: str) -> None:
    """`shot_matchups_within` asks its filter before sight and scores and scores a kept shot once;
    what it gives is exactly the `matchup` of each of `shot_actions` that the filter keeps (with the
    shooter's first weapon of the shot's name, R-C1), at every decision of real games and for
    filters that keep all, none, the shots in range and a scatter."""
    game, bots = _start(scenario, 5)
    kept = 0
    while not game.over and game.state.turn <= 4:
        if game.state.pending is None and game.state.step == "shooting":
            player = game.state.active_player
            full = queries.shot_actions(game, player)
            for within in (_in_range, _every_other, lambda *_: True, lambda *_: False):
                shots, expected = [], []
                for a in full:
                    assert isinstance(a, Shoot)
                    m, t = game.model(a.model), game.model(a.target)
                    spec = next(sp for sp in queries.shot_options(game, m) if sp.name == a.weapon)
                    if within(game, m, t, spec):
                        shots.append(a)
                        expected.append(queries.matchup(game, m, t, weapon=a.weapon))
                got = queries.shot_matchups_within(game, player, lambda m, t, sp, w=within: w(game, m, t, sp))
                assert got == expected
                assert [Shoot(x.shooter, x.target, x.weapon) for x in got] == shots
                kept += len(got)
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    assert kept > 20


@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee", "hold_the_zones"])
def test_r_c3_charge_targets_within_is_charge_targets_cut_to_the_filter(scenario: str) -> None:
    """`charge_targets_within` asks its filter before sight; what it keeps is exactly
    `charge_targets` filtered (R-C3), for every model at every decision of real games."""
    game, bots = _start(scenario, 6)
    kept = 0
    while not game.over and game.state.turn <= 4:
        for m in game.state.models:
            full = queries.charge_targets(game, m)
            for reach in (0.0, 4.0, m.profile.charge, 1e9):
                got = queries.charge_targets_within(game, m, lambda t, r=reach, m=m: game.distance(m, t) <= r)
                assert got == [t for t in full if game.distance(m, t) <= reach]
                kept += len(got)
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    assert kept > 50
