"""Round-5 listing shortcuts of the slow scenarios give the answers of the code they replace.

- `shots.attack_floor` is never above the Shooting score before the die of any target (R-C1), so
  a weapon whose floor is above 0 lists every visible target without scoring it (no Impossible
  Shot can be among them).
- `charges.candidates` asks sight for every (charger, enemy) pair in one batch; the list equals
  the one built charger by charger from `charge_targets` (R-C3, R-B3).
- The heuristic bot's zone mask answers a zone holder's "already inside" test.

Checked at every position of golden replays (four players, premeasuring) and of real random
four_kingdoms_melee and siege games, with both branches of the floor met.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import shapely

from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.actions import Action, Charge
from skirmish.engine.effects.shots import attack_floor, shot_scores, shot_specs
from skirmish.engine.game import Game
from skirmish.engine.replay import load_replay
from skirmish.engine.steps import charges
from skirmish.engine.steps.charges import can_charge, charge_targets, measure

GOLDEN = Path(__file__).parent / "golden"
REPLAYS = ("four_kingdoms_melee_heuristic_s5_t3", "open_battle_random_premeasure_s4_t3")


def _charges_reference(game: Game, player: int) -> list[Action]:
    """The charge candidates as they were listed: one sight batch per charger."""
    out: list[Action] = []
    for m in game.player_models(player):
        if not can_charge(game, m):
            continue
        for t in charge_targets(game, m):
            if game.options.premeasure:
                found = measure(game, m, t)
                if found is None or found[1] > m.profile.charge:
                    continue
            out.append(Charge(m.id, t.id))
    return out


def _check(game: Game, seen: set[bool]) -> None:
    models = game.state.models
    for m in models:
        for spec in shot_specs(game, m):
            floor = attack_floor(game, m, spec)
            seen.add(floor > 0)
            for t in models:
                if t is not m:
                    assert shot_scores(game, m, t, spec)[0].base_total >= floor
    for p in range(len(game.state.players)):
        assert charges.candidates(game, p) == _charges_reference(game, p)


def _replay_positions(name: str) -> Iterator[Game]:
    replay = load_replay(GOLDEN / f"{name}.json")
    game = replay.new_game(record_log=False, transactional=True)
    for action in replay.actions:
        yield game
        game.apply(action)
        if game.over:
            break
    yield game
    assert game.hash() == replay.final_hash


def _random_positions(scenario: str, seed: int, limit: int) -> Iterator[Game]:
    sc = find_scenario(scenario)
    troupes = [find_troupe(s.troupe) for s in sc.sides]
    policies = ["random"] * len(sc.sides)
    game = Game(sc, troupes, seed=seed, bots=policies, record_log=False, transactional=False)
    bots = seat_bots(game, policies)
    for _ in range(limit):
        if game.over:
            break
        yield game
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))


@pytest.mark.parametrize("name", REPLAYS)
def test_r_c1_r_c3_listing_shortcuts_match_the_reference_in_golden_replays(name: str) -> None:
    seen: set[bool] = set()
    for game in _replay_positions(name):
        _check(game, seen)
    assert seen == {True, False}


@pytest.mark.parametrize(("scenario", "seed"), [("four_kingdoms_melee", 3), ("siege_of_ba_sing_se", 4)])
def test_r_c1_r_c3_listing_shortcuts_match_the_reference_in_random_games(scenario: str, seed: int) -> None:
    seen: set[bool] = set()
    for game in _random_positions(scenario, seed, 160):
        if game.state.step in ("shooting", "charges"):
            _check(game, seen)
    assert True in seen


def test_zone_mask_answers_the_holders_inside_test_in_golden_replays() -> None:
    """The heuristic bot's zone mask (kept per arrangement) says what the point test of each zone
    worth points says, for every model at every position of a four-player replay."""
    bot = HeuristicBot(5, 0)
    for game in _replay_positions(REPLAYS[0]):
        zones = bot._zones(game)
        assert zones and all(z.points > 0 for z in zones)
        for m in game.state.models:
            want = any(shapely.contains_xy(z.poly, *game.state.xy[m.index]) for z in zones if z.points > 0)
            assert bot._in_zone(game, m) == want
