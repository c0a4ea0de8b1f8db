"""The target check of an ability use (`Effect.is_target`, R-P4, R-C1, R-C6): for every model,
every ability it has that needs a target and every model of the game, with the range measured and
not, the answer is membership of the effect's `targets`, through bot games of four scenarios with
`premeasure` and `shoot_into_melee` on and off."""

from __future__ import annotations

import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.state import abilities_of
from skirmish.engine.effects.abilities.registry import EFFECTS
from skirmish.engine.game import Game


def _check(game: Game) -> int:
    asked = 0
    for m in game.state.models:
        for a in abilities_of(m, game.armoury(m)):
            effect = EFFECTS.get(a.effect)
            if effect is None or not effect.needs_target:
                continue
            for measured in (True, False):
                listed = effect.targets(game, m, a, measured=measured)
                for t in game.state.models:
                    assert effect.is_target(game, m, a, t, measured=measured) == (t in listed)
                    asked += 1
    return asked


@pytest.mark.parametrize(
    "scenario", ["open_battle", "four_kingdoms_melee", "siege_of_ba_sing_se", "the_pursuit"]
)
@pytest.mark.parametrize("premeasure, into_melee", [(False, False), (True, True)])
def test_r_p4_is_target_is_membership_of_targets(scenario: str, premeasure: bool, into_melee: bool) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    options = sc.options.model_copy(update={"premeasure": premeasure, "shoot_into_melee": into_melee})
    pols = ["random"] * len(sc.sides)
    game = Game(sc, troupes, seed=9, options=options, bots=pols, record_log=False)
    bots = seat_bots(game, pols)
    asked = steps = 0
    while not game.over and steps < 200:
        if steps % 4 == 0:
            asked += _check(game)
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
        steps += 1
    assert asked > 0
