"""The melee scores kept per set of facts (`steps.melee.melee_score`, R-C4): whatever a model's
flags, buffs, cover, foes and friends, the kept score is the one `melee_score_reference` works out
from the game (the same stat, the same named modifiers in the same order), through bot games of
four scenarios with the flags and buffs shaken at random; and the contact pairs read from the
distance lists are those of the distance array."""

from __future__ import annotations

import random

import pytest

from skirmish.battlefield.measure import CONTACT
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.engine.steps.melee import contact_pairs, melee_score, melee_score_reference

FLAGS = ("charged", "charged_from_cover", "charged_into_cover", "fired", "lost_hp_turn", "taking_cover")


def _pairs_from_array(game: Game) -> list[tuple[int, int]]:
    s = game.state
    dist = game.distances()
    act = [m for m in s.models if m.active and game.in_melee(m)]
    return [
        (a.index, b.index)
        for i, a in enumerate(act)
        for b in act[i + 1 :]
        if dist[a.index, b.index] <= CONTACT and game.enemies(a, b)
    ]


def _check(game: Game, rng: random.Random) -> None:
    s = game.state
    assert contact_pairs(game) == _pairs_from_array(game)
    saved = [(m, {f: getattr(m, f) for f in FLAGS}, dict(m.buffs)) for m in s.models]
    try:
        for _ in range(3):
            for m in s.models:
                for f in FLAGS:
                    if rng.random() < 0.3:
                        setattr(m, f, not getattr(m, f))
                if rng.random() < 0.3:
                    m.buffs["combat"] = rng.choice([0, 1, 2, -1])
            for m in s.models:
                foes = [t for t in s.models if game.enemies(m, t) and rng.random() < 0.5]
                friends = rng.choice([0, 0, 1, 2, 3])
                kept = melee_score(game, m, foes, friends)
                fresh = melee_score_reference(game, m, foes, friends)
                assert kept == fresh
                assert kept.explain() == fresh.explain()
    finally:
        for m, flags, buffs in saved:
            for f, v in flags.items():
                setattr(m, f, v)
            m.buffs.clear()
            m.buffs.update(buffs)


@pytest.mark.parametrize(
    "scenario", ["open_battle", "four_kingdoms_melee", "siege_of_ba_sing_se", "the_pursuit"]
)
def test_r_c4_the_kept_melee_score_is_the_reference(scenario: str) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    rng = random.Random(scenario)
    for pol in ("heuristic", "random"):
        pols = [pol] * len(sc.sides)
        game = Game(sc, troupes, seed=4, bots=pols, record_log=False)
        bots = seat_bots(game, pols)
        steps = 0
        while not game.over and steps < 250:
            if steps % 3 == 0 or game.state.step in ("charges", "advances"):
                _check(game, rng)
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
            steps += 1
