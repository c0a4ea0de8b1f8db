"""Round 8's cheaper answers of the heuristic bot are the answers they replace, bit for bit, at
every decision of real games (open_battle, four_kingdoms_melee, the_pursuit, hold_the_zones):

- `_usable_abilities` (no engine question for a player none of whose models has an ability of
  those effects) is `ability_actions_of` (R-P4);
- the movement's ability choice from `_move_abilities` (only the useful abilities' effects,
  shared within the decision by effects) is `_move_ability` over the full `ability_actions` list;
- `_score_positions` reading the cover bonus from the table's per-point facts (`_cover_bonus`) is
  the version that read `cover_of`'s rank array (R-B2), bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from skirmish.bots.heuristic import (
    _CHARGE_EFFECTS,
    _FIGHTER_COVER,
    _HEAL,
    _SHOOTER_COVER,
    _SHOT_EFFECTS,
    HeuristicBot,
)
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine import queries
from skirmish.engine.core.actions import UseAbility
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game

GAMES = [("open_battle", 3), ("four_kingdoms_melee", 2), ("the_pursuit", 4), ("hold_the_zones", 5)]


def _games(name: str, seed: int) -> tuple[Game, list[HeuristicBot | None]]:
    sc = find_scenario(name)
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=seed, record_log=False)
    policies = [side.bot or "heuristic" for side in sc.sides]
    return game, seat_bots(game, policies)  # type: ignore[return-value]


def _decisions(name: str, seed: int):  # type: ignore[no-untyped-def]
    """Every decision of a game played by its heuristic bots: (game, the bot to act), then its move."""
    game, bots = _games(name, seed)
    while not game.over:
        bot = bots[game.state.active_player]
        assert bot is not None
        yield game, bot
        game.apply(bot.choose(game))


def _score_reference(bot: HeuristicBot, game: Game, m: ModelState, ends: np.ndarray) -> np.ndarray:
    """`_score_positions` as round 7 left it: the cover rank from `cover_of`'s array."""
    s = game.state
    rank, _ = game.table.cover_of(ends)
    if m.profile.flying:
        rank = np.zeros(len(ends), dtype=np.intp)
    foes = bot._foes(game, m)
    rows = [f.index for f in foes]
    fxy, fr = s.xy[rows], s.radii[rows]
    d = (
        np.hypot(ends[:, None, 0] - fxy[None, :, 0], ends[:, None, 1] - fxy[None, :, 1])
        - fr[None, :]
        - s.radii[m.index]
    )
    nearest = d.min(axis=1)
    if bot._is_shooter(game, m):
        want = max(2.0, bot._best_range(game, m) - 2.0)
        value = -np.abs(nearest - want) * 0.4 + _SHOOTER_COVER[rank]
        value -= nearest < 3.0
    else:
        reach = m.profile.charge
        value = -np.maximum(nearest - (reach - 1.0), 0.0) * 0.6 + _FIGHTER_COVER[rank]
    return value


@pytest.mark.parametrize(("name", "seed"), GAMES)
def test_r_p4_usable_abilities_are_the_engines(name: str, seed: int) -> None:
    skipped = asked = 0
    for game, bot in _decisions(name, seed):
        if game.state.pending is not None or game.state.step not in ("shooting", "charges"):
            continue
        player = game.state.active_player
        for effects in (_SHOT_EFFECTS, _HEAL, _CHARGE_EFFECTS):
            want = queries.ability_actions_of(game, player, effects)
            assert bot._usable_abilities(game, effects) == want
            if effects.isdisjoint(bot._effects_of(game, player)):
                skipped += 1
                assert want == []
            else:
                asked += 1
    assert skipped > 0 and asked > 0


def _move_ability_reference(game: Game, m: ModelState, useful: set[str]) -> UseAbility | None:
    a = HeuristicBot._move_ability(m, queries.ability_actions(game, game.state.active_player), useful)
    assert a is None or isinstance(a, UseAbility)
    return a


@pytest.mark.parametrize(("name", "seed"), GAMES)
def test_r_p4_move_ability_from_the_useful_effects_is_the_full_lists(name: str, seed: int) -> None:
    found = 0
    for game, bot in _decisions(name, seed):
        if game.state.pending is not None or game.state.step != "movement":
            continue
        asked: dict[frozenset[str], list[UseAbility]] = {}  # shared within the decision, as `_movement` does
        for m in bot._mine(game):
            if not queries.can_move(game, m):
                continue
            every = {a.name for a in queries.abilities_of(m, game.armoury(m))}
            for useful in (bot._useful_move_abilities(game, m), every):
                if not useful:
                    continue
                got = bot._move_ability(m, bot._move_abilities(game, m, useful, asked), useful)
                want = _move_ability_reference(game, m, useful)
                assert got == want
                found += want is not None
    assert found > 0


@pytest.mark.parametrize(("name", "seed"), GAMES)
def test_r_b2_position_scores_from_the_point_facts_are_cover_ofs(name: str, seed: int) -> None:
    checked = 0
    for game, bot in _decisions(name, seed):
        if game.state.pending is not None or game.state.step != "movement":
            continue
        for m in bot._mine(game):
            if not queries.can_move(game, m) or not bot._foes(game, m):
                continue
            flat = [v for c in queries.move_options(game, m) for v in c.path[-1]]
            ends = np.array([*flat, *game.state.xy[m.index].tolist()], dtype=float).reshape(-1, 2)
            got = bot._score_positions(game, m, ends, [])
            want = _score_reference(bot, game, m, ends)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
            checked += 1
    assert checked > 10
