"""The battle scene (and the deployment scene): input and drawing around a `BattleControl`.

The scene never decides a rule. Its input mode (`modes.py`) builds actions from clicks and drags,
the key table (`keys.py`) turns keys into commands, and the controller (`control/battle.py`,
headless) hands actions to `Game.apply`; when the engine refuses, its reason (with the rule ID) is
shown and nothing changes. The banner, the path, the sight lines, the toast and the legend are
views (`banner.py`, `overlays.py`, `sight.py`, `toast_view.py`). Other screens are reached through
the host (`scene.Host`), never by importing them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame
import shapely

from skirmish.data.errors import DataError
from skirmish.engine.core.actions import Decline
from skirmish.ui import theme
from skirmish.ui.battle import keys, overlays, pointer, tools
from skirmish.ui.battle.banner import BannerView
from skirmish.ui.battle.modes import IdleMode, MenuMode, by_name
from skirmish.ui.battle.sight import SightOverlay
from skirmish.ui.battle.table import Drag, Mode
from skirmish.ui.battle.toast_view import ToastView
from skirmish.ui.control.battle import SPEEDS, BattleControl
from skirmish.ui.control.offers import offers
from skirmish.ui.duel_view import DUEL_PANEL_H, DuelPanel
from skirmish.ui.handover import draw_card
from skirmish.ui.panels import LogPanel, ProfileCard
from skirmish.ui.pursuit_view import draw_pursuit_panel, panel_width, pursuit_rules
from skirmish.ui.render import ModelMarks, draw_models
from skirmish.ui.scene import Button, Scene, draw_help
from skirmish.ui.terrain_art import StaticLayer
from skirmish.ui.view import BoardView

if TYPE_CHECKING:
    from skirmish.bots.base import Bot
    from skirmish.engine import Game
    from skirmish.engine.core.actions import Action
    from skirmish.engine.queries import ModelState, ShotSpec
    from skirmish.ui.scene import Host


class BattleScene(Scene):
    """Deployment and battle on one board. `policies[p]` is a bot policy name or None for a person."""

    name = "battle"

    def __init__(
        self,
        app: Host,
        game: Game,
        policies: list[str | None],
        *,
        replay_out: str | None = None,
        bots: list[Bot | None] | None = None,
        speed: int = 1,
        control: BattleControl | None = None,
    ) -> None:
        super().__init__(app)
        self.control = control or BattleControl(game, policies, replay_out=replay_out, bots=bots, speed=speed)
        self.control.on_change.append(self._changed)
        self.view = BoardView(game.scenario.board.width, game.scenario.board.height)
        self.static = StaticLayer()
        self.log_panel = LogPanel()
        self.log_panel.names = self.control.names
        self.card = ProfileCard()
        self.banner = BannerView()
        self.sight = SightOverlay()
        self.toasts = ToastView()
        self.legend = overlays.Legend()
        self.drag = Drag()
        self.tool: Mode = IdleMode()
        self.hovered: str | None = None
        self.ruler: tuple[tuple[float, float], tuple[float, float]] | None = None
        self.los_model: str | None = None
        self.show_odds = False
        self.show_help = False
        self.show_legend = False
        self.buttons: list[Button] = []
        self.label_rects: dict[str, pygame.Rect] = {}
        self.esc_at = -1e9
        self._corridor: tuple[object, tuple[list[shapely.Polygon], list[shapely.Polygon]]] | None = None
        self.duel = DuelPanel() if game.rules.technique_duel() else None
        """The Avatar Duel's builder, reveal and endurance strip (duel_view.py), drawn from the
        observation of the person to act only."""
        self.board_rect = pygame.Rect(0, 0, 10, 10)
        self.pursuit_rect = pygame.Rect(0, 0, 0, 0)
        self.layout(app.size)
        self.view.fit(tuple(self.board_rect))
        self.commands = self._commands()

    def run(self, command: str, arg: int = 0) -> None:
        """Run a command of the key table or a banner button (`arg`: the key, or the choice)."""
        if command == "choose":
            tools.choose_menu(self, arg)
        elif command == "choose_key":
            tools.choose_menu(self, arg - pygame.K_1)
        elif command == "pan":
            tools.pan_key(self, arg)
        else:
            self.commands[command]()

    def _commands(self) -> dict[str, Callable[[], object]]:
        c = self.control
        return {
            "show_end": self.show_end,
            "watch_replay": self.watch_replay,
            "toggle_pause": c.toggle_pause,
            "faster": c.faster,
            "slower": c.slower,
            "undo": c.undo,
            "end_step": c.end_step,
            "commit_path": c.commit_path,
            "take_cover": c.take_cover,
            "shoot": partial(tools.start_target, self, "shoot"),
            "charge": partial(tools.start_target, self, "charge"),
            "next_weapon": c.next_weapon,
            "abilities": self.open_ability_menu,
            "drop_leg": partial(tools.drop_leg, self),
            "decline": lambda: self.apply(Decline()),
            "cancel": partial(tools.cancel, self),
            "esc_leave": partial(tools.esc_leave, self),
            "leave": self.leave,
            "sight": partial(tools.toggle_sight, self),
            "odds": partial(tools.toggle_odds, self),
            "ruler": partial(tools.toggle_ruler, self),
            "cycle": c.cycle_selection,
            "fit": lambda: self.view.fit(tuple(self.board_rect)),
            "legend": partial(tools.toggle_legend, self),
            "save": c.save,
            "load": self.load,
            "screenshot": self.screenshot,
            "help": partial(tools.open_help, self),
        }

    # ------------------------------------------------------------- the controller's state, as the scene's
    @property
    def game(self) -> Game:
        return self.control.game

    @property
    def selected(self) -> str | None:
        return self.control.selected

    @selected.setter
    def selected(self, model_id: str | None) -> None:
        self.control.selected = model_id

    @property
    def path(self) -> list[tuple[float, float]]:
        return self.control.path

    @path.setter
    def path(self, pts: list[tuple[float, float]]) -> None:
        self.control.path = pts

    @property
    def message(self) -> str:
        return self.control.message

    @property
    def mode(self) -> str:
        return self.tool.name

    @mode.setter
    def mode(self, name: str) -> None:
        self.tool = by_name(name)

    @property
    def handover(self):  # noqa: ANN201 - the controller's card
        return self.control.handover

    @handover.setter
    def handover(self, card: object) -> None:
        self.control.handover = card  # type: ignore[assignment]

    @property
    def toast(self):  # noqa: ANN201 - the controller's toast
        return self.control.toast

    @property
    def highlight(self) -> frozenset[str]:
        return self.control.highlight

    @property
    def hotseat(self) -> bool:
        return self.control.hotseat

    @property
    def worker(self):  # noqa: ANN201 - the controller's bot worker
        return self.control.worker

    @property
    def menu_items(self) -> list:  # noqa: ANN201
        return self.control.choices.items if self.control.choices else []

    @property
    def menu_notes(self) -> list[str]:
        return self.control.choices.notes if self.control.choices else []

    @property
    def seats(self) -> int:
        return getattr(self.app, "seats", 1)

    def say(self, text: str, bad: bool = False, seconds: float = 6.0) -> None:
        self.control.say(text, bad, seconds)

    def named(self, words: str) -> str:
        return self.control.named(words)

    def select(self, model_id: str | None) -> None:
        if model_id != self.control.selected:
            self.drag.live = None  # another model: the path being drawn is dropped with its live end
        self.control.select(model_id)

    def apply(self, action: Action) -> bool:
        return self.control.apply(action)

    def after_change(self, note: str = "") -> None:
        self.control.after_change(note)

    def dismiss_card(self) -> None:
        self.control.dismiss_card()

    def shot_specs(self, m: ModelState) -> list[ShotSpec]:
        return self.control.shot_specs(m)

    def check_path(self, m: ModelState, kind: type[Action], pts: list[tuple[float, float]]) -> str | None:
        return self.control.check_path(m, kind, pts)

    def model_at(self, px: float, py: float) -> ModelState | None:
        return pointer.model_at(self, px, py)

    def near_path_end(self, pos: tuple[int, int]) -> bool:
        return pointer.near_path_end(self, pos)

    def los_changed(self) -> None:
        self.sight.forget()

    def open_ability_menu(self) -> None:
        tools.open_ability_menu(self)

    def odds_lines(self) -> list[str]:
        return self.control.odds_lines(self.mode, self.hovered) if self.tool.targeting else []

    def actions(self) -> list[Button]:
        """What the player to act may do now, with hotkeys; greyed buttons carry the engine's reason."""
        return [
            Button(
                o.label,
                o.hotkey,
                None if o.command is None else self._button(o.command, o.arg),
                o.enabled,
                o.reason,
            )
            for o in offers(self.control)
        ]

    def _button(self, command: str, arg: int) -> Callable[[], None]:
        return lambda: self.run(command, arg)

    def _changed(self) -> None:
        """After every change the tools reset; a pending decision opens its numbered answers."""
        ctl = self.control
        self.drag.live = None
        self.tool = MenuMode() if ctl.choices is not None else IdleMode()
        self.sight.forget()
        self.banner.invalidate()

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.text.scale
        self.banner_h = int(112 * s)
        side_w = int(min(460, max(300, w * 0.3)))
        old = self.board_rect.copy()
        # The Pursuit's panel has a column of its own, left of the table (it used to cover the
        # table's top-left corner, and the models and terrain under it).
        left = panel_width(w, side_w, s) if pursuit_rules(self.game) is not None else 0
        self.pursuit_rect = pygame.Rect(0, self.banner_h, left, h - self.banner_h)
        self.board_rect = pygame.Rect(left, self.banner_h, w - side_w - left, h - self.banner_h)
        if getattr(self, "duel", None) is not None:
            self.board_rect.height -= int(DUEL_PANEL_H * s)  # the duel strip sits under the table
        self.card.rect = pygame.Rect(w - side_w, self.banner_h, side_w, int(min(300 * s, h * 0.36)))
        self.log_panel.rect = pygame.Rect(
            w - side_w, self.card.rect.bottom, side_w, h - self.card.rect.bottom
        )
        self.card.max_h = int(h - self.banner_h - 120 * s)
        self.banner.invalidate()
        if old.size != self.board_rect.size:
            self.view.fit(tuple(self.board_rect))
        else:
            self.view.rect = tuple(self.board_rect)

    # ------------------------------------------------------------------ the Avatar Duel (duel_view.py)
    def duel_viewer(self) -> int:
        return DuelPanel.viewer(self.game, self.control.people())

    def duel_building(self) -> bool:
        return (
            self.duel is not None
            and self.control.human_turn()
            and DuelPanel.building(self.game, self.duel_viewer())
        )

    def duel_key(self, k: int, ctrl: bool) -> bool:
        """The builder takes the keyboard while a person builds (F1, Ctrl and Esc still work)."""
        if self.duel is None or ctrl or k in keys.DUEL_PASSES or not self.duel_building():
            return False
        action = self.duel.key(self.game, self.duel_viewer(), k)
        if action is not None and self.apply(action):
            self.duel.clear()
        return True

    # ------------------------------------------------------------------ tools
    # ------------------------------------------------------------- files and other screens (via the host)
    def load(self, path: str | None = None) -> None:
        found = self.control.load(path)
        if found is None:
            return
        game, seats, where = found
        ctl = self.control
        self.app.open_battle(game, seats, replay_out=ctl.replay_out, speed=ctl.speed, replace=True)
        self.app.tell(f"Loaded {where}")

    def save(self, path: str | None = None) -> None:
        self.control.save(path)

    def screenshot(self) -> None:
        from skirmish.ui.snapshot import save_game_png

        path = "the screenshots folder"
        try:
            path = self.control.picture_path()
            save_game_png(self.game, path, self.app.size)
        except (OSError, DataError, pygame.error) as exc:
            self.say(f"Could not save the picture to {path}: {exc}", bad=True)
            return
        self.say(f"Board picture saved to {path}")

    def leave(self) -> None:
        """Back to the menu (or quit when the battle was opened alone), the game written first."""
        words, bad = self.control.leave()
        self.app.pop()
        if words:
            self.app.tell(words, bad)

    def show_end(self) -> None:
        self.app.open_end(self.game, replay_out=self.control.replay_out)

    def watch_replay(self) -> None:
        from skirmish.ui.control.saves import replay_of

        self.app.open_replay(replay_of(self.game))

    def to_battle(self) -> BattleScene:
        scene = BattleScene(self.app, self.game, self.control.policies, control=self.control.successor())
        scene.view = self.view
        return scene

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            pointer.mouse_down(self, event)
        elif event.type == pygame.MOUSEBUTTONUP:
            pointer.mouse_up(self, event)
        elif event.type == pygame.MOUSEMOTION:
            pointer.mouse_move(self, event)
        elif event.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.log_panel.rect.collidepoint(pos):
                self.log_panel.scroll_by(3 * event.y)
            else:
                self.view.zoom_at(1.15**event.y, *pos)

    def key(self, event: pygame.event.Event) -> None:
        k = event.key
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        if self.handover is not None and not ctrl and k not in keys.CARD_PASSES:
            # the card takes the acting keys (so an E meant for the last step lands nowhere); saving,
            # loading, leaving and help still work under it
            if k in keys.CARD_DISMISS:
                self.dismiss_card()
            return
        if self.show_help:
            if k in keys.HELP_CLOSE:
                self.show_help = False
            return
        if self.duel_key(k, ctrl):
            return
        ctl = self.control
        when = keys.OVER if self.game.over else keys.TURN if ctl.human_turn() else keys.ALWAYS
        row = keys.find(k, ctrl, bool(event.mod & pygame.KMOD_SHIFT), when, partial(tools.holds, self))
        if row is not None and row.command is not None:
            self.run(row.command, k)
        self.banner.invalidate()

    def help_lines(self) -> list[tuple[str, str]]:
        return keys.help_lines()

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        ctl = self.control
        ended = ctl.update(dt)
        if self.game.over:
            if ended and (all(b is not None for b in ctl.bots) or self.app.auto_end):
                self.show_end()
            return
        if ctl.state.step != "deploy" and self.name == "deploy":
            self.app.replace(self.to_battle())
            return
        ctl.act()

    # ------------------------------------------------------------------ drawing
    def model_positions(self) -> dict[str, tuple[float, float]]:
        out = self.control.positions()
        if self.drag.kind == "deploy" and self.drag.live is not None and self.selected:
            out[self.selected] = self.drag.live
        return out

    def path_corridor(
        self, m: ModelState, pts: list[tuple[float, float]], problem: bool
    ) -> tuple[list[shapely.Polygon], list[shapely.Polygon]]:
        """The swept base and where a refused one runs into something (`overlays.corridor`), cached."""
        key = (m.id, tuple(pts), problem, len(self.game.history))
        if self._corridor is None or self._corridor[0] != key:
            self._corridor = (key, overlays.corridor(self.game, m, pts, problem))
        return self._corridor[1]

    def los_geometry(self) -> list:  # noqa: ANN201
        return self.sight.geometry(self)

    def toast_rect(self) -> pygame.Rect:
        return self.toasts.rect(self)

    def legend_surface(self) -> pygame.Surface:
        return self.legend.surface(self)

    def draw(self, surf: pygame.Surface) -> None:
        g = self.game
        ctl = self.control
        s = g.state
        surf.fill(theme.BG)
        clip = surf.get_clip()
        surf.set_clip(self.board_rect)
        surf.blit(self.static.get(self.view, g, self.text), self.board_rect.topleft)
        targets: frozenset[str] = frozenset()
        sel = ctl.selected_model()
        if self.tool.targeting and sel is not None:
            targets = frozenset(t.id for t in s.models if t.active and g.enemies(t, sel) and g.sees(sel, t))
        marks = ModelMarks(
            self.selected, self.hovered, ctl.highlight, frozenset(), targets, self.model_positions(), ctl.time
        )
        if self.los_model:
            self.sight.draw(self, surf)
        self.toasts.marks(self, surf, before_models=True)
        self.label_rects = draw_models(surf, self.view, g, self.text, marks, show_removed=False)
        self.toasts.float_rects = []
        self.toasts.marks(self, surf, before_models=False)
        if self.los_model:
            self.sight.draw_labels(self, surf)
        overlays.draw_path(self, surf)
        overlays.draw_ruler(self, surf)
        self.tool.draw_board(self, surf)
        surf.set_clip(clip)
        draw_pursuit_panel(surf, self.text, g, self.pursuit_rect, self.seats, self.selected)
        self.buttons = self.actions()
        self.banner.draw(self, surf, self.buttons)
        hov = s.model(self.hovered) if self.hovered else None
        self.log_panel.sync(g.log, self.text)
        self.log_panel.draw(surf, self.text, g.log)
        self.card.draw(surf, self.text, g, hov or sel)  # over the log's top when it needs the room
        self.tool.draw_panel(self, surf)
        if ctl.toast is not None:
            self.toasts.draw(self, surf)
        if self.show_legend:
            self.legend.draw(self, surf)
        if self.duel is not None:
            self.duel.draw(surf, self.text, g, self.duel_viewer(), self.board_rect)
        if self.handover is not None:
            draw_card(surf, self.text, self.handover, self.board_rect)
        if self.show_help:
            draw_help(surf, self.text, "Battle", self.help_lines())


class DeployScene(BattleScene):
    """Deployment: models start auto-deployed in their zones; drag to re-place, E to accept."""

    name = "deploy"


__all__ = ["SPEEDS", "BattleScene", "DeployScene"]
