"""A troupe test's games are freed by reference counting, not by the cyclic collector (round 9):
`Game.discard` drops the one cycle a game forms (its scenario rules hold it back), and
`sim.games.play_game` discards each game once its record is made."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from helpers_engine import new_game

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.sim.games import Matchup, Plan, play_game

pytestmark = pytest.mark.usefixtures("own_tables")


@pytest.fixture
def no_collector() -> Iterator[None]:
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_r9_skip_play_game_frees_its_game_without_the_collector(
    no_collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sc = find_scenario("open_battle").model_copy(update={"turns": 2})
    a, b = find_troupe("team_avatar"), find_troupe("zuko_hunting_party")
    plan = Plan(sc, (Matchup(a, b, "team_avatar", "zuko_hunting_party"),), sc.options, seed=3, turns=2)
    seen: list[weakref.ref[Game]] = []
    real = Game.discard

    def watched(self: Game) -> None:
        seen.append(weakref.ref(self))
        real(self)

    monkeypatch.setattr(Game, "discard", watched)
    record = play_game(plan, 0, 0)
    assert record.turns >= 1
    assert len(seen) == 1
    assert seen[0]() is None, "the game outlived play_game: a reference cycle keeps it for the collector"


def test_r9_skip_a_played_game_is_a_cycle_until_discarded(no_collector: None) -> None:
    """Without `discard` the game is garbage only the collector finds; with it, reference counting
    frees it at once. Its state stays readable after `discard`; its rules no longer see it."""
    sc = find_scenario("open_battle").model_copy(update={"turns": 1})
    troupes = [find_troupe(s.troupe) for s in sc.sides]

    def played() -> Game:
        g = Game(sc, troupes, seed=5, bots=["random", "random"], record_log=False, transactional=False)
        return play_out(g, seat_bots(g, ["random", "random"]))

    kept = played()
    ref = weakref.ref(kept)
    del kept
    assert ref() is not None  # a cycle: only the collector would free it
    gc.collect()
    assert ref() is None

    g = played()
    turn, over = g.state.turn, g.over
    g.discard()
    assert (g.state.turn, g.over) == (turn, over)
    with pytest.raises(AttributeError):
        _ = g.rules.game
    g.discard()  # a second call does nothing
    ref = weakref.ref(g)
    del g
    assert ref() is None


def test_r9_skip_discard_leaves_a_fresh_game_alone() -> None:
    """Discarding one game does not touch another on the same scenario (the rules are per game)."""
    one, two = new_game("open_battle", seed=1), new_game("open_battle", seed=2)
    one.discard()
    rules: Any = two.rules
    assert rules.game is two
