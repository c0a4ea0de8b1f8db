"""Issue 16 item 1 in the window: the ruler reads the engine's `ruler.reading` (your own model's
path, not model to model) and the learners' odds are not offered for a target out of sight (R-C1)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from helpers_engine import advance_to, keep_only, m, new_game, place

from skirmish.ui.app import App
from skirmish.ui.battle import BattleScene


@pytest.fixture
def app():
    a = App((1600, 1000))
    yield a
    pygame.display.quit()


def test_r_c1_ui_no_odds_for_a_target_out_of_sight(app) -> None:
    g = new_game()
    keep_only(g, ["p0.aang", "p1.zuko"])
    place(g, {"p0.aang": (23.5, 9.0), "p1.zuko": (23.5, 18.0)})  # the standing stone between them
    advance_to(g, "shooting", 0)
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame()
    scene.selected, scene.mode, scene.hovered = "p0.aang", "shoot", "p1.zuko"
    assert not g.sees(m(g, "p0.aang"), m(g, "p1.zuko"))
    lines = scene.odds_lines()
    assert lines == ["Prince Zuko is out of Aang's sight: no odds"]
    place(g, {"p1.zuko": (28.0, 12.0)})
    assert any("hit" in line for line in scene.odds_lines())


def test_r_c1_ui_ruler_in_the_move_phase_reads_the_own_path_not_aang_to_zuko(app) -> None:
    g = new_game()
    advance_to(g, "movement", 0)
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame()
    aang, zuko = m(g, "p0.aang"), m(g, "p1.zuko")
    a, z = tuple(map(float, g.state.xy[aang.index])), tuple(map(float, g.state.xy[zuko.index]))
    scene.selected, scene.mode, scene.ruler = "p0.aang", "ruler", (a, z)
    shown: list[str] = []
    real = scene.text.render

    def spy(text: str, *args, **kwargs):
        shown.append(text)
        return real(text, *args, **kwargs)

    scene.text.render = spy  # type: ignore[method-assign]
    app.frame()
    ruler_text = [t for t in shown if "beyond" in t or '"' in t and "Aang" in t]
    assert ruler_text and not any(f"{g.distance(aang, zuko):.1f}" in t for t in shown)
    assert any("beyond Aang's" in t for t in shown)
