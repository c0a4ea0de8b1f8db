"""Refusals and undo restore the state in place: objects a caller holds stay the game's (principles 3, 8)."""

from __future__ import annotations

import pytest

from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.actions import EndStep, Move
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.game import Game


def _game() -> Game:
    scenario = find_scenario("open_battle")
    game = Game(scenario, [find_troupe(s.troupe) for s in scenario.sides], seed=4)
    game.apply(EndStep())
    game.apply(EndStep())
    assert game.state.step == "movement"
    return game


def test_r_m2_refused_move_keeps_held_model_objects_live() -> None:
    game = _game()
    m = game.state.models[0]
    before = game.hash()
    x, y = game.state.xy[m.index]
    with pytest.raises(IllegalAction) as err:
        game.apply(Move(m.id, ((float(x), float(y)), (float(x), float(y) + 40.0))))
    assert err.value.rule == "R-M2"
    assert game.hash() == before
    assert game.state.models[0] is m
    assert m.ap == game.state.model(m.id).ap


def test_r_m2_undo_restores_in_place_and_the_model_can_move_again() -> None:
    game = _game()
    move = next(a for a in game.legal_actions() if isinstance(a, Move))
    m = game.state.model(move.model)
    assert m is not None
    before = game.hash()
    game.apply(move)
    assert m.moved
    assert game.undo()
    assert game.hash() == before
    assert game.state.model(move.model) is m and not m.moved
    game.apply(move)
    assert m.moved
