"""The battle controller: everything the table does that is not drawing or input, headless.

It applies actions and turns what happened into an outcome (a toast, animations, the skipped
steps), undoes, saves and loads, keeps the selection and the path being drawn, drives the bots on
their worker thread, keeps the end-step guard and the hand-over card, and says what the banner
offers now. It imports no pygame (an import-linter contract says so), so tests drive it without a
window. The rules are the engine's: every condition is asked of `skirmish.engine.queries`
(`why_not`, `why_not_model`, `matchup`) or `Game.legal_actions`, never written here again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from skirmish.battlefield.measure import path_length, truncate_path
from skirmish.bots.registry import NAMED
from skirmish.data.errors import DataError
from skirmish.engine import STEPS, IllegalAction, queries
from skirmish.engine.core.actions import Action, Advance, Charge, Disengage, EndStep, Move, Shoot, TakeCover
from skirmish.engine.replay import load_replay, save_game
from skirmish.ui.botworker import BotWorker
from skirmish.ui.control.menu_items import Choices, ability_choices, pending_choices
from skirmish.ui.control.odds import odds_lines
from skirmish.ui.control.saves import picture_path, save_path, write_on_leave
from skirmish.ui.control.turns import END_STEP_GUARD_SECONDS, HandOver, TurnPoint, card_for, skip_words
from skirmish.ui.table_words import names_of
from skirmish.ui.toasts import Toast, outcome_toast

if TYPE_CHECKING:
    from skirmish.bots.base import Bot
    from skirmish.engine import Game, Refusal
    from skirmish.engine.queries import ModelState, ShotSpec

SPEEDS = (("fast", 0.0), ("brisk", 0.15), ("watch", 0.5), ("slow", 1.2))
"""Pause between bot actions (seconds) for watching a bot game; 0 plays as fast as the bot thinks."""

ANIM_SECONDS = 0.3
PATH_KINDS: tuple[type[Move] | type[Advance] | type[Disengage], ...] = (Move, Advance, Disengage)
PathKind = type[Move] | type[Advance] | type[Disengage]


@dataclass
class Anim:
    """A model sliding along the path it moved (drawn positions only)."""

    path: np.ndarray
    start: float
    duration: float


def round_pt(p: tuple[float, float]) -> tuple[float, float]:
    return (round(float(p[0]), 3), round(float(p[1]), 3))


class BattleControl:
    """One battle at the table. `policies[p]` is a bot policy name or None for a person."""

    def __init__(
        self,
        game: Game,
        policies: list[str | None],
        *,
        replay_out: str | None = None,
        bots: list[Bot | None] | None = None,
        speed: int = 1,
    ) -> None:
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
        self.speed = speed
        self.bot_paused = False
        self._next_bot_time = 0.0
        self.time = 0.0
        self.names = names_of(game)
        self.selected: str | None = None
        self.weapon_index = 0
        self.path: list[tuple[float, float]] = []
        self.choices: Choices | None = None
        """The open numbered list (a model's abilities, or the answers to a pending decision)."""
        self.message = ""
        self.message_bad = False
        self.message_until = 0.0
        self.highlight: frozenset[str] = frozenset()
        self.highlight_until = 0.0
        self.anims: dict[str, Anim] = {}
        self.toast: Toast | None = None
        self.handover: HandOver | None = None
        """The hand-over / turn-summary card over the table (issue 16, item 11); Enter dismisses it."""
        self.hotseat = sum(b is None for b in self.bots) >= 2
        self.revision = 0
        """Counts the changes made through this controller; answers are cached per revision."""
        self.on_change: list[Callable[[], None]] = []
        """Called after every change (an action, a bot's action, an undo): the scene resets its tool."""
        self._seen_log = len(game.log)
        self._point = TurnPoint.of(game)
        self._guard_until = -1.0
        self._asked: tuple[object, dict[tuple[object, ...], Refusal | None]] = (None, {})
        self._checked: tuple[object, str | None] = (None, None)
        self._ended = False

    def successor(self) -> BattleControl:
        """A fresh controller for the same game, bots and clock (deployment hands over to battle)."""
        nxt = BattleControl(
            self.game, self.policies, replay_out=self.replay_out, bots=self.bots, speed=self.speed
        )
        nxt.time = self.time
        nxt._guard_until = self._guard_until
        nxt.handover = self.handover
        return nxt

    # ------------------------------------------------------------------ who, what
    @property
    def state(self):  # noqa: ANN201 - the live state (its type is the engine's)
        return self.game.state

    def is_bot_turn(self) -> bool:
        g = self.game
        return not g.over and self.bots[g.state.active_player] is not None

    def human_turn(self) -> bool:
        return not self.game.over and not self.is_bot_turn()

    def selected_model(self) -> ModelState | None:
        return None if self.selected is None else self.state.model(self.selected)

    def own(self, m: ModelState | None) -> bool:
        return m is not None and m.player == self.state.active_player and self.human_turn()

    def people(self) -> list[bool]:
        return [b is None for b in self.bots]

    def say(self, text: str, bad: bool = False, seconds: float = 6.0) -> None:
        self.message = text
        self.message_bad = bad
        self.message_until = self.time + seconds

    def shown_message(self) -> str:
        return self.message if self.time < self.message_until else ""

    def named(self, words: str) -> str:
        """The engine names some models by index ("model 3"); players read names."""
        models = self.state.models

        def sub(m: re.Match[str]) -> str:
            i = int(m.group(1))
            return models[i].name if 0 <= i < len(models) else m.group(0)

        words = re.sub(r"(?:enemy )?model (\d+)", sub, words)
        # terrain ids in backticks (`earth_wall_1`) read as words: "earth wall 1"
        return re.sub(r"`([A-Za-z0-9_]+)`", lambda m: m.group(1).replace("_", " "), words)

    # ------------------------------------------------------------------ the engine's answers, cached
    def _key(self) -> object:
        g = self.game
        return (self.revision, len(g.history), len(g.log), id(g.state))

    def ask(self, kind: str, m: ModelState, **fields: str) -> Refusal | None:
        """`queries.why_not_model`, asked once per position (the banner asks every frame)."""
        key = self._key()
        if self._asked[0] != key:
            self._asked = (key, {})
        memo = self._asked[1]
        q = (kind, m.id, *sorted(fields.items()))
        if q not in memo:
            memo[q] = queries.why_not_model(self.game, kind, m, **fields)
        return memo[q]

    def path_kind(self, m: ModelState) -> PathKind | None:
        """Which path action the model would make now (Move, Advance or Disengage): the first the
        engine would take from it."""
        return next((k for k in PATH_KINDS if self.ask(k.__name__, m) is None), None)

    def budget(self, m: ModelState, kind: type[Action]) -> float:
        return queries.move_allowance(self.game, kind.__name__, m)

    def check_path(self, m: ModelState, kind: type[Action], pts: list[tuple[float, float]]) -> str | None:
        """The engine's verdict on a path, for live feedback: `why_not` of the very action Enter sends."""
        key = (m.id, kind.__name__, tuple(pts), self._key())
        if key == self._checked[0]:
            return self._checked[1]
        problem: str | None = None
        if len(pts) >= 2:
            refusal = queries.why_not(self.game, kind(m.id, tuple(pts)))  # type: ignore[call-arg]
            problem = None if refusal is None else self.named(str(refusal))
        self._checked = (key, problem)
        return problem

    def shot_specs(self, m: ModelState) -> list[ShotSpec]:
        """The weapons and ranged abilities W cycles through: those the model can pay for now."""
        return [sp for sp in queries.shot_options(self.game, m) if sp.ap_cost <= m.ap]

    def current_spec(self, m: ModelState) -> ShotSpec | None:
        specs = self.shot_specs(m)
        return specs[self.weapon_index % len(specs)] if specs else None

    def why_not_shoot(self, m: ModelState) -> Refusal | str | None:
        """The engine's refusal of a shot by `m` with its current weapon, whatever the target."""
        spec = self.current_spec(m)
        options = queries.shot_options(self.game, m)
        if spec is None and not options:
            return "nothing to shoot with"
        return self.ask("Shoot", m, weapon=spec.name if spec is not None else options[0].name)

    def odds_lines(self, kind: str, target: str | None) -> list[str]:
        m = self.selected_model()
        t = self.state.model(target) if target else None
        spec = self.current_spec(m) if m is not None else None
        return odds_lines(self.game, m, t, kind, spec)

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
                    spec = next((sp for sp in queries.shot_options(g, a) if sp.name == action.weapon), None)
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
        self.revision += 1
        fast = self.speed == 0 and all(b is not None for b in self.bots)
        if len(g.log) < self._seen_log:
            self._seen_log = len(g.log)
        self.message = ""
        self.message_bad = False
        new = g.log[self._seen_log :]
        toast = outcome_toast(g, new, self.time, note, self.named)
        if toast is not None:
            self.toast = toast
            self.highlight = frozenset(toast.models)
            self.highlight_until = toast.until
        for e in new:
            path = e.data.get("path") if e.data else None
            if path and e.models and not fast:
                self.anims[e.models[0]] = Anim(np.asarray(path, dtype=float), self.time, ANIM_SECONDS)
        skips = [self.named(e.text) for e in new if e.kind == "skip"]
        self._seen_log = len(g.log)
        self.path = []
        self.choices = None
        if skips:  # a step that ended by itself, or that the other side had nothing to do in, is told
            self.say(skip_words(skips), seconds=8.0)
        self.note_point()
        m = self.selected_model()
        if m is not None and not m.active:
            self.selected = None
        if self.state.pending is not None and not self.is_bot_turn():
            self.choices = pending_choices(g)
        for callback in self.on_change:
            callback()

    def note_point(self) -> None:
        """After any change: if the step or the player to act moved on, guard the end-step key and
        raise the hand-over / turn-summary card (turns.py)."""
        now = TurnPoint.of(self.game)
        if now == self._point:
            return
        before, self._point = self._point, now
        self._guard_until = self.time + END_STEP_GUARD_SECONDS
        card = card_for(self.game, before, now, self.people(), hotseat=self.hotseat)
        if card is not None:
            self.handover = card

    def dismiss_card(self) -> None:
        self.handover = None
        self._guard_until = self.time + END_STEP_GUARD_SECONDS  # the Enter that closed it is not an E

    def end_step(self) -> None:
        if not self.human_turn():
            return
        if self.time < self._guard_until:
            title = STEPS[self.state.step].title
            self.say(f"E ignored for a moment: {title} has just begun — press E again to end it", bad=True)
            return
        if self.state.pending is not None:
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
        self.apply(kind(m.id, tuple(self.path)))  # type: ignore[call-arg]

    def take_cover(self) -> None:
        m = self.selected_model()
        if m is not None:
            self.apply(TakeCover(m.id))

    def open_abilities(self) -> bool:
        """Open the ability menu of the selected model (True when it opened)."""
        m = self.selected_model()
        if m is None or not self.own(m):
            self.say("Select one of your models first", bad=True)
            return False
        found = ability_choices(self.game, m, self.game.legal_actions())
        if found is None:
            self.say(f"{m.name} has no abilities", bad=True)
            return False
        self.choices = found
        return True

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

    # ------------------------------------------------------------------ selection, weapons, bots
    def select(self, model_id: str | None) -> None:
        if model_id != self.selected:
            self.path = []
            self.weapon_index = 0
        self.selected = model_id

    def cycle_selection(self) -> None:
        mine = [m for m in self.game.player_models(self.state.active_player) if m.active]
        if not mine:
            return
        ids = [m.id for m in mine]
        k = (ids.index(self.selected) + 1) % len(ids) if self.selected in ids else 0
        self.select(ids[k])

    def next_weapon(self) -> None:
        self.weapon_index += 1

    def toggle_pause(self) -> None:
        self.bot_paused = not self.bot_paused

    def faster(self) -> None:
        self.speed = (self.speed - 1) % len(SPEEDS)

    def slower(self) -> None:
        self.speed = (self.speed + 1) % len(SPEEDS)

    def update(self, dt: float) -> bool:
        """Advance the clock and expire what was shown; when the game has just ended, write the
        replay (if asked for) and return True, once: the end screen may show."""
        self.time += dt
        for mid in [k for k, a in self.anims.items() if self.time - a.start > a.duration]:
            del self.anims[mid]
        if self.highlight and self.time > self.highlight_until:
            self.highlight = frozenset()
        if self.toast is not None and self.time > self.toast.until:
            self.toast = None
        g = self.game
        if not g.over or self._ended:
            return False
        self._ended = True
        if self.replay_out:
            save_game(g, self.replay_out)
            self.say(f"Game over. Replay written to {self.replay_out}")
        return True

    def act(self) -> None:
        """Once a frame while the game runs: raise the card if the game moved on, let the bot act."""
        self.note_point()
        if self.is_bot_turn() and self.handover is None:
            self.drive_bot()

    def drive_bot(self) -> None:
        if self.bot_paused:
            return
        g = self.game
        bot = self.bots[self.state.active_player]
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

    def positions(self) -> dict[str, tuple[float, float]]:
        """Where the animated models are drawn now (board inches)."""
        out: dict[str, tuple[float, float]] = {}
        for mid, a in self.anims.items():
            t = min(1.0, (self.time - a.start) / a.duration)
            p = truncate_path(a.path, path_length(a.path) * t)[-1]
            out[mid] = (float(p[0]), float(p[1]))
        return out

    # ------------------------------------------------------------------ files
    def save(self, path: str | None = None) -> None:
        try:
            path = path or save_path()
            save_game(self.game, path)
        except (OSError, DataError) as exc:
            self.say(f"Could not save to {path}: {exc}", bad=True)
            return
        self.say(f"Saved to {Path(path).resolve()}")

    def load(self, path: str | None = None) -> tuple[Game, list[str | None], str] | None:
        """The saved game, the seats to play it (bots stay bots) and its path; None (said) if unreadable."""
        try:
            path = path or save_path()
            game = load_replay(path).play()
        except (DataError, OSError) as exc:
            self.say(f"Could not load {path}: {exc}", bad=True)
            return None
        return game, [p if p in NAMED else None for p in self.policies], path

    def leave(self) -> tuple[str, bool]:
        """Write the game before leaving (`saves.write_on_leave`): what to tell, and if anything failed."""
        if self.worker.pending:
            self.worker.cancel()
        return write_on_leave(self.game, self.replay_out)

    def picture_path(self) -> str:
        return picture_path(self.game)
