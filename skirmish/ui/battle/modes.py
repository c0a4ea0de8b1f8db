"""The battle screen's input modes, one small class each: what a left press on the board does, and
what the mode draws over the board.

- `IdleMode`: select a model; drag a deployment, or a path leg (from the model or the ghost base).
- `MenuMode`: the numbered ability menu is open (clicks on the board still select).
- `TargetMode`: shoot or charge, waiting for the click on the target.
- `PlaceMode`: a wall ability, waiting for the click on where it goes.
- `RulerMode`: drag to measure.

A mode never decides a rule: it builds the action and the controller hands it to the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.core.actions import Charge, Shoot, UseAbility
from skirmish.ui.battle.overlays import draw_odds, draw_target_line
from skirmish.ui.battle.table import Mode
from skirmish.ui.control.battle import round_pt
from skirmish.ui.menus import draw_menu

if TYPE_CHECKING:
    import pygame

    from skirmish.engine.queries import ModelState
    from skirmish.ui.battle.table import Table


class IdleMode(Mode):
    name = "idle"

    def press(
        self, scene: Table, pos: tuple[int, int], at: tuple[float, float], m: ModelState | None
    ) -> None:
        ctl = scene.control
        s = ctl.state
        sel = ctl.selected_model()
        if ctl.human_turn() and sel is not None and ctl.path and scene.near_path_end(pos):
            scene.drag.start("leg", pos, ctl.path[-1])
            return
        if m is not None:
            if m.id != ctl.selected:
                scene.select(m.id)
            if ctl.own(m):
                here = (float(s.xy[m.index, 0]), float(s.xy[m.index, 1]))
                if s.step == "deploy":
                    scene.drag.start("deploy", pos, here)
                elif ctl.path_kind(m) is not None:
                    if not ctl.path:
                        ctl.path = [here]
                    scene.drag.start("leg", pos, ctl.path[-1])
            scene.drag.start_px = pos
            return
        if not ctl.path:
            scene.select(None)


class MenuMode(IdleMode):
    name = "ability"

    def draw_panel(self, scene: Table, surf: pygame.Surface) -> None:
        ctl = scene.control
        if ctl.choices and ctl.choices.items and ctl.state.pending is None:
            m = ctl.selected_model()
            title = f"Abilities of {m.name}" if m is not None else "Abilities"
            draw_menu(surf, scene.text, title, ctl.choices.items, ctl.choices.notes, scene.board_rect)


class TargetMode(Mode):
    targeting = True

    def __init__(self, kind: str) -> None:
        self.name = kind  # "shoot" or "charge"

    def press(
        self, scene: Table, pos: tuple[int, int], at: tuple[float, float], m: ModelState | None
    ) -> None:
        ctl = scene.control
        sel = ctl.selected_model()
        if m is None or not m.active or sel is None or not ctl.game.enemies(m, sel):
            ctl.say("Click an enemy model (Esc cancels)", bad=True)
            return
        if self.name == "charge":
            scene.apply(Charge(sel.id, m.id))
            return
        spec = ctl.current_spec(sel)
        if spec is None:
            ctl.say(f"{sel.name} has nothing to shoot with (AP too low?)", bad=True)
            return
        scene.apply(Shoot(sel.id, m.id, spec.name))

    def draw_board(self, scene: Table, surf: pygame.Surface) -> None:
        draw_target_line(scene, surf, self.name)

    def draw_panel(self, scene: Table, surf: pygame.Surface) -> None:
        if scene.show_odds:
            draw_odds(scene, surf, scene.control.odds_lines(self.name, scene.hovered))


class PlaceMode(Mode):
    name = "place"

    def __init__(self, ability: UseAbility) -> None:
        self.ability = ability

    def press(
        self, scene: Table, pos: tuple[int, int], at: tuple[float, float], m: ModelState | None
    ) -> None:
        a = self.ability
        scene.apply(UseAbility(a.model, a.ability, at=round_pt(at)))


class RulerMode(Mode):
    name = "ruler"

    def press(
        self, scene: Table, pos: tuple[int, int], at: tuple[float, float], m: ModelState | None
    ) -> None:
        scene.drag.start("ruler", pos, None)
        scene.ruler = (at, at)


def by_name(name: str) -> Mode:
    """The mode of a name (tests and tools set `scene.mode = "shoot"`); "place" needs its ability."""
    if name in ("shoot", "charge"):
        return TargetMode(name)
    modes: dict[str, type[Mode]] = {"idle": IdleMode, "ability": MenuMode, "ruler": RulerMode}
    if name not in modes:
        raise ValueError(f"no mode {name!r} (idle, shoot, charge, ability, ruler)")
    return modes[name]()
