"""The table in the busy moments (issue 16, items 8-14), driven by scripted pygame events under SDL's
dummy driver: the end-step guard and the skipped-step announcements, the hotseat hand-over and the
turn summary, what things do on the card, the menu and the Shoot button, one melee line per pair,
floating results that never collide, the charge odds counting friends, the menus in words, and the
what-if in the replay viewer. Time is the frame's `dt`, so every guard is driven exactly."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import sys
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_engine import end_steps, keep_only, new_game, place  # noqa: E402
from test_ui_scenes import key, post_and_frame  # noqa: E402

from skirmish.engine.actions import EndStep  # noqa: E402
from skirmish.ui.app import App  # noqa: E402
from skirmish.ui.battle import BattleScene  # noqa: E402
from skirmish.ui.handover import END_STEP_GUARD_SECONDS  # noqa: E402

SHOTS = Path(os.environ.get("SKIRMISH_SHOTS", "")) if os.environ.get("SKIRMISH_SHOTS") else None
"""Set SKIRMISH_SHOTS=docs/img to write the screenshots docs/ui.md shows."""


@pytest.fixture
def app():
    a = App((1600, 1000))
    yield a
    pygame.display.quit()


def shot(app: App, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(SHOTS / f"{name}.png"))


def hidden_pair():
    """Sokka and one soldier either side of the standing stone: no one in sight, the rest parked."""
    g = new_game()
    end_steps(g, 2)
    keep_only(g, ["p0.sokka", "p1.fire_soldier_1"], sentinels=[])
    place(g, {"p0.sokka": (23.5, 10.0), "p1.fire_soldier_1": (23.5, 17.0)})
    return g


def test_ui_r_t1_end_step_key_guarded_after_the_player_changes(app):
    """Item 8: an E pressed as the seat changes lands on the hand-over card, and an E right after
    the card is dismissed is ignored with a word; once the guard has run out, E ends the step."""
    g = hidden_pair()
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame(dt=1.0)
    assert g.state.step == "movement" and g.state.active_player == 0
    post_and_frame(app, key(pygame.K_e))  # avatar ends the movement: fire_nation's seat now
    assert g.state.active_player == 1 and scene.handover is not None
    n = len(g.history)
    post_and_frame(app, key(pygame.K_e))  # the second press of a double tap: swallowed by the card
    assert len(g.history) == n and scene.handover is not None
    post_and_frame(app, key(pygame.K_RETURN))
    assert scene.handover is None
    post_and_frame(app, key(pygame.K_e))
    assert len(g.history) == n and "E ignored" in scene.message
    app.frame(dt=END_STEP_GUARD_SECONDS + 0.1)
    post_and_frame(app, key(pygame.K_e))
    assert len(g.history) == n + 1 and isinstance(g.history[-1], EndStep)


def test_ui_r_c1_skipped_steps_are_announced_and_logged(app):
    """Item 8: no one in sight, so shooting and charges are skipped: the log marks it and the banner
    says it; then the turn summary card tells the turn and hands over (item 11)."""
    g = hidden_pair()
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame(dt=1.0)
    post_and_frame(app, key(pygame.K_e))
    post_and_frame(app, key(pygame.K_RETURN))
    app.frame(dt=1.0)
    post_and_frame(app, key(pygame.K_e))  # fire_nation ends the movement: the turn runs to its end
    assert g.state.turn == 2 and g.state.step == "movement"
    skips = [e.text for e in g.log if e.kind == "skip" and e.turn == 1]
    assert "avatar: no one in sight — shooting skipped" in skips
    assert "fire_nation: no one in sight to charge — charges skipped" in skips
    assert "no one in sight — shooting skipped" in scene.message
    card = scene.handover
    assert card is not None and card.title == "Turn 1 is over"
    assert "No model was KO'd" in card.lines
    assert any(ln.startswith("avatar: +0 Battle Points this turn") for ln in card.lines)
    assert "shrine: held by no one" in card.lines
    assert "avatar to act" in card.next_words
    app.frame()
    shot(app, "turn_summary")
    # the log panel shows the skipped steps under their step headings
    rows = [r.text for r in scene.log_panel.rows]
    assert any("shooting skipped" in t for t in rows)


def test_ui_no_handover_against_a_bot(app):
    """Item 11: the hand-over card is for two people at one screen, not for a bot's turn."""
    g = new_game()
    scene = BattleScene(app, g, [None, "heuristic"])
    app.push(scene)
    app.frame()
    post_and_frame(app, key(pygame.K_e))
    assert scene.handover is None and not scene.hotseat
