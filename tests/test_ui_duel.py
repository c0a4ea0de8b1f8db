"""The Avatar Duel in the window (R-X2): the technique builder by keys, the hand-over between two
people building in secret, the reveal side by side and the endurance pieces, under SDL's dummy
driver. Set SKIRMISH_SHOTS to a folder to keep the screenshots."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import sys
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_engine import advance_to, new_game, place, troupe  # noqa: E402
from test_ui_scenes import key, post_and_frame  # noqa: E402

from skirmish.engine.core.actions import Attack, Build, Defend  # noqa: E402
from skirmish.ui.app import App  # noqa: E402
from skirmish.ui.battle import BattleScene  # noqa: E402
from skirmish.ui.control.menu_items import action_label  # noqa: E402

SHOTS = Path(os.environ["SKIRMISH_SHOTS"]) if os.environ.get("SKIRMISH_SHOTS") else None


@pytest.fixture
def app():
    a = App((1600, 1000))
    yield a
    pygame.display.quit()


def shot(app: App, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(SHOTS / f"{name}.png"))


def duel_at_build():
    g = new_game(
        "avatar_duel",
        troupes=[troupe("aang_avatar_state"), troupe("avatar_roku")],
        options={"priority_roll": False},
    )
    place(g, {"p0.aang": (13.0, 8.0), "p1.roku": (13.0, 16.0)})
    advance_to(g, "build", 0, turn=1)
    return g


def test_ui_r_x2_builder_keys_build_a_technique_and_the_next_person_gets_a_hand_over(app):
    g = duel_at_build()
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    app.frame()
    scene.dismiss_card()
    assert scene.duel is not None and scene.duel_building()
    # large fire pointing + medium water standing: pool order is air, water, earth, fire x S, M, L
    scene.duel.cursor, scene.duel.orient = 11, 2
    post_and_frame(app, key(pygame.K_SPACE))
    scene.duel.cursor, scene.duel.orient = 4, 0
    post_and_frame(app, key(pygame.K_SPACE))
    assert scene.duel.text() == "fire.L.point+water.M.stand"
    shot(app, "duel_builder")
    post_and_frame(app, key(pygame.K_b))
    assert g.state.extra["duel"]["built"] == ["p0.aang"]
    assert scene.handover is not None and scene.handover.next_player == 1  # Roku's person takes over
    shot(app, "duel_handover")
    scene.dismiss_card()
    app.frame()
    assert scene.duel.draft == [[], [], [], []]  # nothing of Aang's build is left on screen
    post_and_frame(app, key(pygame.K_t))  # a suggested build
    post_and_frame(app, key(pygame.K_b))
    assert g.state.step == "duel"


def test_ui_r_x2_the_reveal_shows_which_piece_stopped_which(app):
    g = duel_at_build()
    g.apply(Build("p0.aang", "fire.L.point+water.M.point+earth.S.point / air.L.stand+earth.M.stand"))
    g.apply(Build("p1.roku", "air.L.stand+fire.M.deflect+water.S.stand / fire.L.point^+water.L.stand"))
    scene = BattleScene(app, g, [None, None])
    app.push(scene)
    g.apply(Attack("p0.aang", "p1.roku", "a"))
    assert action_label(g, Defend("p1.roku", "a")).startswith("Defend with a: large standing air")
    scene.apply(Defend("p1.roku", "b"))
    scene.dismiss_card()
    app.frame()
    ex = g.state.extra["duel"]["exchanges"][-1]
    # the large standing water blocks the large fire; the medium water and small earth get through
    assert [how for _, _, how in ex["stops"]] == ["block"] and ex["damage"] == [1, 2]
    assert scene.duel is not None and scene.duel.rect.top >= scene.board_rect.bottom  # under the table
    shot(app, "duel_reveal")
