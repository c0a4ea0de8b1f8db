"""Conformance: bot playouts on every shipped scenario obey the game's invariants after every action,
and the same seed plays the same game twice (identical actions, logs and state hashes).

Invariants checked after each action: no two active bases overlap (contact is allowed); every
active model stands wholly on the table and no walking model stands on impassable terrain; HP is
within 0..max; AP is never negative; a KO'd model acts no more (except the simultaneous fire of
R-C2 in the step it fell); turns and steps only move forward (R-T1, R-E4); the game ends within
the scenario's turn limit (R-T4). Games are kept short (2-3 turns) so the suite stays fast.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_engine import SCENARIOS, check_invariants, position, scenario, troupe

from skirmish.bots.runner import seat_bots
from skirmish.engine.core.actions import Shoot
from skirmish.engine.game import Game

SHIPPED = sorted(p.stem for p in Path(SCENARIOS).glob("*.toml"))


def play_checked(game: Game, policies: list[str]) -> list[str]:
    """Play to the end, checking every invariant after each action; the list of state hashes."""
    bots = seat_bots(game, policies)
    hashes = [game.hash()]
    check_invariants(game, "start")
    for n in range(20_000):
        if game.over:
            break
        before = position(game)
        action = bots[game.state.active_player].choose(game)
        actor = game.state.model(action.actor) if action.actor else None
        if actor is not None and actor.ko:
            assert isinstance(action, Shoot) and not actor.removed and game.state.step == "shooting", (
                f"KO'd {actor.id} acts: {action!r}"
            )
        assert actor is None or not actor.removed, f"removed {actor.id} acts: {action!r}"
        game.apply(action)
        after = position(game)
        assert after >= before, f"action {n} {action!r} went back from {before} to {after}"
        check_invariants(game, f"after action {n} {action!r}")
        hashes.append(game.hash())
    assert game.over, "the game did not end"
    return hashes


def _game(name: str, seed: int, turns: int) -> Game:
    sc = scenario(name)
    sc = sc.model_copy(update={"turns": min(turns, sc.turns)})
    return Game(sc, [troupe(s.troupe) for s in sc.sides], seed=seed)


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("name", SHIPPED)
def test_r_t1_conformance_playout_keeps_invariants_and_repeats_exactly(name: str, policy: str) -> None:
    seed = 17 + len(name)
    runs = []
    for _ in range(2):
        game = _game(name, seed, turns=3)
        hashes = play_checked(game, [policy] * len(game.scenario.sides))
        runs.append(
            (hashes, [a.to_json() for a in game.history], [e.to_json() for e in game.log], game.result())
        )
    assert runs[0] == runs[1], "the same seed played a different game"


def test_r_t4_conformance_mixed_bots_with_every_rule_option() -> None:
    sc = scenario("open_battle", turns=3)
    opts = sc.options.with_overrides(
        {"priority_roll": True, "shoot_into_melee": True, "models_block_sight": True}
    )
    game = Game(sc, [troupe("team_avatar"), troupe("zuko_hunting_party")], seed=99, options=opts)
    play_checked(game, ["heuristic", "random"])
    assert game.over and game.state.turn <= 3


def test_r_c1_conformance_premeasure_random_bots_only_take_measured_actions() -> None:
    sc = scenario("open_battle", turns=3)
    game = Game(sc, [troupe("team_avatar"), troupe("zuko_hunting_party")], seed=8,
                options=sc.options.with_overrides({"premeasure": True}))  # fmt: skip
    play_checked(game, ["random", "random"])
    assert not any(e.kind in ("shot_wasted", "charge_failed") for e in game.log)


def test_r_c3_conformance_heuristic_bots_respect_premeasure() -> None:
    sc = scenario("open_battle", turns=4)
    game = Game(sc, [troupe("team_avatar"), troupe("zuko_hunting_party")], seed=3,
                options=sc.options.with_overrides({"premeasure": True, "priority_roll": True}))  # fmt: skip
    play_checked(game, ["heuristic", "random"])
