"""Kept answers equal fresh ones at every action of real games: the abilities each model uses in
the current step (R-P4), kept per model and step, and the escort's enemies and hints (R-T4)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.state import abilities_of
from skirmish.engine.effects.abilities.registry import EFFECTS
from skirmish.engine.effects.abilities.use import TIMING_STEP, _actions_now
from skirmish.engine.game import Game
from skirmish.engine.scenarios.escort import EscortRules


def _games(name: str, policy: str, seeds: tuple[int, ...]) -> Iterator[Game]:
    """Each game of `name` under `policy` bots, yielded before every action it plays."""
    sc = find_scenario(name)
    for seed in seeds:
        game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=seed, record_log=False)
        pols = (
            [side.bot or policy for side in sc.sides] if policy == "heuristic" else [policy] * len(sc.sides)
        )
        bots = seat_bots(game, pols)
        while not game.over:
            yield game
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))


@pytest.mark.parametrize("name", ["siege_of_ba_sing_se", "the_pursuit", "escort_the_avatar"])
def test_r_p4_each_steps_abilities_kept_per_model_are_the_fresh_ones(name: str) -> None:
    steps = set()
    for game in _games(name, "random", (1,)):
        steps.add(game.state.step)
        for m in game.state.models:
            fresh = [
                (a, EFFECTS[a.effect], f"used:{a.name}")
                for a in abilities_of(m, game.armoury(m))
                if a.effect in EFFECTS and TIMING_STEP.get(a.timing.value) == game.state.step
            ]
            assert _actions_now(game, m) == fresh
    assert {"movement", "shooting", "charges"} <= steps


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_r_t4_escorts_kept_enemies_and_hints_are_the_fresh_ones(policy: str) -> None:
    seen_both = False
    for game in _games("escort_the_avatar", policy, (1, 2)):
        rules = game.rules
        assert isinstance(rules, EscortRules)
        fresh = any(o.active and game.team(o) != rules.escort_team for o in game.state.models)
        assert rules._enemy_left() == fresh
        m = rules.escort
        for p in game.state.players:
            goals, targets = rules.hints(p.index)
            if not m.active:
                assert (goals, targets) == ({}, set())
                continue
            x, y = (float(v) for v in game.state.xy[m.index])
            if p.team == rules.escort_team:
                r = float(game.state.radii[m.index]) + 1e-6
                w, h = game.scenario.board.width, game.scenario.board.height
                exits = {"north": (x, h - r), "south": (x, r), "west": (r, y), "east": (w - r, y)}
                assert (goals, targets) == ({m.id: exits[rules.edge]}, set())
            else:
                hunters = [o for o in game.player_models(p.index) if o.active]
                assert (goals, targets) == ({o.id: (x, y) for o in hunters}, {m.id})
                seen_both = True
    assert seen_both
