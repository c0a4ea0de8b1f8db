"""The battle screen's key table (issue 12, item 7): the one table dispatches the keys, writes the
help overlay and the key list in docs/ui.md; every binding runs a command the scene has, and no
two bindings of the same key can both apply."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import itertools
import sys
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_engine import advance_to, new_game  # noqa: E402
from test_ui_scenes import key, post_and_frame  # noqa: E402

from skirmish.ui.app import App  # noqa: E402
from skirmish.ui.battle import BattleScene, keys  # noqa: E402
from skirmish.ui.control.offers import offers  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs" / "ui.md"
SPECIAL = {"choose", "choose_key", "pan"}
"""Commands that take the key or the choice (`BattleScene.run`); the others are in `commands`."""


@pytest.fixture
def app():
    a = App((1600, 1000))
    yield a
    pygame.display.quit()


def test_ui_help_overlay_is_written_by_the_key_table(app) -> None:
    g = new_game()
    advance_to(g, "movement", 0)
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    assert scene.help_lines() == keys.help_lines()
    assert ("U, Ctrl+Z", "undo (back to the last dice roll)") in scene.help_lines()
    for row in keys.BATTLE_KEYS:
        if row.keys:
            assert row.command in scene.commands or row.command in SPECIAL, row
        else:
            assert row.help and row.command is None, row  # a help-only line (the mouse, the card)
    for offer in offers(scene.control):
        assert offer.command is None or offer.command in scene.commands or offer.command in SPECIAL


def test_ui_docs_list_the_keys_from_the_table() -> None:
    """docs/ui.md carries `keys.markdown()` verbatim (rewrite it from the table when keys change)."""
    assert keys.markdown() in DOCS.read_text(encoding="utf-8")


def test_ui_no_two_bindings_of_a_key_apply_at_once() -> None:
    rows = [r for r in keys.BATTLE_KEYS if r.keys]
    for a, b in itertools.combinations(rows, 2):
        shared = set(a.keys) & set(b.keys)
        if not shared:
            continue
        both = lambda x, y: x is None or y is None or x == y  # noqa: E731
        when = a.when == b.when or keys.ALWAYS in (a.when, b.when)
        if both(a.ctrl, b.ctrl) and both(a.shift, b.shift) and when:
            assert {a.guard, b.guard} == {"can_cancel", "nothing_to_cancel"}, (a, b)


def test_ui_keys_run_their_commands(app) -> None:
    g = new_game()
    advance_to(g, "movement", 0)
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame(dt=1.0)
    scene.dismiss_card()
    post_and_frame(app, key(pygame.K_g))
    assert scene.show_legend
    post_and_frame(app, key(pygame.K_o))
    assert scene.show_odds and "Learners' odds on" in scene.message
    post_and_frame(app, key(pygame.K_r))
    assert scene.mode == "ruler"
    post_and_frame(app, key(pygame.K_ESCAPE))  # something to cancel: the ruler
    assert scene.mode == "idle"
    speed = scene.control.speed
    post_and_frame(app, key(pygame.K_MINUS))
    assert scene.control.speed == (speed + 1) % 4
    post_and_frame(app, key(pygame.K_TAB))
    assert scene.selected is not None and scene.game.model(scene.selected).player == 0
    post_and_frame(app, key(pygame.K_SLASH, pygame.KMOD_SHIFT))
    assert scene.show_help
    post_and_frame(app, key(pygame.K_ESCAPE))
    assert not scene.show_help
