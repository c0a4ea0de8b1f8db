"""The step machinery's shortcuts give exactly the answers of the code they stand for (round 3,
step machinery): whether an ability has a use now (`Effect.has_use`, R-P4) is
`bool(candidates(...))`, an aimed ability stopping at its first target (R-C1, R-C6, R-B3), and
whether a player has an ability to use (`use.has_options`, asked by the phase machine after every
action) is `bool(use.candidates(...))`.

Checked at every position of the golden replays (Earth Walls, premeasuring, four players, zones)
and of random games with `shoot_into_melee` on and off, for every model and every ability it has
(whatever the step), asked both before and after the full list warms the sight pairs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.state import abilities_of
from skirmish.engine.effects.abilities import use
from skirmish.engine.effects.abilities.registry import EFFECTS
from skirmish.engine.game import Game
from skirmish.engine.replay import load_replay

GOLDEN = Path(__file__).parent / "golden"
REPLAYS = sorted(p.stem for p in GOLDEN.glob("*.json"))


def _check(game: Game, where: str, first: bool) -> int:
    """Compare the shortcuts with the lists at this position; `first`: ask the shortcut before the
    list (a cold pair store) or after it. Returns how many ability answers were compared."""
    asked = 0
    for m in game.state.models:
        for a in abilities_of(m, game.armoury(m)):
            effect = EFFECTS.get(a.effect)
            if effect is None:
                continue
            if first:
                fast = effect.has_use(game, m, a)
                want = bool(effect.candidates(game, m, a))
            else:
                want = bool(effect.candidates(game, m, a))
                fast = effect.has_use(game, m, a)
            assert fast == want, f"{where}: {m.id} {a.name}"
            asked += 1
    for p in range(len(game.state.players)):
        assert use.has_options(game, p) == bool(use.candidates(game, p)), f"{where}: player {p}"
    return asked


@pytest.mark.parametrize("name", REPLAYS)
def test_r_p4_has_use_is_bool_of_candidates_on_golden_replays(name: str) -> None:
    replay = load_replay(GOLDEN / f"{name}.json")
    game = replay.new_game(record_log=False, transactional=True)
    asked = 0
    for i, action in enumerate(replay.actions):
        asked += _check(game, f"{name} before action {i}", first=i % 2 == 0)
        game.apply(action)
        if game.over:
            break
    asked += _check(game, f"{name} at the end", first=True)
    assert game.hash() == replay.final_hash
    assert asked > 0


@pytest.mark.parametrize("into_melee", [False, True])
@pytest.mark.parametrize("premeasure", [False, True])
def test_r_c1_r_c6_aimed_has_use_in_random_games(into_melee: bool, premeasure: bool) -> None:
    sc = find_scenario("open_battle")
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    options = sc.options.model_copy(update={"shoot_into_melee": into_melee, "premeasure": premeasure})
    pols = ["random"] * len(sc.sides)
    for seed in (1, 2):
        game = Game(sc, troupes, seed=seed, options=options, bots=pols, record_log=False)
        bots = seat_bots(game, pols)
        steps = 0
        while not game.over and steps < 150:
            _check(game, f"seed {seed} action {steps}", first=steps % 2 == 1)
            game.apply(bots[game.state.active_player].choose(game))
            steps += 1
