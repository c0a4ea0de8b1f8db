"""The start menu: scenario, troupes (shipped or a custom file), who plays each side, rule options, seed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pygame

from skirmish.bots.registry import NAMED
from skirmish.data.catalogue import find_scenario, find_troupe, shipped
from skirmish.data.errors import DataError
from skirmish.data.options import RuleOptions
from skirmish.ui import theme
from skirmish.ui.control.saves import save_path
from skirmish.ui.scene import Button, Scene, TextPrompt, click_buttons, draw_button, draw_help, draw_panel

if TYPE_CHECKING:
    from skirmish.data.scenario import Scenario
    from skirmish.data.troupe import Troupe
    from skirmish.ui.scene import Host

SEATS = (None, *NAMED)
SEAT_WORDS: dict[str | None, str] = {None: "a person", **{name: f"{name} bot" for name in NAMED}}
SEAT_NOTES = {
    None: "you play this side with the mouse and keys (two people: hotseat, the seat is handed over)",
    "heuristic": "a bot that weighs the odds, cover and the objectives",
    "guess": "the heuristic bot judging ranges by eye: it may waste shots and fall short on charges",
    "random": "a bot that picks any legal action (for testing)",
}
TOGGLES = ("premeasure", "priority_roll", "shoot_into_melee", "models_block_sight", "cover_shield_in_melee")
OPTION_WORDS: dict[str, tuple[str, str, str]] = {
    "premeasure": (
        "Measure before declaring",
        "on: distances are shown before a shot or charge is declared",
        "off: ranges are guessed: declare the shot or charge, then it is measured (R-C1)",
    ),
    "priority_roll": (
        "Who acts first",
        "a D6 each turn: the highest roll acts first (R-T2)",
        "fixed: the sides in their order every turn",
    ),
    "shoot_into_melee": (
        "Shooting and melee",
        "models in melee may shoot and be shot (R-C6)",
        "models in melee neither shoot nor are shot at (R-C6)",
    ),
    "models_block_sight": (
        "Models block sight",
        "on: other bases block lines of sight, as terrain does (R-B3)",
        "off: only terrain blocks sight (R-B3)",
    ),
    "cover_shield_in_melee": (
        "Wall Shield in melee",
        "on: a model Taking Cover counts as having a shield: its attackers take -1 (R-M4, R-C4)",
        "off: the Wall Shield only gives its save, no -1 to attackers",
    ),
}
"""Each rule option in words: the menu's label, and what the game does with it on and off."""


def troupe_words(troupe: Troupe) -> str:
    """`Aang, Katara, Sokka, Toph, Appa — 5 models, 300 points`: who is in it and what it costs."""
    from skirmish.data.building import cost_breakdown

    lines = cost_breakdown(troupe)
    who = ", ".join(f"{ln.count} × {ln.title}" if ln.count > 1 else ln.title for ln in lines)
    models = sum(ln.count for ln in lines)
    return f"{who} — {models} models, {sum(ln.total for ln in lines)} points"


@dataclass
class Row:
    label: str
    value: Callable[[], str]
    change: Callable[[int], None]
    prev: Button | None = None
    nxt: Button | None = None
    note: Callable[[], str] | None = None
    """A dim line under the row that says what the choice means (the troupe's models, an option's effect)."""


