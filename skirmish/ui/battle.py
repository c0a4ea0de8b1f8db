"""The battle scene (and the deployment scene): the board, the banner, acting, overlays, bots.

The scene never decides a rule. It builds actions from clicks, drags and keys and hands them to
`Game.apply`; when the engine refuses, its reason (with the rule ID) is shown and nothing
changes. Live feedback while dragging a path uses the engine's own path validation, so what the
player sees is what `apply` will say. Bots think on a worker thread (see `botworker`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np
import pygame
import shapely

from skirmish.battlefield.measure import path_length
from skirmish.battlefield.sight import sight_evidence
from skirmish.bots.registry import NAMED
from skirmish.data.errors import DataError
from skirmish.engine import abilities, ruler
from skirmish.engine.core.actions import (
    Action,
    Advance,
    Attack,
    Charge,
    CounterCharge,
    Decline,
    Defend,
    Deploy,
    Disengage,
    EndStep,
    Move,
    React,
    Shoot,
    TakeCover,
    UseAbility,
)
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState, abilities_of
from skirmish.engine.phases import SPECS
from skirmish.engine.steps import charges, end_phase, movement, shooting
from skirmish.rules.modifiers import Modifier, Score
from skirmish.ui import theme
from skirmish.ui.botworker import BotWorker
from skirmish.ui.duel_view import DUEL_PANEL_H, DuelPanel, action_label
from skirmish.ui.floats import place_floats
from skirmish.ui.handover import END_STEP_GUARD_SECONDS, HandOver, TurnPoint, card_for, draw_card, skip_words
from skirmish.ui.menus import draw_menu
from skirmish.ui.panels import LogPanel, ProfileCard
from skirmish.ui.pursuit_view import draw_pursuit_panel, pursuit_rules
from skirmish.ui.render import (
    ICON_LEGEND,
    LEGEND,
    ModelMarks,
    StaticLayer,
    draw_legend,
    draw_models,
    model_labels,
    result_words,
    score_words,
    status_words,
    turn_words,
)
from skirmish.ui.scene import Button, Scene, click_buttons, draw_button, draw_help
from skirmish.ui.table_words import effect_words, friends_in_melee, names_of, spec_words
from skirmish.ui.toasts import Toast, die_sum, outcome_toast
from skirmish.ui.view import BoardView

if TYPE_CHECKING:
    from skirmish.bots.base import Bot
    from skirmish.engine.game import Game
    from skirmish.ui.app import App

SPEEDS = (("fast", 0.0), ("brisk", 0.15), ("watch", 0.5), ("slow", 1.2))
"""Pause between bot actions (seconds) for watching a bot game; 0 plays as fast as the bot thinks."""

SAVE_NAME = "skirmish-save.json"


def save_path() -> str:
    """The quick-save file, in the per-user data folder (`saves/`), never the folder started from."""
    from skirmish.data.userdirs import default_output

    return str(default_output("saves", SAVE_NAME))


ANIM_SECONDS = 0.3
CLICK_SLOP_PX = 6
ESC_TWICE_SECONDS = 3.0
"""A press and release closer than this (pixels) is a click, not a drag."""


@dataclass
class Anim:
    path: np.ndarray
    start: float
    duration: float


def _round_pt(p: tuple[float, float]) -> tuple[float, float]:
    return (round(float(p[0]), 3), round(float(p[1]), 3))


def _polys(geom: shapely.Geometry) -> list[shapely.Polygon]:
    return [p for p in shapely.get_parts(geom) if isinstance(p, shapely.Polygon) and p.area > 1e-6]


class BattleScene(Scene):
    """Deployment and battle on one board. `policies[p]` is a bot policy name or None for a person."""

    name = "battle"

    def __init__(
        self,
        app: App,
        game: Game,
        policies: list[str | None],
        *,
        replay_out: str | None = None,
        bots: list[Bot | None] | None = None,
        speed: int = 1,
    ) -> None:
        super().__init__(app)
        from skirmish.bots import make_bot

        self.game = game
        self.policies = list(policies)
        self.bots: list[Bot | None] = (
            bots
            if bots is not None
            else [None if p is None else make_bot(p, game.seed, i, game) for i, p in enumerate(self.policies)]
        )
        self.replay_out = replay_out
        self.worker = BotWorker()
        self.view = BoardView(game.scenario.board.width, game.scenario.board.height)
        self.static = StaticLayer()
        self.log_panel = LogPanel()
        self.log_panel.names = names_of(game)
        self.card = ProfileCard()
        self.time = 0.0
        self.speed = speed
        self.bot_paused = False
        self._next_bot_time = 0.0
        # interaction state
        self.selected: str | None = None
        self.hovered: str | None = None
        self.mode = "idle"  # idle, shoot, charge, ability, place, ruler
        self.path: list[tuple[float, float]] = []
        self.live: tuple[float, float] | None = None
        self.dragging = False
        self.drag_kind = ""  # "leg", "deploy", "ruler", "pan"
        self.drag_start_px: tuple[int, int] = (0, 0)
        self.path_problem: str | None = None
        self._checked_path: tuple | None = None
        self.ruler: tuple[tuple[float, float], tuple[float, float]] | None = None
        self.los_model: str | None = None
        self.show_odds = False
        self.show_help = False
        self.show_legend = False
        self._legend: tuple[object, pygame.Surface] | None = None
        self.weapon_index = 0
        self.menu_items: list[tuple[str, Action | None, str]] = []  # ability or pending choices
        self.menu_notes: list[str] = []  # the rules text under each ability choice (menus.py)
        self.place_ability: UseAbility | None = None
        self.message = ""
        self.message_bad = False
        self.message_until = 0.0
        self.highlight: frozenset[str] = frozenset()
        self.highlight_until = 0.0
        self.anims: dict[str, Anim] = {}
        self.toast: Toast | None = None
        self._esc_at = -1e9
        self._toast_cache: tuple[object, pygame.Surface] | None = None
        self._corridor: tuple[object, tuple[list, list]] | None = None
        self._los_labels: dict[str, list[tuple[ModelState, float, float]]] = {}
        self._seen_log = len(game.log)
        self.buttons: list[Button] = []
        self._banner_key: object = None
        self._banner_surface: pygame.Surface | None = None
        self._los_cache: tuple[object, list] | None = None
        self._ended = False
        self._label_rects: dict[str, pygame.Rect] = {}
        self._float_rects: list[pygame.Rect] = []
        self.handover: HandOver | None = None
        """The hand-over / turn-summary card over the table (issue 16, item 11); Enter dismisses it."""
        self._point = TurnPoint.of(game)
        self._guard_until = -1.0
        self.hotseat = sum(b is None for b in self.bots) >= 2
        self.duel = DuelPanel() if game.rules.technique_duel() else None
        """The Avatar Duel's builder, reveal and endurance strip (duel_view.py), drawn from the
        observation of the person to act only."""
        self.board_rect = pygame.Rect(0, 0, 10, 10)
        self.layout(app.size)
        self.view.fit(tuple(self.board_rect))

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.text.scale
        self.banner_h = int(112 * s)
        side_w = int(min(460, max(300, w * 0.3)))
        old = self.board_rect.copy()
        self.board_rect = pygame.Rect(0, self.banner_h, w - side_w, h - self.banner_h)
        if getattr(self, "duel", None) is not None:
            self.board_rect.height -= int(DUEL_PANEL_H * s)  # the duel strip sits under the table
        self.card.rect = pygame.Rect(w - side_w, self.banner_h, side_w, int(min(300 * s, h * 0.36)))
        self.log_panel.rect = pygame.Rect(
            w - side_w, self.card.rect.bottom, side_w, h - self.card.rect.bottom
        )
        self.card.max_h = int(h - self.banner_h - 120 * s)
        self._banner_key = None
        if old.size != self.board_rect.size:
            self.view.fit(tuple(self.board_rect))
        else:
            self.view.rect = tuple(self.board_rect)

    # ------------------------------------------------------------------ helpers
    @property
    def s(self):  # noqa: ANN201 - short alias for the live state
        return self.game.state

    def is_bot_turn(self) -> bool:
        g = self.game
        return not g.over and self.bots[g.state.active_player] is not None

    def human_turn(self) -> bool:
        return not self.game.over and not self.is_bot_turn()

    # ------------------------------------------------------------------ the Avatar Duel (duel_view.py)
    def duel_viewer(self) -> int:
        return DuelPanel.viewer(self.game, [b is None for b in self.bots])

    def duel_building(self) -> bool:
        return (
            self.duel is not None and self.human_turn() and DuelPanel.building(self.game, self.duel_viewer())
        )

    def duel_key(self, k: int, ctrl: bool) -> bool:
        """The builder takes the keyboard while a person builds (F1, Ctrl and Esc still work)."""
        if (
            self.duel is None
            or ctrl
            or k in (pygame.K_F1, pygame.K_F12, pygame.K_ESCAPE)
            or not self.duel_building()
        ):
            return False
        action = self.duel.key(self.game, self.duel_viewer(), k)
        if action is not None and self.apply(action):
            self.duel.clear()
        return True

    def model_at(self, px: float, py: float) -> ModelState | None:
        bx, by = self.view.to_board(px, py)
        best: tuple[float, ModelState] | None = None
        s = self.s
        for m in s.models:
            if m.removed:
                continue
            d = math.hypot(s.xy[m.index, 0] - bx, s.xy[m.index, 1] - by)
            reach = s.radii[m.index] + 4 / self.view.scale
            if d <= reach and (best is None or d < best[0]):
                best = (d, m)
        return None if best is None else best[1]

    def selected_model(self) -> ModelState | None:
        return None if self.selected is None else self.s.model(self.selected)

    def own(self, m: ModelState | None) -> bool:
        return m is not None and m.player == self.s.active_player and self.human_turn()

    def say(self, text: str, bad: bool = False, seconds: float = 6.0) -> None:
        self.message = text
        self.message_bad = bad
        self.message_until = self.time + seconds
        self._banner_key = None

    def path_kind(self, m: ModelState) -> type[Move] | type[Advance] | type[Disengage] | None:
        """Which path action the selected model would make now: Move, Advance or Disengage."""
        step = self.s.step
        if step == "movement" and movement.can_move(self.game, m):
            return Move
        if step == "advances":
            if end_phase.can_advance(self.game, m):
                return Advance
            if end_phase.can_disengage(self.game, m):
                return Disengage
        return None

    def budget(self, m: ModelState, kind: type[Action]) -> float:
        if kind is Move:
            return movement.move_budget(self.game, m)
        if kind is Advance:
            return float(m.profile.advance)
        return float(end_phase.DISTRACTION_MOVE)

    def check_path(self, m: ModelState, kind: type[Action], pts: list[tuple[float, float]]) -> str | None:
        """The engine's verdict on a path, for live feedback (apply() stays the authority)."""
        key = (m.id, kind.__name__, tuple(pts), len(self.game.history))
        if key == self._checked_path:
            return self.path_problem
        self._checked_path = key
        arr = np.asarray(pts, dtype=float)
        problem: str | None = None
        if len(arr) >= 2:
            if kind is Disengage:
                found = end_phase.disengage_problem(self.game, m, arr)
                problem = None if found is None else f"{found[0]}: {found[1]}"
            else:
                try:
                    movement.validate_path(
                        self.game, m, arr, self.budget(m, kind), "R-M2" if kind is Move else "R-E1"
                    )
                except IllegalAction as exc:
                    problem = self.named(str(exc))
        self.path_problem = problem
        return problem

    def named(self, words: str) -> str:
        """The engine names some models by index ("model 3"); players read names."""
        models = self.s.models

        def sub(m: re.Match[str]) -> str:
            i = int(m.group(1))
            return models[i].name if 0 <= i < len(models) else m.group(0)

        words = re.sub(r"(?:enemy )?model (\d+)", sub, words)
        # terrain ids in backticks (`earth_wall_1`) read as words: "earth wall 1"
        return re.sub(r"`([A-Za-z0-9_]+)`", lambda m: m.group(1).replace("_", " "), words)

    def clear_path(self) -> None:
        self.path = []
        self.live = None
        self.path_problem = None
        self._checked_path = None

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action) -> bool:
        """Send an action to the engine; show its refusal in words, or what happened."""
        if self.worker.pending:
            self.worker.cancel()
        g = self.game
        pre_distance: str | None = None
        if isinstance(action, Shoot | Charge):
            a, t = g.state.model(action.model), g.state.model(action.target)
            if a is not None and t is not None:
                pre_distance = f'{t.name} was {g.distance(a, t):.1f}" away'
                if isinstance(action, Shoot):
                    spec = next((sp for sp in shooting.shot_specs(g, a) if sp.name == action.weapon), None)
                    if spec is not None:
                        pre_distance += f' (range {spec.range:g}")'
                else:
                    pre_distance += f' (charge {a.profile.charge:g}")'
        try:
            g.apply(action)
        except IllegalAction as exc:
            self.say(f"Not allowed — {self.named(str(exc))}", bad=True)
            return False
        self.after_change(note=f"Declared: {pre_distance}." if pre_distance else "")
        return True

    def after_change(self, note: str = "") -> None:
        """Animate new movement events, show the outcome of what just happened, reset the tools.

        A successful action also clears the previous message (a refusal must not outlive the next
        action that went through, UX review 12).
        """
        g = self.game
        fast = self.speed == 0 and all(b is not None for b in self.bots)
        if len(g.log) < self._seen_log:
            self._seen_log = len(g.log)
        self.message = ""
        self.message_bad = False
        toast = outcome_toast(g, g.log[self._seen_log :], self.time, note, self.named)
        if toast is not None:
            self.toast = toast
            self.highlight = frozenset(toast.models)
            self.highlight_until = toast.until
        for e in g.log[self._seen_log :]:
            path = e.data.get("path") if e.data else None
            if path and e.models and not fast:
                self.anims[e.models[0]] = Anim(np.asarray(path, dtype=float), self.time, ANIM_SECONDS)
        skips = [self.named(e.text) for e in g.log[self._seen_log :] if e.kind == "skip"]
        self._seen_log = len(g.log)
        self.clear_path()
        self.mode = "idle"
        self.menu_items = []
        self.place_ability = None
        self._banner_key = None
        self._los_cache = None
        if skips:  # a step that ended by itself, or that the other side had nothing to do in, is told
            self.say(skip_words(skips), seconds=8.0)
        self.note_point()
        m = self.selected_model()
        if m is not None and not m.active:
            self.selected = None
        if self.s.pending is not None and not self.is_bot_turn():
            self.open_pending_menu()

    def note_point(self) -> None:
        """After any change: if the step or the player to act moved on, guard the end-step key and
        raise the hand-over / turn-summary card (handover.py)."""
        now = TurnPoint.of(self.game)
        if now == self._point:
            return
        before, self._point = self._point, now
        self._guard_until = self.time + END_STEP_GUARD_SECONDS
        people = [b is None for b in self.bots]
        card = card_for(self.game, before, now, people, hotseat=self.hotseat)
        if card is not None:
            self.handover = card
            self._banner_key = None

    def dismiss_card(self) -> None:
        self.handover = None
        self._guard_until = self.time + END_STEP_GUARD_SECONDS  # the Enter that closed it is not an E
        self._banner_key = None

    def end_step(self) -> None:
        if not self.human_turn():
            return
        if self.time < self._guard_until:
            title = SPECS[self.s.step].title
            self.say(f"E ignored for a moment: {title} has just begun — press E again to end it", bad=True)
            return
        if self.s.pending is not None:
            self.say("Answer the pending decision first (1-9, or D to decline)", bad=True)
            return
        self.apply(EndStep())

    def commit_path(self) -> None:
        m = self.selected_model()
        if m is None or len(self.path) < 2:
            self.say("Drag from the selected model to draw a path first", bad=True)
            return
        kind = self.path_kind(m)
        if kind is None:
            self.say(f"{m.name} cannot move now", bad=True)
            return
        pts = tuple(self.path)
        self.apply(kind(m.id, pts))

    def take_cover(self) -> None:
        m = self.selected_model()
        if m is not None:
            self.apply(TakeCover(m.id))

    def start_target(self, mode: str) -> None:
        m = self.selected_model()
        if m is None or not self.own(m):
            self.say("Select one of your models first", bad=True)
            return
        self.mode = mode
        self.clear_path()
        verb = "shoot at" if mode == "shoot" else "charge"
        extra = "" if self.game.options.premeasure else " — distances stay hidden until you declare"
        self.say(f"Click an enemy for {m.name} to {verb}{extra}. Esc cancels.")

    def shot_specs(self, m: ModelState) -> list:
        return [sp for sp in shooting.shot_specs(self.game, m) if sp.ap_cost <= m.ap]

    def current_spec(self, m: ModelState):  # noqa: ANN201
        specs = self.shot_specs(m)
        if not specs:
            return None
        return specs[self.weapon_index % len(specs)]

    def declare_on(self, target: ModelState) -> None:
        m = self.selected_model()
        if m is None:
            return
        if self.mode == "shoot":
            spec = self.current_spec(m)
            if spec is None:
                self.say(f"{m.name} has nothing to shoot with (AP too low?)", bad=True)
                return
            self.apply(Shoot(m.id, target.id, spec.name))
        elif self.mode == "charge":
            self.apply(Charge(m.id, target.id))

    def open_ability_menu(self) -> None:
        m = self.selected_model()
        if m is None or not self.own(m):
            self.say("Select one of your models first", bad=True)
            return
        g = self.game
        arm = g.armoury(m)
        table = {a.name: a for a in abilities_of(m, arm)}
        items: list[tuple[str, Action | None, str]] = []
        seen_walls: set[str] = set()
        for a in abilities.candidates(g, self.s.active_player):
            if not isinstance(a, UseAbility) or a.model != m.id:
                continue
            ab = table.get(a.ability)
            cost = f"{ab.ap_cost} AP" if ab else "?"
            title = ab.title if ab else a.ability
            if ab is not None:
                reach = f', {ab.range:g}"' if ab.range else ""
                cost += f"{reach}: {effect_words(ab)}"
            if a.target:
                t = self.s.model(a.target)
                items.append((f"{title} -> {t.name if t else a.target} ({cost})", a, ""))
            elif a.at is not None:
                if a.ability not in seen_walls:
                    seen_walls.add(a.ability)
                    items.append((f"{title} — click where ({cost})", a, "place"))
            else:
                items.append((f"{title} ({cost})", a, ""))
        for ab in abilities_of(m, arm):
            if not any(
                it[1] is not None and it[1].ability == ab.name
                for it in items
                if isinstance(it[1], UseAbility)
            ):
                if ab.timing.value == "reaction":
                    why = f"reaction — offered when an enemy shoots at {m.name}"
                elif ab.effect == "ranged_attack":
                    why = "a ranged attack — Shoot (S) in the shooting step; W picks it"
                elif ab.effect == "distraction":
                    why = "Advances step: drag a path to slip out of a melee"
                elif ab.timing.value == "passive" or ab.effect not in abilities.ACTIVE_EFFECTS:
                    why = "passive — applies automatically when it matters"
                elif m.ap < ab.ap_cost:
                    why = f"needs {ab.ap_cost} AP, has {m.ap}"
                elif m.buffs.get(f"used:{ab.name}"):
                    why = "used this turn"
                elif (step := abilities.TIMING_STEP.get(ab.timing.value)) != self.s.step:
                    why = f"used in the {SPECS[step].title if step in SPECS else ab.timing.value} step"
                else:
                    why = "no target in reach"
                reach = f', {ab.range:g}"' if ab.range else ""
                items.append((f"{ab.title} ({ab.ap_cost} AP{reach}: {effect_words(ab)})", None, why))
        if not items:
            self.say(f"{m.name} has no abilities", bad=True)
            return
        self.menu_items = items
        by_title = {ab.title: ab.description for ab in abilities_of(m, arm)}
        self.menu_notes = [
            next((d for t, d in by_title.items() if label.startswith(t)), "") for label, _, _ in items
        ]
        self.mode = "ability"
        self._banner_key = None

    def open_pending_menu(self) -> None:
        g = self.game
        p = self.s.pending
        if p is None:
            return
        items: list[tuple[str, Action | None, str]] = []
        for a in g.legal_actions():
            if isinstance(a, CounterCharge):
                items.append((f"Counter-charge {self.s.model(a.target).name}", a, ""))
            elif isinstance(a, React):
                m = self.s.model(a.model)
                ab = next((x for x in abilities_of(m, g.armoury(m)) if x.name == a.ability), None)
                words = f" — {effect_words(ab)}" if ab else ""
                cost = ab.ap_cost if ab else "?"
                items.append((f"{m.name}: {ab.title if ab else a.ability} ({cost} AP){words}", a, ""))
            elif isinstance(a, Attack | Defend):
                items.append((action_label(g, a), a, ""))
            elif isinstance(a, Decline):
                items.append(("Decline" if p.kind not in ("duel_call", "duel_defend") else "Pass", a, ""))
        self.menu_items = items
        self.mode = "ability"
        self._banner_key = None

    def choose_menu(self, k: int) -> None:
        if not (0 <= k < len(self.menu_items)):
            return
        label, action, extra = self.menu_items[k]
        if action is None:
            self.say(
                f"{label}: {extra}", bad=not extra.startswith(("passive", "reaction", "a ranged", "Adv"))
            )
            return
        if extra == "place":
            assert isinstance(action, UseAbility)
            self.place_ability = action
            self.mode = "place"
            self.menu_items = []
            self.say("Click the board where it goes (Esc cancels)")
            return
        self.apply(action)

    def undo(self) -> None:
        if self.worker.pending:
            self.worker.cancel()
        if self.game.undo():
            self.after_change()
            self.say("Undone")
            # A human undoing into a bot's turn would let the bot replay at once: pause the bots.
            if self.is_bot_turn():
                self.bot_paused = True
                self.say("Undone — bots paused (P resumes)")
        else:
            self.say("Nothing to undo: dice have been rolled since (dice are never taken back)", bad=True)

    def save(self, path: str | None = None) -> None:
        from skirmish.engine.replay import save_game

        try:
            path = path or save_path()
            save_game(self.game, path)
        except (OSError, DataError) as exc:
            self.say(f"Could not save to {path}: {exc}", bad=True)
            return
        self.say(f"Saved to {Path(path).resolve()}")

    def load(self, path: str | None = None) -> None:
        from skirmish.data.errors import DataError
        from skirmish.engine.replay import load_replay

        try:
            path = path or save_path()
            rep = load_replay(path)
            game = rep.play()
        except (DataError, OSError) as exc:
            self.say(f"Could not load {path}: {exc}", bad=True)
            return
        policies = [p if p in NAMED else None for p in self.policies]
        self.app.replace(BattleScene(self.app, game, policies, replay_out=self.replay_out, speed=self.speed))
        self.app.top().say(f"Loaded {path}")  # type: ignore[attr-defined]

    def screenshot(self) -> None:
        from skirmish.ui.snapshot import save_game_png

        try:
            from skirmish.data.userdirs import default_output

            path = str(default_output("screenshots", f"skirmish-board-{self.game.seed}-t{self.s.turn}.png"))
            save_game_png(self.game, path, self.app.size)
        except (OSError, DataError, pygame.error) as exc:
            self.say(f"Could not save the picture to {path}: {exc}", bad=True)
            return
        self.say(f"Board picture saved to {path}")

    # ------------------------------------------------------------------ banner actions
    def actions(self) -> list[Button]:
        """What the player to act may do now, with hotkeys; greyed buttons carry the reason."""
        g = self.game
        s = self.s
        out: list[Button] = []
        if g.over:
            out.append(Button("Results", "Enter", self.show_end))
            out.append(Button("Replay", "W", self.watch_replay))
            return out
        if self.is_bot_turn():
            who = s.players[s.active_player]
            out.append(
                Button(
                    f"{who.name}'s bot is thinking" if not self.bot_paused else "bots paused",
                    "P",
                    self.toggle_pause,
                )
            )
            out.append(Button(f"Speed: {SPEEDS[self.speed][0]}", "+/-", self.faster))
            out.append(Button("Undo", "U", self.undo, g.can_undo, "dice rolled since"))
            return out
        if s.pending is not None:
            for k, (label, action, why) in enumerate(self.menu_items[:9]):
                out.append(Button(label, str(k + 1), partial(self.choose_menu, k), action is not None, why))
            return out
        allowed = SPECS[s.step].actions
        sel = self.selected_model()
        mine = sel is not None and sel.player == s.active_player and sel.active
        m = cast(ModelState, sel)  # read only where `mine` holds, so never None there
        need = "select one of your models"
        if "Deploy" in allowed:
            out.append(Button("Drag a model to re-place it", "drag", None, mine, "" if mine else need))
            out.append(Button("Keep this deployment, done", "E", self.end_step))
        if "Move" in allowed or "Advance" in allowed:
            kind = self.path_kind(m) if mine else None
            verb = "Move" if "Move" in allowed else "Advance/Disengage"
            why = need if not mine else self.why_no_path(m)
            out.append(
                Button(
                    f"{verb}: drag a path, Enter commits",
                    "Enter",
                    self.commit_path,
                    kind is not None and len(self.path) >= 2,
                    why if kind is None else "draw a path",
                )
            )
        if "TakeCover" in allowed:
            ok = mine and movement.can_take_cover(g, m)
            out.append(
                Button("Take Cover", "C", self.take_cover, ok, need if not mine else self.why_no_cover(m))
            )
        if "Shoot" in allowed:
            ok = mine and shooting.can_fire(g, m) and bool(self.shot_specs(m))
            why = (
                need
                if not mine
                else (
                    f"{m.name} has fired"
                    if m.fired
                    else "in melee"
                    if g.in_melee(m)
                    else "nothing to shoot with"
                )
            )
            spec = self.current_spec(m) if mine else None
            label = "Shoot" + (f" ({spec_words(spec)})" if spec else "")
            out.append(Button(label, "S", lambda: self.start_target("shoot"), ok, why))
            if mine and len(self.shot_specs(m)) > 1:
                out.append(Button("Next weapon", "W", self.next_weapon))
        if "Charge" in allowed:
            ok = mine and charges.can_charge(g, m)
            why = (
                need
                if not mine
                else (
                    "has charged"
                    if m.charge_declared or m.charged
                    else "in melee"
                    if g.in_melee(m)
                    else "Taking Cover"
                    if m.taking_cover
                    else "cannot charge"
                )
            )
            out.append(Button("Charge", "H", lambda: self.start_target("charge"), ok, why))
        if "UseAbility" in allowed:
            out.append(Button("Abilities", "A", self.open_ability_menu, mine, need))
        out.append(
            Button(f"End {SPECS[s.step].title}", "E", self.end_step)
        ) if "Deploy" not in allowed else None
        out.append(Button("Undo", "U", self.undo, g.can_undo, "no action since the last dice"))
        return out

    def why_no_path(self, m: ModelState) -> str:
        g = self.game
        if m.moved or m.advanced:
            return f"{m.name} has already moved"
        if m.taking_cover:
            return f"{m.name} is Taking Cover"
        if g.in_melee(m) and self.s.step == "movement":
            return f"{m.name} is in melee"
        if self.s.step == "advances":
            return f"{m.name} did not win a melee"
        return f"{m.name} cannot move now"

    def why_no_cover(self, m: ModelState) -> str:
        if m.moved:
            return f"{m.name} has moved"
        if m.taking_cover:
            return "already Taking Cover"
        if m.start_cover < 2:
            return "did not start in medium/dense cover"
        return "not now"

    def next_weapon(self) -> None:
        self.weapon_index += 1
        self._banner_key = None

    def toggle_pause(self) -> None:
        self.bot_paused = not self.bot_paused
        self._banner_key = None

    def faster(self) -> None:
        self.speed = (self.speed - 1) % len(SPEEDS)
        self._banner_key = None

    def slower(self) -> None:
        self.speed = (self.speed + 1) % len(SPEEDS)
        self._banner_key = None

    def show_end(self) -> None:
        from skirmish.ui.endscreen import EndScene

        self.app.push(EndScene(self.app, self.game, replay_out=self.replay_out))

    def watch_replay(self) -> None:
        from skirmish.engine.replay import Replay
        from skirmish.ui.replay_view import ReplayScene

        g = self.game
        rep = Replay(
            g.scenario,
            g.troupes,
            g.options,
            g.seed,
            [p.bot for p in self.s.players],
            list(g.history),
            g.hash(),
            g.result(),
        )
        self.app.push(ReplayScene(self.app, rep))

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse_down(event)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.mouse_up(event)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse_move(event)
        elif event.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.log_panel.rect.collidepoint(pos):
                self.log_panel.scroll_by(3 * event.y)
            else:
                self.view.zoom_at(1.15**event.y, *pos)

    def key(self, event: pygame.event.Event) -> None:
        k = event.key
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        if self.handover is not None and not ctrl and k not in (pygame.K_F1, pygame.K_F12, pygame.K_g):
            # the card takes the acting keys (so an E meant for the last step lands nowhere); saving,
            # loading, leaving and help still work under it
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_ESCAPE):
                self.dismiss_card()
            return
        if self.show_help:
            if k in (pygame.K_F1, pygame.K_ESCAPE, pygame.K_SLASH, pygame.K_QUESTION):
                self.show_help = False
            return
        if self.duel_key(k, ctrl):
            return
        if (
            k == pygame.K_F1
            or k == pygame.K_QUESTION
            or (k == pygame.K_SLASH and event.mod & pygame.KMOD_SHIFT)
        ):
            self.show_help = True
        elif ctrl and k == pygame.K_s:
            self.save()
        elif ctrl and k in (pygame.K_l, pygame.K_o):
            self.load()
        elif ctrl and k == pygame.K_z or k == pygame.K_u:
            self.undo()
        elif k == pygame.K_f:
            self.view.fit(tuple(self.board_rect))
        elif k == pygame.K_F12:
            self.screenshot()
        elif k == pygame.K_g:
            self.show_legend = not self.show_legend
        elif ctrl and k == pygame.K_q:
            self.leave()
        elif k == pygame.K_ESCAPE and self.nothing_to_cancel():
            if self.time - self._esc_at <= ESC_TWICE_SECONDS:
                self.leave()
                return
            self._esc_at = self.time
            self.say("Press Esc again to leave the battle (the game is saved first); Ctrl+Q leaves at once")
        elif k == pygame.K_ESCAPE:
            self.message = ""  # a mode change drops the old hint or refusal (UX review 12)
            if self.mode != "idle" or self.path:
                self.mode = "idle"
                self.menu_items = [] if self.s.pending is None else self.menu_items
                self.clear_path()
                self.ruler = None
            elif self.los_model:
                self.los_model = None
            else:
                self.selected = None
            self._banner_key = None
        elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            d = 40
            self.view.pan(
                {pygame.K_LEFT: d, pygame.K_RIGHT: -d}.get(k, 0),
                {pygame.K_UP: d, pygame.K_DOWN: -d}.get(k, 0),
            )
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.faster()
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.slower()
        elif k == pygame.K_p:
            self.toggle_pause()
        elif k == pygame.K_v:
            target = self.hovered or self.selected
            self.los_model = None if self.los_model == target else target
            self._los_cache = None
        elif k == pygame.K_o:
            self.show_odds = not self.show_odds
            self.say(
                "Learners' odds "
                + ("on: hover a target while shooting or charging" if self.show_odds else "off")
            )
        elif k == pygame.K_r:
            self.mode = "idle" if self.mode == "ruler" else "ruler"
            self.ruler = None
            if self.mode == "ruler":
                self.say("Ruler: drag to measure (base edge to base edge). R again to stop.")
        elif self.game.over:
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.show_end()
            elif k == pygame.K_w:
                self.watch_replay()
        elif not self.human_turn():
            return
        elif pygame.K_1 <= k <= pygame.K_9 and self.menu_items:
            self.choose_menu(k - pygame.K_1)
        elif k == pygame.K_d and self.s.pending is not None:
            self.apply(Decline())
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.commit_path()
        elif k == pygame.K_BACKSPACE:
            if len(self.path) > 2:
                self.path.pop()
            else:
                self.clear_path()
        elif k == pygame.K_e:
            self.end_step()
        elif k == pygame.K_c:
            self.take_cover()
        elif k == pygame.K_s:
            self.start_target("shoot")
        elif k == pygame.K_h:
            self.start_target("charge")
        elif k == pygame.K_w:
            self.next_weapon()
        elif k == pygame.K_a:
            self.open_ability_menu()
        elif k == pygame.K_TAB:
            self.cycle_selection()
        self._banner_key = None

    def nothing_to_cancel(self) -> bool:
        return self.mode == "idle" and not self.path and not self.los_model and self.selected is None

    def leave(self) -> None:
        """Back to the menu (or quit when the battle was opened alone), the game written first:
        to the --replay file when one was asked for, and always to the save file (Ctrl+L resumes)."""
        if self.worker.pending:
            self.worker.cancel()
        g = self.game
        words: list[str] = []
        bad = False
        if g.history:
            from skirmish.engine.replay import save_game

            try:
                quick: str | None = save_path()
            except (OSError, DataError) as exc:  # the data folder cannot be made: say so, leave all the same
                quick = None
                words.append(f"Could not save: {exc}")
                bad = True
            for path in dict.fromkeys(p for p in (self.replay_out, quick) if p):
                try:
                    save_game(g, path)
                    words.append(f"Battle saved to {Path(path).resolve()}")
                except OSError as exc:  # leaving never fails; say what could not be written
                    words.append(f"Could not save to {path}: {exc}")
                    bad = True
        self.app.pop()
        if self.app.stack and words and hasattr(self.app.top(), "say"):
            self.app.top().say(" · ".join(words), bad)  # type: ignore[attr-defined]

    def cycle_selection(self) -> None:
        mine = [m for m in self.game.player_models(self.s.active_player) if m.active]
        if not mine:
            return
        ids = [m.id for m in mine]
        k = (ids.index(self.selected) + 1) % len(ids) if self.selected in ids else 0
        self.select(ids[k])

    def select(self, model_id: str | None) -> None:
        if model_id != self.selected:
            self.clear_path()
            self.weapon_index = 0
        self.selected = model_id
        self._banner_key = None

    def mouse_down(self, event: pygame.event.Event) -> None:
        pos = event.pos
        if self.handover is not None:
            if event.button == 1:
                self.dismiss_card()
            return
        if self.show_help:
            self.show_help = False
            return
        if self.duel is not None and event.button == 1 and self.duel_building() and self.duel.click(pos):
            return
        if event.button == 2 or (event.button == 1 and pygame.key.get_mods() & pygame.KMOD_SHIFT):
            self.dragging, self.drag_kind, self.drag_start_px = True, "pan", pos
            return
        if event.button == 3:
            m = self.model_at(*pos)
            self.los_model = None if m is None or self.los_model == m.id else m.id
            self._los_cache = None
            return
        if event.button != 1:
            return
        if pos[1] < self.banner_h:
            click_buttons(self.buttons, pos)
            return
        if self.log_panel.rect.collidepoint(pos):
            i = self.log_panel.event_at(pos)
            if i is not None:
                self.log_panel.selected = i
                self.highlight = frozenset(self.game.log[i].models)
                self.highlight_until = self.time + 4.0
            return
        if not self.board_rect.collidepoint(pos):
            return
        b = self.view.to_board(*pos)
        m = self.model_at(*pos)
        if self.mode == "ruler":
            self.dragging, self.drag_kind = True, "ruler"
            self.ruler = (b, b)
            return
        if self.mode in ("shoot", "charge"):
            sel = self.selected_model()
            if m is not None and m.active and sel is not None and self.game.enemies(m, sel):
                self.declare_on(m)
            else:
                self.say("Click an enemy model (Esc cancels)", bad=True)
            return
        if self.mode == "place" and self.place_ability is not None:
            a = self.place_ability
            self.apply(UseAbility(a.model, a.ability, at=_round_pt(b)))
            return
        sel = self.selected_model()
        if self.human_turn() and sel is not None and self.path and self._near_path_end(pos):
            self.dragging, self.drag_kind = True, "leg"
            self.live = self.path[-1]
            self.drag_start_px = pos
            return
        if m is not None:
            if m.id != self.selected:
                self.select(m.id)
            if self.own(m):
                if self.s.step == "deploy":
                    self.dragging, self.drag_kind = True, "deploy"
                    self.live = (float(self.s.xy[m.index, 0]), float(self.s.xy[m.index, 1]))
                elif self.path_kind(m) is not None:
                    self.dragging, self.drag_kind = True, "leg"
                    if not self.path:
                        self.path = [(float(self.s.xy[m.index, 0]), float(self.s.xy[m.index, 1]))]
                    self.live = self.path[-1]
            self.drag_start_px = pos
            return
        if not self.path:
            self.select(None)

    def _near_path_end(self, pos: tuple[int, int]) -> bool:
        ex, ey = self.view.to_screen(*self.path[-1])
        m = self.selected_model()
        r = (self.s.radii[m.index] * self.view.scale if m else 6) + 6
        return math.hypot(ex - pos[0], ey - pos[1]) <= r

    def mouse_move(self, event: pygame.event.Event) -> None:
        pos = event.pos
        hov = self.model_at(*pos) if self.board_rect.collidepoint(pos) else None
        new = hov.id if hov is not None else None
        if new != self.hovered:
            self.hovered = new
        if not self.dragging:
            return
        if self.drag_kind == "pan":
            self.view.pan(pos[0] - self.drag_start_px[0], pos[1] - self.drag_start_px[1])
            self.drag_start_px = pos
        elif self.drag_kind in ("leg", "deploy"):
            self.live = _round_pt(self.view.to_board(*pos))
        elif self.drag_kind == "ruler" and self.ruler is not None:
            self.ruler = (self.ruler[0], self.view.to_board(*pos))

    def mouse_up(self, event: pygame.event.Event) -> None:
        if not self.dragging or event.button not in (1, 2):
            return
        kind = self.drag_kind
        self.dragging = False
        self.drag_kind = ""
        if kind == "deploy":
            m = self.selected_model()
            if m is not None and self.live is not None:
                moved = math.hypot(event.pos[0] - self.drag_start_px[0], event.pos[1] - self.drag_start_px[1])
                if moved > CLICK_SLOP_PX:
                    self.apply(Deploy(m.id, _round_pt(self.view.to_board(*event.pos))))
            self.live = None
        elif kind == "leg":
            end = _round_pt(self.view.to_board(*event.pos))
            # A press and release a few pixels apart is a click (selection), never a 0.1" leg.
            moved = math.hypot(event.pos[0] - self.drag_start_px[0], event.pos[1] - self.drag_start_px[1])
            if (
                self.path
                and moved > CLICK_SLOP_PX
                and math.hypot(end[0] - self.path[-1][0], end[1] - self.path[-1][1]) > 0.05
            ):
                self.path.append(end)
            if len(self.path) < 2:
                self.clear_path()
            self.live = None
            self._banner_key = None

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        self.time += dt
        g = self.game
        for mid in [k for k, a in self.anims.items() if self.time - a.start > a.duration]:
            del self.anims[mid]
        if self.highlight and self.time > self.highlight_until:
            self.highlight = frozenset()
        if self.toast is not None and self.time > self.toast.until:
            self.toast = None
        if g.over:
            if not self._ended:
                self._ended = True
                self._banner_key = None
                if self.replay_out:
                    from skirmish.engine.replay import save_game

                    save_game(g, self.replay_out)
                    self.say(f"Game over. Replay written to {self.replay_out}")
                if all(b is not None for b in self.bots) or self.app.auto_end:
                    self.show_end()
            return
        if self.s.step != "deploy" and self.name == "deploy":
            self.app.replace(self.to_battle())
            return
        self.note_point()
        if self.is_bot_turn() and self.handover is None:
            self.drive_bot()

    def drive_bot(self) -> None:
        if self.bot_paused:
            return
        g = self.game
        bot = self.bots[self.s.active_player]
        assert bot is not None
        if not self.worker.pending:
            if self.time < self._next_bot_time or self.anims and SPEEDS[self.speed][1] > 0:
                return
            self.worker.start(bot, g)
            return
        action = self.worker.poll(g)
        if action is None:
            return
        try:
            g.apply(action)
        except IllegalAction as exc:
            self.bot_paused = True
            self.say(f"The bot chose an illegal action ({exc}); bots paused", bad=True)
            return
        self.after_change()
        self._next_bot_time = self.time + SPEEDS[self.speed][1]

    def to_battle(self) -> BattleScene:
        scene = BattleScene(
            self.app, self.game, self.policies, replay_out=self.replay_out, bots=self.bots, speed=self.speed
        )
        scene.view = self.view
        scene.time = self.time
        scene._guard_until = self._guard_until
        scene.handover = self.handover
        return scene

    # ------------------------------------------------------------------ drawing
    def model_positions(self) -> dict[str, tuple[float, float]]:
        out: dict[str, tuple[float, float]] = {}
        for mid, a in self.anims.items():
            t = min(1.0, (self.time - a.start) / a.duration)
            total = path_length(a.path)
            from skirmish.battlefield.measure import truncate_path

            p = truncate_path(a.path, total * t)[-1]
            out[mid] = (float(p[0]), float(p[1]))
        if self.drag_kind == "deploy" and self.live is not None and self.selected:
            out[self.selected] = self.live
        return out

    def draw(self, surf: pygame.Surface) -> None:
        g = self.game
        surf.fill(theme.BG)
        clip = surf.get_clip()
        surf.set_clip(self.board_rect)
        surf.blit(self.static.get(self.view, g, self.text), self.board_rect.topleft)
        targets: frozenset[str] = frozenset()
        sel = self.selected_model()
        if self.mode in ("shoot", "charge") and sel is not None:
            targets = frozenset(
                t.id for t in self.s.models if t.active and g.enemies(t, sel) and g.sees(sel, t)
            )
        marks = ModelMarks(
            self.selected,
            self.hovered,
            self.highlight,
            frozenset(),
            targets,
            self.model_positions(),
            self.time,
        )
        if self.los_model:
            self.draw_los(surf)
        self.draw_toast_marks(surf, before_models=True)
        self._label_rects = draw_models(surf, self.view, g, self.text, marks, show_removed=False)
        self._float_rects = []
        self.draw_toast_marks(surf, before_models=False)
        if self.los_model:
            self.draw_los_labels(surf)
        self.draw_path(surf)
        self.draw_ruler(surf)
        if self.mode in ("shoot", "charge"):
            self.draw_target_line(surf)
        draw_pursuit_panel(surf, self.text, g, self.board_rect, getattr(self.app, "seats", 1), self.selected)
        surf.set_clip(clip)
        self.draw_banner(surf)
        hov = self.s.model(self.hovered) if self.hovered else None
        self.log_panel.sync(g.log, self.text)
        self.log_panel.draw(surf, self.text, g.log)
        self.card.draw(surf, self.text, g, hov or sel)  # over the log's top when it needs the room
        if self.mode == "ability" and self.menu_items and self.s.pending is None:
            m = self.selected_model()
            title = f"Abilities of {m.name}" if m is not None else "Abilities"
            draw_menu(surf, self.text, title, self.menu_items, self.menu_notes, self.board_rect)
        if self.show_odds and self.mode in ("shoot", "charge"):
            self.draw_odds(surf)
        if self.toast is not None:
            self.draw_toast(surf)
        if self.show_legend:
            self.draw_legend(surf)
        if self.duel is not None:
            self.duel.draw(surf, self.text, g, self.duel_viewer(), self.board_rect)
        if self.handover is not None:
            draw_card(surf, self.text, self.handover, self.board_rect)
        if self.show_help:
            draw_help(surf, self.text, "Battle", self.help_lines())

    def draw_banner(self, surf: pygame.Surface) -> None:
        g = self.game
        w = surf.get_width()
        msg = self.message if self.time < self.message_until else ""
        self.buttons = self.actions()
        key = (
            len(g.history),
            id(g.state),
            self.selected,
            self.mode,
            tuple(self.path),
            msg,
            w,
            g.over,
            self.bot_paused,
            self.speed,
            tuple(b.caption() for b in self.buttons),
            self.weapon_index,
            tuple(m[0] for m in self.menu_items),
            self.text.scale,
            self.worker.pending,
            getattr(self.app, "seats", 1),
        )
        if key != self._banner_key or self._banner_surface is None:
            self._banner_key = key
            bs = pygame.Surface((w, self.banner_h))
            bs.fill(theme.PANEL)
            pygame.draw.line(bs, theme.PANEL_EDGE, (0, self.banner_h - 1), (w, self.banner_h - 1), 2)
            side = self.s.players[self.s.active_player]
            title = f"{g.scenario.title} — {turn_words(g)}"
            bs.blit(self.text.render(title, 22, theme.TEXT, bold=True), (12, 6))
            actor = result_words(g)
            col = theme.ACCENT if g.over else theme.side_text_colour(side.index)
            y2 = 6 + self.text.line_height(22)
            bs.blit(self.text.render(actor, 19, col, bold=True), (12, y2))
            sc = self.text.render(score_words(g) + "   [F1] help  [G] legend", 16, theme.TEXT_DIM)
            bs.blit(sc, (w - sc.get_width() - 12, 8))
            st = "" if pursuit_rules(g) is not None else status_words(g)  # the Pursuit has its own panel
            if st:
                line = self.text.render(st, 16, theme.ACCENT)
                bs.blit(line, (w - line.get_width() - 12, 8 + self.text.line_height(16)))
            x, y = 12, y2 + self.text.line_height(19) + 4
            for b in self.buttons:
                cap_w = self.text.size(b.caption(), 15, True)[0] + 12
                extra = self.text.size(f"({b.reason})", 13)[0] + 6 if not b.enabled and b.reason else 0
                if x + cap_w + extra > w - 12:
                    x, y = 12, y + self.text.line_height(15) + 10
                rect = draw_button(bs, self.text, b, x, y, 15)
                b.rect = rect.copy()
                x = rect.right + 4
                if not b.enabled and b.reason:
                    bs.blit(self.text.render(f"({b.reason})", 13, theme.TEXT_DIM), (x, y + 4))
                    x += extra
                x += 8
            if msg:
                colour = theme.TEXT_BAD if self.message_bad else theme.TEXT_GOOD
                lab = self.text.render(msg, 16, colour, bold=True)
                room = w - 36 - self.text.size(title, 22, True)[0]
                if lab.get_width() <= room:
                    bs.blit(lab, (w - lab.get_width() - 12, 8 + self.text.line_height(16) + 4))
                else:  # a long message gets its own lines under the buttons, never over the title
                    y += self.text.line_height(15) + 10
                    lines = self.text.wrap(msg, 16, w - 24, bold=True)
                    for ln in lines[:2]:
                        bs.blit(self.text.render(ln, 16, colour, bold=True), (12, y))
                        y += self.text.line_height(16)
            self._banner_surface = bs
        surf.blit(self._banner_surface, (0, 0))

    def draw_path(self, surf: pygame.Surface) -> None:
        m = self.selected_model()
        if m is None or (not self.path and self.live is None) or self.drag_kind == "deploy":
            return
        kind = self.path_kind(m)
        if kind is None:
            return
        pts = list(self.path)
        if self.live is not None and pts and self.live != pts[-1]:
            pts.append(self.live)
        if len(pts) < 1:
            return
        budget = self.budget(m, kind)
        used = path_length(np.asarray(pts))
        left = budget - used
        problem = self.check_path(m, kind, pts) if len(pts) >= 2 else None
        colour = (230, 40, 40) if problem or left < -1e-6 else (255, 255, 255)
        scr = [self.view.to_screen(*p) for p in pts]
        r_in = float(self.s.radii[m.index])
        # the range ring: where the base centre can still reach (straight line), around the start and the end
        sx, sy = scr[0]
        pygame.draw.circle(surf, (255, 255, 255), (sx, sy), (budget + r_in) * self.view.scale, 1)
        if len(scr) >= 2 and left > 0:
            pygame.draw.circle(surf, (250, 230, 120), scr[-1], (left + r_in) * self.view.scale, 1)
        if len(scr) >= 2:
            corridor, hits = self.path_corridor(m, pts, bool(problem))
            for poly in corridor:
                ring = self.view.to_screen_array(np.asarray(poly.exterior.coords))
                if len(ring) >= 3:
                    pygame.draw.polygon(surf, (20, 20, 20), ring, 3)
                    pygame.draw.polygon(surf, colour, ring, 1)
            for poly in hits:  # where the swept base runs into what the engine refused
                ring = self.view.to_screen_array(np.asarray(poly.exterior.coords))
                if len(ring) >= 3:  # outlined, so the base or wall under it stays readable
                    pygame.draw.polygon(surf, (90, 0, 0), ring, 5)
                    pygame.draw.polygon(surf, (255, 40, 40), ring, 3)
            pygame.draw.lines(surf, (0, 0, 0), False, scr, 5)
            pygame.draw.lines(surf, colour, False, scr, 3)
        for a, b, pa, pb in zip(pts, pts[1:], scr, scr[1:], strict=False):
            leg = math.hypot(b[0] - a[0], b[1] - a[1])
            lab = self.text.render(f'{leg:.1f}"', 15, (20, 20, 20), bold=True)
            mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
            pygame.draw.rect(surf, (255, 255, 230), (mx - 2, my - 18, lab.get_width() + 4, lab.get_height()))
            surf.blit(lab, (mx, my - 18))
        ex, ey = scr[-1]
        ghost = pygame.Surface((int(2 * r_in * self.view.scale + 4),) * 2, pygame.SRCALPHA)
        c = ghost.get_width() / 2
        pygame.draw.circle(ghost, (*theme.side_colour(m.player), 110), (c, c), r_in * self.view.scale)
        pygame.draw.circle(ghost, (*colour, 220), (c, c), r_in * self.view.scale, 2)
        surf.blit(ghost, (ex - c, ey - c))
        info = (
            f'{kind.__name__}: total {used:.1f}" · {kind.__name__} left {max(0.0, left):.1f}" of {budget:g}"'
        )
        if problem:
            info += f" — {problem}"
        elif len(pts) >= 2:
            info += " — Enter commits, Backspace removes a leg"
        lab = self.text.render(info, 16, (255, 255, 255) if not problem else (255, 200, 200), bold=True)
        bx = min(ex + 14, self.board_rect.right - lab.get_width() - 6)
        by = ey + r_in * self.view.scale + 14  # below the ghost base, not over it
        pygame.draw.rect(surf, (20, 20, 24), (bx - 4, by - 2, lab.get_width() + 8, lab.get_height() + 4))
        surf.blit(lab, (bx, by))

    def path_corridor(
        self, m: ModelState, pts: list[tuple[float, float]], problem: bool
    ) -> tuple[list[shapely.Polygon], list[shapely.Polygon]]:
        """The swept base (the path buffered by the base radius: what the engine checks, UX review 8)
        and, when the path is refused, where that corridor overlaps impassable terrain or another
        base. Cached per path; the engine's verdict stays the authority, this only shows where."""
        key = (m.id, tuple(pts), problem, len(self.game.history))
        if self._corridor is not None and self._corridor[0] == key:
            return self._corridor[1]
        g = self.game
        s = self.s
        r = float(s.radii[m.index])
        line = shapely.LineString(pts)
        swept = line.buffer(r, quad_segs=8)
        hits: list[shapely.Polygon] = []
        if problem:
            body = line.buffer(r - 1e-3, quad_segs=8)
            start = shapely.Point(pts[0]).buffer(r + 1e-3)
            if not movement.flies(m):
                for i in np.flatnonzero(g.table.impassable):
                    hits.extend(_polys(body.intersection(g.table.polygons[i])))
            for o in s.models:
                if o is m or not o.active:
                    continue
                reach = float(s.radii[o.index]) + (0.0 if not g.enemies(m, o) else 0.05)
                base = shapely.Point(s.xy[o.index]).buffer(reach, quad_segs=8)
                hits.extend(_polys(body.intersection(base).difference(start)))
        out = (_polys(swept), hits)
        self._corridor = (key, out)
        return out

    def ruler_allowed(self) -> bool:
        return self.game.options.premeasure or self.s.step in ("deploy", "movement", "advances")

    def draw_ruler(self, surf: pygame.Surface) -> None:
        if self.ruler is None:
            return
        a, b = self.ruler
        pa, pb = self.view.to_screen(*a), self.view.to_screen(*b)
        ma = self.model_at(*pa)
        mb = self.model_at(*pb)
        pygame.draw.line(surf, (0, 0, 0), pa, pb, 4)
        pygame.draw.line(surf, theme.ACCENT, pa, pb, 2)
        # The engine decides what a ruler may tell (R-C1): your own model's path, up to its move.
        sel = self.selected_model()
        own = sel if sel is not None and self.own(sel) else (ma if ma is not None and self.own(ma) else None)
        text = ruler.reading(self.game, [a, b], model=own, ends=(ma, mb)).text()
        lab = self.text.render(text, 16, (20, 20, 20), bold=True)
        pygame.draw.rect(
            surf, theme.ACCENT, (pb[0] + 8, pb[1] - 10, lab.get_width() + 6, lab.get_height() + 2)
        )
        surf.blit(lab, (pb[0] + 11, pb[1] - 9))

    def draw_target_line(self, surf: pygame.Surface) -> None:
        m = self.selected_model()
        t = self.s.model(self.hovered) if self.hovered else None
        if m is None or t is None or not self.game.enemies(m, t):
            return
        a = self.view.to_screen(*self.s.xy[m.index])
        b = self.view.to_screen(*self.s.xy[t.index])
        sees = self.game.sees(m, t)
        pygame.draw.line(surf, (255, 80, 80) if sees else (120, 120, 120), a, b, 2)
        words = "in sight" if sees else "out of sight"
        if self.game.options.premeasure:
            words += f' · {self.game.distance(m, t):.1f}"'
            if self.mode == "shoot" and (spec := self.current_spec(m)) is not None:
                words += f' (range {spec.range:g}")'
            elif self.mode == "charge":
                words += f' (charge {m.profile.charge:g}")'
        else:
            words += " · distance hidden (premeasure off)"
        lab = self.text.render(words, 15, (255, 255, 255), bold=True)
        pygame.draw.rect(surf, (20, 20, 24), (b[0] + 12, b[1] + 8, lab.get_width() + 8, lab.get_height() + 4))
        surf.blit(lab, (b[0] + 16, b[1] + 10))

    def los_geometry(self) -> list:
        """Shadows of sight blockers seen from the model's centre, and the engine's evidence per model."""
        key = (self.los_model, len(self.game.history), id(self.game.state), id(self.game.table))
        if self._los_cache is not None and self._los_cache[0] == key:
            return self._los_cache[1]
        g = self.game
        s = self.s
        m = s.model(self.los_model) if self.los_model else None
        out: list = []
        if m is None or not m.active:
            self._los_cache = (key, out)
            return out
        c = s.xy[m.index]
        shadows: list[shapely.Polygon] = []
        for i in np.flatnonzero(g.table.blocks_sight):
            poly = g.table.polygons[i]
            ring = np.asarray(poly.exterior.coords)
            quads = []
            for a, b in zip(ring[:-1], ring[1:], strict=True):
                fa = a + (a - c) / max(1e-6, np.hypot(*(a - c))) * 200
                fb = b + (b - c) / max(1e-6, np.hypot(*(b - c))) * 200
                q = shapely.Polygon([a, b, fb, fa])
                if q.is_valid and q.area > 1e-9:
                    quads.append(q)
            shadow = shapely.union_all([poly, *quads]).intersection(g.table.bounds)
            shadows.extend(p for p in shapely.get_parts(shadow) if isinstance(p, shapely.Polygon))
        lines = []
        for o in s.models:
            # only enemies: lines to your own models were noise (UX review 9)
            if o is m or not o.active or not g.enemies(m, o):
                continue
            ev = sight_evidence(g.table, s.xy, s.radii, m.index, o.index, g.options.models_block_sight)
            sees = g.sees(m, o)
            lines.append((o, ev, sees))
        out = [shadows, lines]
        self._los_cache = (key, out)
        return out

    def draw_los(self, surf: pygame.Surface) -> None:
        geo = self.los_geometry()
        self._los_labels = {}
        if not geo:
            return
        shadows, lines = geo
        x, y, w, h = self.board_rect
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        for poly in shadows:
            pts = [(px - x, py - y) for px, py in self.view.to_screen_array(np.asarray(poly.exterior.coords))]
            if len(pts) >= 3:
                pygame.draw.polygon(shade, (20, 20, 40, 90), pts)
        surf.blit(shade, (x, y))
        m = self.s.model(self.los_model)
        c = self.view.to_screen(*self.s.xy[m.index])
        blocked: dict[str, list[tuple[ModelState, float, float]]] = {}
        for o, ev, sees in lines:
            oc = self.view.to_screen(*self.s.xy[o.index])
            if ev.visible and ev.line is not None:
                a, b = self.view.to_screen(*ev.line[0]), self.view.to_screen(*ev.line[1])
                pygame.draw.line(surf, (40, 200, 60), a, b, 2)
            elif sees:
                pygame.draw.line(surf, (170, 90, 220), c, oc, 2)
                lab = self.text.render("sensed", 13, (60, 0, 90), bold=True)
                surf.blit(lab, ((c[0] + oc[0]) / 2, (c[1] + oc[1]) / 2))
            else:
                steps = 14
                for k in range(0, steps, 2):
                    p0 = (c[0] + (oc[0] - c[0]) * k / steps, c[1] + (oc[1] - c[1]) * k / steps)
                    p1 = (c[0] + (oc[0] - c[0]) * (k + 1) / steps, c[1] + (oc[1] - c[1]) * (k + 1) / steps)
                    pygame.draw.line(surf, (210, 40, 40), p0, p1, 2)
                if ev.blocker:
                    blocked.setdefault(ev.blocker, []).append((o, (c[0] + oc[0]) / 2, (c[1] + oc[1]) / 2))
        self._los_labels = blocked
        lab = self.text.render(
            f"Line of sight from {m.name} to enemies (green: a clear line; red: blocked; shade: behind "
            "sight blockers) — V or right-click to close",
            15,
            (255, 255, 255),
            bold=True,
        )
        pygame.draw.rect(surf, (20, 20, 24), (x + 6, y + 6, lab.get_width() + 8, lab.get_height() + 4))
        surf.blit(lab, (x + 10, y + 8))

    def draw_los_labels(self, surf: pygame.Surface) -> None:
        """One high-contrast label per blocking piece, on the piece itself, over the bases (UX review 9)."""
        full = model_labels(self.game)
        for blocker, who in self._los_labels.items():
            at = self.blocker_anchor(blocker)
            px, py = self.view.to_screen(*at) if at is not None else (who[0][1], who[0][2])
            names = ", ".join(dict.fromkeys(full.get(o.id, (o.name,))[0] for o, _, _ in who))
            lab = self.text.render(
                f"{blocker.replace('_', ' ')} blocks sight to {names}", 14, (255, 255, 255), bold=True
            )
            box = pygame.Rect(0, 0, lab.get_width() + 10, lab.get_height() + 4)
            box.center = (round(px), round(py))
            box.clamp_ip(self.board_rect)
            pygame.draw.rect(surf, (30, 10, 10), box, border_radius=3)
            pygame.draw.rect(surf, (210, 40, 40), box, 1, border_radius=3)
            surf.blit(lab, (box.x + 5, box.y + 2))

    def blocker_anchor(self, name: str) -> tuple[float, float] | None:
        """A point inside the named terrain piece (board inches), or None for 'models' and the like."""
        table = self.game.table
        for nm, poly in zip(table.names, table.polygons, strict=False):
            if nm == name:
                p = poly.representative_point()
                return (float(p.x), float(p.y))
        return None

    def odds_lines(self) -> list[str]:
        from skirmish.engine.effects.damage import saves_of
        from skirmish.engine.steps.melee import melee_score
        from skirmish.rules.odds import melee_odds, shot_odds

        g = self.game
        m = self.selected_model()
        t = self.s.model(self.hovered) if self.hovered else None
        if m is None or t is None or not g.enemies(m, t) or not t.active:
            return []
        if not g.sees(m, t):  # no odds for a target that cannot be chosen (R-B3)
            return [f"{t.name} is out of {m.name}'s sight: no odds"]
        if self.mode == "shoot":
            spec = self.current_spec(m)
            if spec is None:
                return []
            attack, dodge = shooting.shot_scores(g, m, t, spec)
            armour, shield = saves_of(g, t)
            odds = shot_odds(
                max(attack.base_total, 0),
                max(dodge.base_total, 0),
                armour,
                shield,
                t.taking_cover,
                spec.shield_breaker,
                spec.damage,
                t.hp,
            )
            lines = [
                f"{m.name} shoots {t.name} with {spec.title}",
                f"Shooting: {die_sum(attack)}",
                f"Dodge: {die_sum(dodge)}",
                f"Saves: armour {f'{armour}+' if armour else 'none'} · "
                f"shield {f'{shield}+' if shield else 'none'}"
                + (" · Taking Cover: 3+ Wall Shield" if t.taking_cover else ""),
            ]
            if odds.impossible:
                lines.append("Impossible Shot (score not above 0)")
            else:
                lines.append(f"hit {odds.hit:.0%} · wound {odds.wound:.0%} · KO {odds.ko:.0%}")
            if t.taking_cover:
                lines.append(f"first a Perception test: {m.profile.perception} or less on a D6")
            lines.append("if it is in range — the odds never reveal the distance")
            return lines
        friends, their_friends = friends_in_melee(g, m, t)
        mine = melee_score(g, m, [t], friends)
        if not m.charged:  # the bonus a charge that reaches will bring, named like every other modifier
            mine = Score(mine.stat_name, mine.stat, (*mine.modifiers, Modifier("charged this turn", 1)))
        theirs = melee_score(g, t, [m], their_friends)
        from skirmish.engine.core.state import melee_weapon

        mw, tw = melee_weapon(m, g.armoury(m)), melee_weapon(t, g.armoury(t))
        ma, ms = saves_of(g, m)
        ta, ts = saves_of(g, t)
        bonus = 0
        mo = melee_odds(
            mine.base_total + bonus,
            theirs.base_total,
            attacker_armour=ma,
            attacker_shield=ms,
            defender_armour=ta,
            defender_shield=ts,
            attacker_shield_breaker=bool(mw and mw.shield_breaker),
            defender_shield_breaker=bool(tw and tw.shield_breaker),
            attacker_damage=mw.damage if mw else 1,
            defender_damage=tw.damage if tw else 1,
            attacker_hp=m.hp,
            defender_hp=t.hp,
        )
        return [
            f"{m.name} charges {t.name} (one exchange, 1 against 1, if the charge reaches)"
            + (
                f"; friends already in the melee: {friends} of yours, {their_friends} of theirs"
                if friends or their_friends
                else ""
            ),
            f"{m.name}: {die_sum(mine)}",
            f"{t.name}: {die_sum(theirs)}",
            f"{t.name} wounded {mo.defender_wounded:.0%} (KO {mo.defender_ko:.0%}) · "
            f"{m.name} wounded {mo.attacker_wounded:.0%} (KO {mo.attacker_ko:.0%})",
        ]

    def draw_odds(self, surf: pygame.Surface) -> None:
        lines = self.odds_lines()
        if not lines:
            return
        lh = self.text.line_height(15)
        width = max(self.text.size(ln, 15)[0] for ln in lines) + 20
        x = self.board_rect.x + 10
        y = self.board_rect.bottom - lh * len(lines) - 20
        pygame.draw.rect(surf, (18, 20, 30), (x, y, width, lh * len(lines) + 12))
        pygame.draw.rect(surf, theme.ACCENT, (x, y, width, lh * len(lines) + 12), 1)
        for k, ln in enumerate(lines):
            surf.blit(
                self.text.render(ln, 15, theme.ACCENT if k == 0 else theme.TEXT), (x + 10, y + 6 + k * lh)
            )

    def draw_toast_marks(self, surf: pygame.Surface, *, before_models: bool) -> None:
        """Under the bases: who acted on whom (a line); over them: the result rising from the model."""
        t = self.toast
        if t is None:
            return
        s = self.s
        pos = self.model_positions()

        def at(mid: str) -> tuple[float, float] | None:
            m = s.model(mid)
            if m is None or m.removed and mid not in pos:
                return None
            p = pos.get(mid, (float(s.xy[m.index, 0]), float(s.xy[m.index, 1])))
            return self.view.to_screen(*p)

        if before_models:
            for a, b in t.pairs:
                pa, pb = at(a), at(b)
                if pa is None or pb is None:
                    continue
                pygame.draw.line(surf, (20, 20, 20), pa, pb, 5)
                pygame.draw.line(surf, t.colour, pa, pb, 3)
            return
        age = self.time - t.start
        lift = round(12 * min(1.0, age / 1.5))  # a short rise, then it stays put, readable
        labs, wanted = [], []
        for mid, words, colour in t.floats:
            p = at(mid)
            m = s.model(mid)
            if p is None or m is None:
                continue
            lab = self.text.render(words, 20, colour, bold=True)
            r = float(s.radii[m.index]) * self.view.scale + 4
            labs.append(lab)
            wanted.append((p[0], p[1] - r - lift, p[1] + r + 10, lab.get_width() + 10, lab.get_height() + 4))
        taken = [*self._label_rects.values(), self.toast_rect()]
        for lab, rect in zip(labs, place_floats(wanted, taken, self.board_rect), strict=True):
            if rect is None:
                continue
            pygame.draw.rect(surf, (20, 20, 24), rect, border_radius=4)
            surf.blit(lab, (rect.x + 5, rect.y + 2))
            self._float_rects.append(rect)

    def toast_surface(self, width: int) -> pygame.Surface:
        """The toast box, rendered once per toast and width."""
        t = self.toast
        assert t is not None
        key = (id(t), width, self.text.scale)
        if self._toast_cache is not None and self._toast_cache[0] == key:
            return self._toast_cache[1]
        head = self.text.render(t.headline, 24, t.colour, bold=True)
        lh = self.text.line_height(15)
        wrapped: list[str] = []
        for ln in t.lines:
            wrapped.extend(self.text.wrap(ln, 15, width - 24))
        if len(wrapped) > 7:
            wrapped = wrapped[:6] + [f"… {len(wrapped) - 6} more lines in the log"]
        h = 12 + head.get_height() + 6 + lh * len(wrapped) + 10
        box = pygame.Surface((width, h), pygame.SRCALPHA)
        box.fill((18, 20, 28, 228))
        pygame.draw.rect(box, t.colour, box.get_rect(), 2)
        box.blit(head, (12, 10))
        y = 12 + head.get_height() + 6
        for ln in wrapped:
            box.blit(self.text.render(ln, 15, theme.TEXT), (12, y))
            y += lh
        self._toast_cache = (key, box)
        return box

    def toast_rect(self) -> pygame.Rect:
        """Where the toast box goes: at the top or the bottom of the board, whichever is away from
        the models involved (the floats keep clear of it too)."""
        width = int(min(760, self.board_rect.w * 0.62))
        box = self.toast_surface(width)
        s = self.s
        ys = [
            self.view.to_screen(*s.xy[m.index])[1]
            for mid in self.toast.models  # type: ignore[union-attr]
            if (m := s.model(mid)) is not None
        ]
        x0, y0 = self.view.to_screen(0, self.game.scenario.board.height)
        left = max(self.board_rect.x + 8, int(x0) + 8)
        if ys and sum(ys) / len(ys) < self.board_rect.centery:
            y = self.board_rect.bottom - box.get_height() - 8
        else:
            y = self.board_rect.y + 8 + (34 if self.los_model else 0)
        return pygame.Rect(min(left, self.board_rect.right - box.get_width() - 8), y, *box.get_size())

    def draw_toast(self, surf: pygame.Surface) -> None:
        rect = self.toast_rect()
        surf.blit(self.toast_surface(rect.w), rect.topleft)

    def legend_surface(self) -> pygame.Surface:
        """The compact legend (terrain patterns, sides, status icons), drawn once per text scale."""
        key = (self.text.scale, id(self.game))
        if self._legend is not None and self._legend[0] == key:
            return self._legend[1]
        probe = pygame.Surface((10, 10))
        bottom = draw_legend(probe, self.text, self.game, 0, 0, 400)
        words = [w for _, w in LEGEND + ICON_LEGEND] + [
            f"{p.name} — {p.troupe.title}" for p in self.s.players
        ]
        width = max(self.text.size(w, 15)[0] for w in words) + 34 + 24
        surf = pygame.Surface((width, bottom + 16 + self.text.line_height(13)))
        surf.fill((30, 32, 40))
        pygame.draw.rect(surf, theme.ACCENT, surf.get_rect(), 1)
        y = draw_legend(surf, self.text, self.game, 12, 8, width - 24)
        surf.blit(self.text.render("G hides the legend", 13, theme.TEXT_DIM), (12, y + 2))
        self._legend = (key, surf)
        return surf

    def draw_legend(self, surf: pygame.Surface) -> None:
        leg = self.legend_surface()
        surf.blit(leg, (self.board_rect.right - leg.get_width() - 8, self.board_rect.y + 8))

    def help_lines(self) -> list[tuple[str, str]]:
        return [
            ("click", "select a model (hover: profile card)"),
            ("drag", "from the model: one leg of a path"),
            ("drag end", "from the ghost base: the next leg"),
            ("Enter", "commit the path (Move/Advance)"),
            ("Backspace", "remove the last leg"),
            ("Esc", "cancel the tool / path / selection"),
            ("Esc twice, Ctrl+Q", f"leave the battle (saved to {SAVE_NAME} first)"),
            ("E", "end this step (pass); ignored for a moment after the step or seat changes"),
            ("Enter, click", "dismiss the hand-over / turn summary card"),
            ("C", "Take Cover"),
            ("S", "shoot: then click the target"),
            ("W", "next weapon or ranged ability"),
            ("H", "charge: then click the target"),
            ("A", "abilities of the selected model"),
            ("1-9", "choose from a menu / pending decision"),
            ("D", "decline a counter-charge or reaction"),
            ("U, Ctrl+Z", "undo (back to the last dice roll)"),
            ("V, right-click", "line of sight of a model"),
            ("O", "learners' odds while targeting"),
            ("R", "ruler (movement; everything with premeasure)"),
            ("Tab", "next model of yours"),
            ("wheel", "zoom toward the cursor; scrolls the log"),
            ("middle/shift drag", "pan; arrows pan too"),
            ("F", "fit the board to the window"),
            ("G", "legend: terrain patterns, sides, status icons"),
            ("P", "pause / resume bots"),
            ("+ / -", "bot speed"),
            ("Ctrl+S", f"save the game ({SAVE_NAME} in the saves folder)"),
            ("Ctrl+L", "load the saved game"),
            ("F12", "save a picture of the board"),
            ("F1, ?", "this help"),
        ]


class DeployScene(BattleScene):
    """Deployment: models start auto-deployed in their zones; drag to re-place, E to accept."""

    name = "deploy"
