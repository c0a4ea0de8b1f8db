"""The side panels: the event log with its dice, and the profile card of a model.

Both render into cached surfaces that are rebuilt only when what they show changes (a new event,
a scroll, another model hovered, a model's state changed); a frame just blits them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from skirmish.engine import STEPS as SPECS
from skirmish.ui import theme
from skirmish.ui.render import model_status
from skirmish.ui.theme import TextCache

if TYPE_CHECKING:
    from skirmish.engine import Game
    from skirmish.engine.core.log import Event
    from skirmish.engine.queries import ModelState
    from skirmish.rules.dice import Roll


@dataclass
class _Row:
    kind: str  # "turn", "step", "text", "dice"
    event: int  # index into the log (-1 for headers)
    text: str
    height: int
    rolls: tuple[Roll, ...] = ()


DIE = 18


def draw_die(surf: pygame.Surface, text: TextCache, roll: Roll, x: int, y: int) -> None:
    """One die face with its value; the size of die (D3, D6) is written small in the corner."""
    rect = pygame.Rect(x, y, DIE, DIE)
    face = (250, 250, 245) if roll.sides == 6 else (225, 235, 250)
    edge = (170, 40, 40) if roll.value == 1 else (40, 130, 60) if roll.value == roll.sides else (60, 60, 60)
    pygame.draw.rect(surf, face, rect, border_radius=4)
    pygame.draw.rect(surf, edge, rect, 2, border_radius=4)
    lab = text.render(str(roll.value), 15, (20, 20, 20), bold=True)
    surf.blit(lab, (x + (DIE - lab.get_width()) // 2, y + (DIE - lab.get_height()) // 2 + 1))


class LogPanel:
    """A scrolling event log grouped by turn and step; every die shown, clicking picks an event."""

    def __init__(self) -> None:
        self.rows: list[_Row] = []
        self._built_len = 0
        self._width = 0
        self._log_id = 0
        self.scroll = 0  # rows hidden below the bottom (0 = follow the newest)
        self.selected: int | None = None
        self.rect = pygame.Rect(0, 0, 10, 10)
        self._surface: pygame.Surface | None = None
        self._key: object = None
        self._last_group: tuple[int, str] | None = None
        self.upto: int | None = None
        self.names: dict[str, str] = {}
        """Model id -> display name, for the one-line-per-pair melee rows (set by the scene)."""
        self._built_selected: int | None = None

    def _rebuild(self, log: list[Event], text: TextCache, width: int) -> None:
        self.rows = []
        self._built_len = 0
        self._last_group = None
        self._append(log, text, width)

    def _append(self, log: list[Event], text: TextCache, width: int) -> None:
        lh = text.line_height(15)
        for i in range(self._built_len, len(log)):
            e = log[i]
            group = (e.turn, e.step)
            if self._last_group is None or group[0] != self._last_group[0]:
                self.rows.append(_Row("turn", -1, "Deployment" if e.turn == 0 else f"Turn {e.turn}", lh + 6))
            if self._last_group != group:
                title = SPECS[e.step].title if e.step in SPECS else e.step
                self.rows.append(_Row("step", -1, title, lh + 2))
            self._last_group = group
            for ln in self._event_lines(e, i, text, width):
                self.rows.append(_Row("text", i, ln, lh))
            if e.rolls:
                per = max(1, (width - 30) // (DIE + 4))
                for k in range(0, len(e.rolls), per):
                    self.rows.append(_Row("dice", i, "", DIE + 4, e.rolls[k : k + per]))
        self._built_len = len(log)

    def _event_lines(self, e: Event, i: int, text: TextCache, width: int) -> list[str]:
        """A melee reads one line per pair (`Katara 5 v Soldier 1 4 => hit, saved`); clicking it
        opens the full breakdown of every score (issue 16, item 10). Other events: their sentence."""
        from skirmish.ui.table_words import melee_lines

        pairs = melee_lines(self.names, e) if e.kind == "melee" else []
        if not pairs:
            return text.wrap(e.text, 15, width - 22)
        out: list[str] = []
        for ln in pairs:
            out.extend(text.wrap(ln, 15, width - 22))
        if i == self.selected:
            out.extend(text.wrap(e.text, 15, width - 22))
        else:
            out.append("  (click for every roll and modifier)")
        return out

    def sync(self, log: list[Event], text: TextCache, upto: int | None = None) -> None:
        """Bring the rows up to date with the log (the first `upto` events only, in the replay viewer)."""
        shown = log if upto is None else log[:upto]
        width = self.rect.w
        if (
            width != self._width
            or len(shown) < self._built_len
            or id(log) != self._log_id
            or self.selected != self._built_selected
        ):
            self._width = width
            self._log_id = id(log)
            self._built_selected = self.selected
            self._rebuild(shown, text, width)
        elif len(shown) > self._built_len:
            self._append(shown, text, width)
            self.scroll = 0

    def visible_rows(self) -> list[tuple[int, _Row]]:
        """(y offset, row) of the rows on screen, newest at the bottom."""
        out: list[tuple[int, _Row]] = []
        y = self.rect.h - 6
        end = len(self.rows) - self.scroll
        for k in range(end - 1, -1, -1):
            row = self.rows[k]
            y -= row.height
            if y < 28:
                break
            out.append((y, row))
        out.reverse()
        return out

    def scroll_by(self, rows: int) -> None:
        self.scroll = max(0, min(len(self.rows) - 1, self.scroll + rows))

    def event_at(self, pos: tuple[int, int]) -> int | None:
        if not self.rect.collidepoint(pos):
            return None
        ry = pos[1] - self.rect.y
        for y, row in self.visible_rows():
            if y <= ry < y + row.height and row.event >= 0:
                return row.event
        return None

    def draw(self, surf: pygame.Surface, text: TextCache, log: list[Event]) -> None:
        key = (self._built_len, self.scroll, self.rect.size, self.selected, len(self.rows), text.scale)
        if key != self._key or self._surface is None:
            panel = pygame.Surface(self.rect.size)
            panel.fill(theme.PANEL)
            pygame.draw.rect(panel, theme.PANEL_EDGE, panel.get_rect(), 1)
            head = "Log — click an entry to show its models; wheel scrolls"
            if self.scroll:
                head += f" (+{self.scroll} newer below)"
            panel.blit(text.render(head, 14, theme.TEXT_DIM), (8, 6))
            for y, row in self.visible_rows():
                if row.event >= 0 and row.event == self.selected:
                    pygame.draw.rect(panel, (70, 70, 40), (2, y, self.rect.w - 4, row.height))
                if row.kind == "turn":
                    panel.blit(text.render(row.text, 17, theme.ACCENT, bold=True), (8, y + 4))
                elif row.kind == "step":
                    panel.blit(text.render(row.text, 15, (160, 190, 230), bold=True), (12, y))
                elif row.kind == "text":
                    e = log[row.event] if row.event < len(log) else None
                    colour = (
                        theme.TEXT
                        if e is not None and (e.rolls or e.kind not in ("pass", "move"))
                        else theme.TEXT_DIM
                    )
                    panel.blit(text.render(row.text, 15, colour), (20, y))
                else:
                    x = 22
                    for r in row.rolls:
                        draw_die(panel, text, r, x, y + 1)
                        x += DIE + 4
            self._surface = panel
            self._key = key
        surf.blit(self._surface, self.rect.topleft)


class ProfileCard:
    """Stats, armour, shield, weapons and abilities with their range and effect (and the abilities'
    rules text), active bonuses, AP left and state of the hovered model (issue 16, item 9).

    The card is as tall as its contents (up to `max_h`), drawn over the top of the log when it is
    taller than its slot, so nothing a player needs to read is cut off.
    """

    def __init__(self) -> None:
        self._key: object = None
        self._surface: pygame.Surface | None = None
        self.rect = pygame.Rect(0, 0, 10, 10)
        self.max_h = 0

    def draw(self, surf: pygame.Surface, text: TextCache, game: Game, m: ModelState | None) -> None:
        key = (
            None
            if m is None
            else (
                m.id,
                m.name,
                tuple(sorted(m.public().items(), key=lambda kv: kv[0]).__repr__()),
                game.cover(m) if m.active else -1,
                self.rect.size,
                self.max_h,
                text.scale,
            )
        )
        if key != self._key or self._surface is None:
            self._surface = self._render(text, game, m)
            self._key = key
        surf.blit(self._surface, self.rect.topleft)

    def lines(self, text: TextCache, game: Game, m: ModelState) -> list[tuple[str, int, theme.Colour, bool]]:
        """(words, size, colour, bold) of every line, wrapped to the card: what the card shows."""
        from skirmish.ui.table_words import ability_words, buff_words, weapon_words

        p = m.profile
        arm = game.armoury(m)
        width = self.rect.w - 20
        out: list[tuple[str, int, theme.Colour, bool]] = []

        def add(words: str, size: int = 15, colour: theme.Colour = theme.TEXT, bold: bool = False) -> None:
            for k, ln in enumerate(text.wrap(words, size, width - (0 if words[:1] not in "•+" else 12))):
                out.append(((("  " if k else "") + ln), size, colour, bold))

        player = game.state.players[m.player]
        add(m.name, 20, theme.side_text_colour(m.player), True)
        elems = ", ".join(e.value for e in p.elements) or "non-bender"
        add(f'{player.name} · {elems} · base {p.base:g}"', 14, theme.TEXT_DIM)
        add(
            f'Move {p.move:g}"  AP {m.ap} left (base {p.ap})  Ranged {p.ranged}  Dodge {p.dodge}  '
            f'Combat {p.combat}  HP {m.hp}/{p.hp}  Perception {p.perception}  Charge {p.charge:g}"  '
            f'Advance {p.advance:g}"'
        )
        armour = arm.armour_by_name().get(p.armour) if p.armour else None
        shield = arm.shield_by_name().get(p.shield) if p.shield else None
        saves = f"Armour: {armour.title} {armour.save}+" if armour else "Armour: none"
        saves += f" · Shield: {shield.title} {shield.save}+" if shield else " · Shield: none"
        add(saves)
        buffs = buff_words(m)
        if buffs:
            add("Active: " + "; ".join(buffs), 15, theme.ACCENT, True)
        weapons = arm.weapon_by_name()
        for wname in p.weapons:
            w = weapons.get(wname)
            if w is not None:
                add(f"• {weapon_words(w)}")
        abilities = arm.ability_by_name()
        for aname in p.abilities:
            a = abilities.get(aname)
            if a is None:
                continue
            add(f"+ {ability_words(a)}", 15, (200, 215, 255))
            if a.description:
                add(f"  {a.description}", 13, theme.TEXT_DIM)
        return out

    def _render(self, text: TextCache, game: Game, m: ModelState | None) -> pygame.Surface:
        if m is None:
            panel = pygame.Surface(self.rect.size)
            panel.fill(theme.PANEL)
            pygame.draw.rect(panel, theme.PANEL_EDGE, panel.get_rect(), 1)
            panel.blit(text.render("Hover a model to see its profile card", 15, theme.TEXT_DIM), (10, 10))
            return panel
        rows = self.lines(text, game, m)
        lh_state = text.line_height(15)
        need = 8 + sum(text.line_height(size) for _, size, _, _ in rows) + lh_state + 14
        height = max(self.rect.h, min(need, self.max_h or self.rect.h))
        panel = pygame.Surface((self.rect.w, height))
        panel.fill(theme.PANEL)
        pygame.draw.rect(panel, theme.PANEL_EDGE, panel.get_rect(), 1)
        x, y = 10, 8
        bottom = height - lh_state - 10
        for k, (words, size, colour, bold) in enumerate(rows):
            lh = text.line_height(size)
            if y + lh > bottom:
                more = f"… {len(rows) - k} more lines (widen the window)"
                panel.blit(text.render(more, 13, theme.TEXT_DIM), (x, y))
                break
            panel.blit(text.render(words, size, colour, bold=bold), (x, y))
            y += lh
        cover = ("open", "light cover", "medium cover", "dense cover")[game.cover(m)] if m.active else "-"
        status = model_status(game, m)
        state = f"Now: {cover}" + (f"; {', '.join(status)}" if status else "")
        flags = [w for w, f in (("moved", m.moved), ("fired", m.fired), ("charged", m.charged)) if f]
        if flags:
            state += f"; has {', '.join(flags)}"
        panel.blit(text.render(state, 15, theme.ACCENT), (x, height - lh_state - 6))
        return panel
