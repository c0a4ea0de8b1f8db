"""The battle screen's tools, run by the key table's commands and the banner's buttons: targeting,
the numbered menu, dropping a leg, cancelling, leaving with Esc twice, and the overlay toggles."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from skirmish.engine.core.actions import UseAbility
from skirmish.ui.battle.modes import IdleMode, MenuMode, PlaceMode, TargetMode, by_name
from skirmish.ui.control.menu_items import HOW_WORDS

if TYPE_CHECKING:
    from skirmish.ui.battle.table import Table

ESC_TWICE_SECONDS = 3.0
"""A second Esc within this many seconds leaves the battle."""


def start_target(scene: Table, kind: str) -> None:
    ctl = scene.control
    m = ctl.selected_model()
    if m is None or not ctl.own(m):
        ctl.say("Select one of your models first", bad=True)
        return
    scene.tool = TargetMode(kind)
    ctl.path = []
    scene.drag.live = None
    verb = "shoot at" if kind == "shoot" else "charge"
    extra = "" if scene.game.options.premeasure else " — distances stay hidden until you declare"
    ctl.say(f"Click an enemy for {m.name} to {verb}{extra}. Esc cancels.")


def open_ability_menu(scene: Table) -> None:
    if scene.control.open_abilities():
        scene.tool = MenuMode()


def choose_menu(scene: Table, k: int) -> None:
    ctl = scene.control
    items = scene.menu_items
    if not (0 <= k < len(items)):
        return
    label, action, extra = items[k]
    if action is None:
        ctl.say(f"{label}: {extra}", bad=not extra.startswith(HOW_WORDS))
        return
    if extra == "place":
        assert isinstance(action, UseAbility)
        scene.tool = PlaceMode(action)
        ctl.choices = None
        ctl.say("Click the board where it goes (Esc cancels)")
        return
    scene.apply(action)


def drop_leg(scene: Table) -> None:
    if len(scene.path) > 2:
        scene.path.pop()
    else:
        scene.path = []
        scene.drag.live = None


def nothing_to_cancel(scene: Table) -> bool:
    return scene.mode == "idle" and not scene.path and not scene.los_model and scene.selected is None


def cancel(scene: Table) -> None:
    ctl = scene.control
    ctl.message = ""  # a mode change drops the old hint or refusal (UX review 12)
    if scene.mode != "idle" or scene.path:
        scene.tool = IdleMode()
        if ctl.state.pending is None:
            ctl.choices = None
        ctl.path = []
        scene.drag.live = None
        scene.ruler = None
    elif scene.los_model:
        scene.los_model = None
    else:
        ctl.selected = None


def esc_leave(scene: Table) -> None:
    if scene.control.time - scene.esc_at <= ESC_TWICE_SECONDS:
        scene.leave()
        return
    scene.esc_at = scene.control.time
    scene.say("Press Esc again to leave the battle (the game is saved first); Ctrl+Q leaves at once")


def toggle_sight(scene: Table) -> None:
    target = scene.hovered or scene.selected
    scene.los_model = None if scene.los_model == target else target
    scene.los_changed()


def toggle_odds(scene: Table) -> None:
    scene.show_odds = not scene.show_odds
    scene.say(
        "Learners' odds " + ("on: hover a target while shooting or charging" if scene.show_odds else "off")
    )


def toggle_ruler(scene: Table) -> None:
    scene.tool = IdleMode() if scene.mode == "ruler" else by_name("ruler")
    scene.ruler = None
    if scene.mode == "ruler":
        scene.say("Ruler: drag to measure (base edge to base edge). R again to stop.")


def toggle_legend(scene: Table) -> None:
    scene.show_legend = not scene.show_legend


def open_help(scene: Table) -> None:
    scene.show_help = True


def pan_key(scene: Table, k: int) -> None:
    d = 40
    scene.view.pan(
        {pygame.K_LEFT: d, pygame.K_RIGHT: -d}.get(k, 0), {pygame.K_UP: d, pygame.K_DOWN: -d}.get(k, 0)
    )


def holds(scene: Table, guard: str) -> bool:
    if guard == "nothing_to_cancel":
        return nothing_to_cancel(scene)
    if guard == "can_cancel":
        return not nothing_to_cancel(scene)
    if guard == "menu_open":
        return bool(scene.menu_items)
    if guard == "pending":
        return scene.control.state.pending is not None
    raise ValueError(f"unknown key guard {guard!r}")
