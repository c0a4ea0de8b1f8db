"""The pointer on the battle screen: which model is under it, and what a press, a drag and a
release do (the board press goes to the input mode, `modes.py`). A press and release closer than
`CLICK_SLOP_PX` is a click: it selects, it never adds a leg (UX review 4)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from skirmish.engine.core.actions import Deploy
from skirmish.ui.control.battle import round_pt
from skirmish.ui.scene import click_buttons

if TYPE_CHECKING:
    from skirmish.engine.queries import ModelState
    from skirmish.ui.battle.table import Table

CLICK_SLOP_PX = 6
"""A press and release closer than this (pixels) is a click, not a drag."""


def model_at(scene: Table, px: float, py: float) -> ModelState | None:
    bx, by = scene.view.to_board(px, py)
    best: tuple[float, ModelState] | None = None
    s = scene.control.state
    for m in s.models:
        if m.removed:
            continue
        d = math.hypot(s.xy[m.index, 0] - bx, s.xy[m.index, 1] - by)
        reach = s.radii[m.index] + 4 / scene.view.scale
        if d <= reach and (best is None or d < best[0]):
            best = (d, m)
    return None if best is None else best[1]


def mouse_down(scene: Table, event: pygame.event.Event) -> None:
    pos = event.pos
    if scene.handover is not None:
        if event.button == 1:
            scene.dismiss_card()
        return
    if scene.show_help:
        scene.show_help = False
        return
    if scene.duel is not None and event.button == 1 and scene.duel_building() and scene.duel.click(pos):
        return
    if event.button == 2 or (event.button == 1 and pygame.key.get_mods() & pygame.KMOD_SHIFT):
        scene.drag.start("pan", pos, scene.drag.live)
        return
    if event.button == 3:
        m = model_at(scene, *pos)
        scene.los_model = None if m is None or scene.los_model == m.id else m.id
        scene.los_changed()
        return
    if event.button != 1:
        return
    if pos[1] < scene.banner_h:
        click_buttons(scene.buttons, pos)
        return
    if scene.log_panel.rect.collidepoint(pos):
        i = scene.log_panel.event_at(pos)
        if i is not None:
            scene.log_panel.selected = i
            scene.control.highlight = frozenset(scene.game.log[i].models)
            scene.control.highlight_until = scene.control.time + 4.0
        return
    if not scene.board_rect.collidepoint(pos):
        return
    scene.tool.press(scene, pos, scene.view.to_board(*pos), model_at(scene, *pos))


def near_path_end(scene: Table, pos: tuple[int, int]) -> bool:
    ex, ey = scene.view.to_screen(*scene.path[-1])
    m = scene.control.selected_model()
    r = (scene.control.state.radii[m.index] * scene.view.scale if m else 6) + 6
    return math.hypot(ex - pos[0], ey - pos[1]) <= r


def mouse_move(scene: Table, event: pygame.event.Event) -> None:
    pos = event.pos
    hov = model_at(scene, *pos) if scene.board_rect.collidepoint(pos) else None
    scene.hovered = hov.id if hov is not None else None
    kind = scene.drag.kind
    if kind == "pan":
        scene.view.pan(pos[0] - scene.drag.start_px[0], pos[1] - scene.drag.start_px[1])
        scene.drag.start_px = pos
    elif kind in ("leg", "deploy"):
        scene.drag.live = round_pt(scene.view.to_board(*pos))
    elif kind == "ruler" and scene.ruler is not None:
        scene.ruler = (scene.ruler[0], scene.view.to_board(*pos))


def mouse_up(scene: Table, event: pygame.event.Event) -> None:
    if not scene.drag.active or event.button not in (1, 2):
        return
    kind, scene.drag.kind = scene.drag.kind, ""
    ctl = scene.control
    if kind == "deploy":
        m = ctl.selected_model()
        if m is not None and scene.drag.live is not None and scene.drag.moved(event.pos) > CLICK_SLOP_PX:
            scene.apply(Deploy(m.id, round_pt(scene.view.to_board(*event.pos))))
        scene.drag.live = None
    elif kind == "leg":
        end = round_pt(scene.view.to_board(*event.pos))
        # A press and release a few pixels apart is a click (selection), never a 0.1" leg.
        if (
            ctl.path
            and scene.drag.moved(event.pos) > CLICK_SLOP_PX
            and math.hypot(end[0] - ctl.path[-1][0], end[1] - ctl.path[-1][1]) > 0.05
        ):
            ctl.path.append(end)
        if len(ctl.path) < 2:
            ctl.path = []
        scene.drag.live = None