class MenuScene(Scene):
    name = "menu"

    def __init__(
        self,
        app: Host,
        scenario: Scenario,
        troupes: list[Troupe],
        options: RuleOptions,
        *,
        seed: int = 0,
        bots: str | None = None,
        replay_out: str | None = None,
    ) -> None:
        super().__init__(app)
        self.scenario_names = [p.stem for p in shipped("scenarios")]
        self.troupe_names = [p.stem for p in shipped("troupes")]
        self.scenario = scenario
        self.troupes = list(troupes)
        self.troupe_labels = [t.name for t in troupes]
        self.options = options
        self.seed = seed
        self.seats: list[str | None] = (
            [bots for _ in scenario.sides] if bots else [s.bot for s in scenario.sides]
        )
        self.replay_out = replay_out
        self.cursor = 0
        self.message = ""
        self.message_bad = False
        self.prompt: TextPrompt | None = None
        self.show_help = False
        self.buttons: list[Button] = []
        self.rows: list[Row] = []
        self.build_rows()

    # ------------------------------------------------------------------ model
    def build_rows(self) -> None:
        rows = [
            Row("Scenario", lambda: f"{self.scenario.title} ({self.scenario.name})", self.change_scenario)
        ]
        for i, side in enumerate(self.scenario.sides):
            rows.append(
                Row(
                    f"{side.name}: troupe",
                    partial(lambda i: f"{self.troupes[i].title} ({self.troupe_labels[i]})", i),
                    partial(self.change_troupe, i),
                    note=partial(lambda i: troupe_words(self.troupes[i]), i),
                )
            )
            rows.append(
                Row(
                    f"{side.name}: played by",
                    partial(lambda i: SEAT_WORDS.get(self.seats[i]) or str(self.seats[i]), i),
                    partial(self.change_seat, i),
                    note=partial(lambda i: SEAT_NOTES.get(self.seats[i], ""), i),
                )
            )
        for name in TOGGLES:
            label, on, off = OPTION_WORDS[name]
            rows.append(
                Row(
                    f"{label} ({name})",
                    partial(lambda n: "on" if getattr(self.options, n) else "off", name),
                    partial(lambda n, d: self.toggle(n), name),
                    note=partial(lambda n, on, off: on if getattr(self.options, n) else off, name, on, off),
                )
            )
        rows.append(
            Row(
                "seed",
                lambda: str(self.seed),
                lambda d: setattr(self, "seed", max(0, self.seed + d)),
                note=lambda: (
                    "every die of the game comes from this number: the same seed rolls the same dice"
                ),
            )
        )
        self.rows = rows
        self.cursor = min(self.cursor, len(rows) - 1)

    def say(self, text: str, bad: bool = False) -> None:
        self.message = text
        self.message_bad = bad

    def change_scenario(self, d: int) -> None:
        names = self.scenario_names
        k = names.index(self.scenario.name) if self.scenario.name in names else 0
        try:
            sc = find_scenario(names[(k + d) % len(names)])
            troupes = [find_troupe(s.troupe) if s.troupe else self.troupes[0] for s in sc.sides]
        except DataError as exc:
            self.say(str(exc), True)
            return
        self.scenario = sc
        self.troupes = troupes
        self.troupe_labels = [t.name for t in troupes]
        self.options = sc.options
        self.seats = [s.bot for s in sc.sides]
        self.build_rows()

    def change_troupe(self, i: int, d: int) -> None:
        names = self.troupe_names
        cur = self.troupe_labels[i]
        k = names.index(cur) if cur in names else -1
        name = names[(k + d) % len(names)]
        try:
            self.troupes[i] = find_troupe(name)
        except DataError as exc:
            self.say(str(exc), True)
            return
        self.troupe_labels[i] = name

    def custom_troupe(self) -> None:
        row = self.rows[self.cursor].label
        side = next((i for i, s in enumerate(self.scenario.sides) if row.startswith(s.name + ":")), 0)

        def done(path: str) -> None:
            from skirmish.data.building import building_problems

            try:
                t = find_troupe(path.strip())
            except DataError as exc:
                self.say(" · ".join(str(p) for p in exc.problems) or str(exc), True)
                return
            problems = building_problems(t, path, self.scenario.points_limit)
            if problems:
                self.say(" · ".join(str(p) for p in problems), True)
                return
            self.troupes[side] = t
            self.troupe_labels[side] = path.strip()
            self.say(f"{self.scenario.sides[side].name} plays {t.title}")

        self.prompt = TextPrompt(f"Troupe file for {self.scenario.sides[side].name}", "troupes/", done)

    def change_seat(self, i: int, d: int) -> None:
        k = SEATS.index(self.seats[i]) if self.seats[i] in SEATS else 0
        self.seats[i] = SEATS[(k + d) % len(SEATS)]

    def toggle(self, name: str) -> None:
        self.options = self.options.with_overrides({name: not getattr(self.options, name)})

    def start(self) -> None:
        from skirmish.engine import Game

        try:
            game = Game(self.scenario, self.troupes, seed=self.seed, options=self.options, bots=self.seats)
        except (ValueError, DataError) as exc:
            self.say(f"Cannot start: {exc}", True)
            return
        self.app.open_battle(game, list(self.seats), replay_out=self.replay_out, deploy=True)

    def load(self) -> None:
        def done(path: str) -> None:
            from skirmish.engine.replay import load_replay

            try:
                rep = load_replay(path.strip())
                game = rep.play()
            except (DataError, OSError) as exc:
                self.say(f"Could not load {path}: {exc}", True)
                return
            seats = [b if b in NAMED else None for b in rep.bots] or [None] * len(rep.troupes)
            self.app.open_battle(game, seats, replay_out=self.replay_out)

        self.prompt = TextPrompt("Load a saved game", save_path(), done)

    def watch(self) -> None:
        def done(path: str) -> None:
            from skirmish.engine.replay import load_replay

            try:
                rep = load_replay(path.strip())
            except (DataError, OSError) as exc:
                self.say(f"Could not read {path}: {exc}", True)
                return
            self.app.open_replay(rep)

        self.prompt = TextPrompt("Watch a replay file", "", done)

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event) -> None:
        if self.prompt is not None and self.prompt.handle(event):
            if not self.prompt.active:
                self.prompt = None
            return
        if event.type == pygame.KEYDOWN:
            before = self.prompt
            self.key(event)
            if self.prompt is not None and self.prompt is not before:
                self.prompt.opened_by(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, event.pos):
                return
            for i, row in enumerate(self.rows):
                for b, d in ((row.prev, -1), (row.nxt, 1)):
                    if b is not None and b.rect is not None and b.rect.collidepoint(event.pos):
                        self.cursor = i
                        row.change(d)
                        return

    def key(self, event: pygame.event.Event) -> None:
        """One key press (a box opened here is told which key opened it, see `TextPrompt`)."""
        k = event.key
        if self.show_help:
            self.show_help = False
        elif k == pygame.K_F1 or k == pygame.K_QUESTION:
            self.show_help = True
        elif k == pygame.K_UP:
            self.cursor = (self.cursor - 1) % len(self.rows)
        elif k in (pygame.K_DOWN, pygame.K_TAB):
            self.cursor = (self.cursor + 1) % len(self.rows)
        elif k == pygame.K_LEFT:
            self.rows[self.cursor].change(-1)
        elif k in (pygame.K_RIGHT, pygame.K_SPACE):
            self.rows[self.cursor].change(1)
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
        elif k == pygame.K_f:
            self.custom_troupe()
        elif k == pygame.K_l:
            self.load()
        elif k == pygame.K_w:
            self.watch()
        elif k in (pygame.K_ESCAPE, pygame.K_q):
            self.app.quit()

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        w, h = surf.get_size()
        surf.fill(theme.BG)
        t = self.text
        surf.blit(t.render("Skirmish — Battles in the Four Kingdoms", 34, theme.ACCENT, bold=True), (40, 26))
        surf.blit(
            t.render(
                "Set up a game: Up/Down picks a line, Left/Right changes it, Enter starts; F1 lists keys.",
                18,
                theme.TEXT_DIM,
            ),
            (40, 26 + t.line_height(34)),
        )
        box = pygame.Rect(30, 100, min(1100, w - 60), h - 200)
        draw_panel(surf, box)
        y = box.y + 16
        lh = t.line_height(19) + 10
        for i, row in enumerate(self.rows):
            note = row.note() if row.note is not None else ""
            note_h = t.line_height(14) if note else 0
            if y + lh + note_h > box.bottom - 10:
                break
            if i == self.cursor:
                pygame.draw.rect(surf, (60, 66, 84), (box.x + 6, y - 4, box.w - 12, lh + note_h))
            surf.blit(t.render(row.label, 19, theme.TEXT), (box.x + 20, y))
            row.prev = Button("<", "", None)
            row.nxt = Button(">", "", None)
            r1 = draw_button(surf, t, row.prev, box.x + 330, y - 3, 17)
            val = t.render(row.value(), 19, theme.ACCENT if i == self.cursor else theme.TEXT, bold=True)
            surf.blit(val, (r1.right + 12, y))
            draw_button(surf, t, row.nxt, r1.right + 24 + max(val.get_width(), 360), y - 3, 17)
            if note:
                line = t.wrap(note, 14, box.w - (r1.right - box.x) - 40)[0]
                surf.blit(t.render(line, 14, theme.TEXT_DIM), (r1.right + 12, y + t.line_height(19) + 2))
            y += lh + note_h
        desc = t.wrap(self.scenario.description, 16, box.w - 40)
        for ln in desc[:3]:
            if y + 20 > box.bottom:
                break
            surf.blit(t.render(ln, 16, theme.TEXT_DIM), (box.x + 20, y))
            y += t.line_height(16)
        self.buttons = [
            Button("Start", "Enter", self.start),
            Button("Troupe from a file (for the side on this line)", "F", self.custom_troupe),
            Button("Load a saved game", "L", self.load),
            Button("Watch a replay", "W", self.watch),
            Button("Quit", "Esc", self.app.quit),
        ]
        x = 40
        for b in self.buttons:
            x = draw_button(surf, t, b, x, h - 80, 18).right + 12
        if self.message:
            surf.blit(
                t.render(self.message[:200], 17, theme.TEXT_BAD if self.message_bad else theme.TEXT_GOOD),
                (40, h - 40),
            )
        if self.prompt is not None:
            self.prompt.draw(surf, t)
        if self.show_help:
            draw_help(surf, t, "Menu", self.help_lines())

    def help_lines(self) -> list[tuple[str, str]]:
        return [
            ("Up / Down, Tab", "choose a line"),
            ("Left / Right, Space", "change the value"),
            ("Enter", "start the game"),
            ("F", "a custom troupe file for this side"),
            ("L", "load a saved game"),
            ("W", "watch a replay"),
            ("Esc, Q", "quit"),
            ("F1, ?", "this help"),
        ]
