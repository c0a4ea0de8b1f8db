"""The Avatar Duel in the window (R-X1, R-X2): the technique builder, the reveal, the endurance pieces.

A strip along the bottom of the table, drawn from `game.observation(viewer)` only — the viewer is
the person whose turn it is (in hotseat the hand-over card covers the table between two people,
so one player's build is never on screen for the next), else the first seat a person plays, else
nobody's secrets at all (bots watching bots). Pieces are pyramids in the source's colours (fire red,
water blue, earth green, air yellow) and three sizes: standing upright, deflecting tilted, pointing
lying down toward the enemy, stacked on a bar; ungrounded pieces float over a dashed shadow.

Keys while building (the builder takes the keyboard in the build step): Left/Right choose a piece
of the pool, Up/Down its orientation, U ungrounded, Space adds it to the current technique (or click
a pool piece), Backspace takes the last piece back, 1-4 or Tab choose the technique, T fills in a
suggested build (cycling), C clears, B builds. The log panel tells every exchange in words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from skirmish.engine.core.actions import Action, Build
from skirmish.engine.scenarios.duel.pieces import (
    MAX_PIECES,
    MAX_TECHNIQUES,
    NAMES,
    ORIENT_WORD,
    POOL,
    SIZE_LETTER,
    SIZE_WORD,
    Piece,
    format_build,
    parse_piece,
)
from skirmish.ui import theme

if TYPE_CHECKING:
    from skirmish.engine import Game
    from skirmish.ui.theme import TextCache

COLOURS = {
    "fire": (214, 64, 52),
    "water": (52, 112, 214),
    "earth": (70, 160, 70),
    "air": (232, 200, 60),
}
ENDURANCE_COLOUR = (12, 12, 14)
DUEL_PANEL_H = 250
"""Height of the duel strip under the table, before the text scale."""
ORIENTS = ("stand", "deflect", "point", "stack")
HOW_WORDS = {
    "block": "blocks",
    "deflect": "deflects",
    "reflect": "reflects",
    "cover": "cover",
    "shield": "Air Shield",
    "fortress": "Earth Fortress",
}


def pyramid(
    surf: pygame.Surface, piece: Piece, x: float, y: float, scale: float, *, outline: bool = False
) -> pygame.Rect:
    """Draw one piece with its base centre at (x, y); returns its bounding box."""
    h = (10 + 7 * piece.size) * scale
    w = h * 0.8
    colour = COLOURS.get(piece.element, (200, 200, 200))
    lift = 0.0
    if piece.ungrounded:
        lift = 7 * scale
        pygame.draw.line(surf, (170, 170, 170), (x - w / 2, y), (x + w / 2, y), 1)
    if piece.orient == "stack":
        pygame.draw.rect(surf, (110, 110, 110), pygame.Rect(x - w / 2, y - lift - 3 * scale, w, 3 * scale))
        lift += 3 * scale
    base = y - lift
    pts = [(x - w / 2, base), (x + w / 2, base), (x, base - h)]  # standing: apex up
    if piece.orient == "deflect":
        pts = _rotate(pts, (x, base), math.radians(-28))
    elif piece.orient == "point":
        pts = [(x - h / 2, base), (x - h / 2, base - w), (x + h / 2, base - w / 2)]  # apex toward the foe
    if outline:
        pygame.draw.polygon(surf, colour, pts, 2)
    else:
        pygame.draw.polygon(surf, colour, pts)
        pygame.draw.polygon(surf, (240, 240, 240), pts, 1)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return pygame.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 1, int(y - min(ys)) + 1)


def _rotate(
    pts: list[tuple[float, float]], about: tuple[float, float], a: float
) -> list[tuple[float, float]]:
    cx, cy = about
    c, s = math.cos(a), math.sin(a)
    return [(cx + (px - cx) * c - (py - cy) * s, cy + (px - cx) * s + (py - cy) * c) for px, py in pts]


def endurance_pieces(surf: pygame.Surface, left: list[int], x: float, y: float, scale: float) -> None:
    """The three black endurance pieces, small to large; a lost one is only an outline."""
    for size in (1, 2, 3):
        h = (10 + 7 * size) * scale
        w = h * 0.8
        pts = [(x - w / 2, y), (x + w / 2, y), (x, y - h)]
        if size in left:
            pygame.draw.polygon(surf, ENDURANCE_COLOUR, pts)
        else:  # lost: a faint outline, struck through
            pygame.draw.polygon(surf, (120, 112, 96), pts, 1)
            pygame.draw.line(surf, (255, 110, 90), (x - w / 2, y), (x + w / 2, y - h), 2)
        x += w + 6 * scale


@dataclass
class DuelPanel:
    """The duel strip under the table and the builder's state (pieces chosen, cursor)."""

    cursor: int = 0
    orient: int = 0
    up: bool = False
    current: int = 0
    draft: list[list[Piece]] = field(default_factory=lambda: [[] for _ in range(MAX_TECHNIQUES)])
    template: int = -1
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    pool_rects: list[tuple[pygame.Rect, int]] = field(default_factory=list)
    note: str = ""

    # ------------------------------------------------------------- who is looking
    @staticmethod
    def viewer(game: Game, people: list[bool]) -> int:
        p = game.state.active_player
        if 0 <= p < len(people) and people[p]:
            return p
        return next((i for i, human in enumerate(people) if human), -1)

    @staticmethod
    def building(game: Game, viewer: int) -> bool:
        if game.state.step != "build" or viewer < 0 or game.state.active_player != viewer:
            return False
        obs = game.observation(viewer)
        mine = [m for m in obs["models"] if m["player"] == viewer and not m["ko"]]
        return bool(mine) and mine[0]["id"] not in obs["scenario"]["built"]

    # ------------------------------------------------------------- building
    def used(self) -> set[tuple[str, int]]:
        return {(p.element, p.size) for t in self.draft for p in t}

    def piece_at_cursor(self) -> Piece:
        element, size = POOL[self.cursor]
        return Piece(element, size, ORIENTS[self.orient], self.up and ORIENTS[self.orient] != "stack")

    def add(self, index: int | None = None) -> None:
        if index is not None:
            self.cursor = index
        p = self.piece_at_cursor()
        tech = self.draft[self.current]
        if (p.element, p.size) in self.used():
            self.note = f"the {p.words.split(' ', 1)[0]} {p.element} piece is already in a technique"
            return
        if len(tech) >= MAX_PIECES:
            self.note = f"technique {NAMES[self.current]} already has {MAX_PIECES} pieces"
            return
        tech.append(p)
        self.note = f"{p.words} added to technique {NAMES[self.current]}"

    def text(self) -> str:
        return format_build([tuple(t) for t in self.draft if t])

    def clear(self) -> None:
        self.draft = [[] for _ in range(MAX_TECHNIQUES)]
        self.current = 0

    def fill_template(self, game: Game) -> None:
        builds = [a for a in game.legal_actions() if isinstance(a, Build)]
        if not builds:
            return
        self.template = (self.template + 1) % len(builds)
        techs = [
            [parse_piece(x) for x in chunk.split("+")]
            for chunk in builds[self.template].techniques.split(" / ")
        ]
        self.draft = techs + [[] for _ in range(MAX_TECHNIQUES - len(techs))]
        self.note = f"suggested build {self.template + 1} of {len(builds)} (T for the next)"

    def key(self, game: Game, viewer: int, k: int) -> Action | None:
        """Handle a key while building; an action to apply (the Build), or None."""
        if k == pygame.K_LEFT:
            self.cursor = (self.cursor - 1) % len(POOL)
        elif k == pygame.K_RIGHT:
            self.cursor = (self.cursor + 1) % len(POOL)
        elif k == pygame.K_UP:
            self.orient = (self.orient - 1) % len(ORIENTS)
        elif k == pygame.K_DOWN:
            self.orient = (self.orient + 1) % len(ORIENTS)
        elif k == pygame.K_u:
            self.up = not self.up
        elif k in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.add()
        elif k == pygame.K_BACKSPACE:
            if self.draft[self.current]:
                self.draft[self.current].pop()
        elif k == pygame.K_TAB:
            self.current = (self.current + 1) % MAX_TECHNIQUES
        elif pygame.K_1 <= k <= pygame.K_4:
            self.current = k - pygame.K_1
        elif k == pygame.K_c:
            self.clear()
        elif k == pygame.K_t:
            self.fill_template(game)
        elif k == pygame.K_b:
            me = next(m for m in game.state.models if m.player == viewer and m.active)
            return Build(me.id, self.text())
        return None

    def click(self, pos: tuple[int, int]) -> bool:
        for r, i in self.pool_rects:
            if r.collidepoint(pos):
                self.add(i)
                return True
        return False

    # ------------------------------------------------------------- drawing
    def draw(
        self, surf: pygame.Surface, text: TextCache, game: Game, viewer: int, board: pygame.Rect
    ) -> None:
        s = text.scale
        h = int(DUEL_PANEL_H * s)
        self.rect = pygame.Rect(board.left, board.bottom, board.width, h)
        panel = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        panel.fill((26, 28, 34, 236))
        surf.blit(panel, self.rect.topleft)
        pygame.draw.line(surf, (150, 140, 110), self.rect.topleft, self.rect.topright, 2)
        obs = game.observation(viewer)
        duel = obs["scenario"]
        col = self.rect.width // 3
        left = pygame.Rect(self.rect.left, self.rect.top, col, h)
        mid = pygame.Rect(self.rect.left + col, self.rect.top, col, h)
        right = pygame.Rect(self.rect.left + 2 * col, self.rect.top, self.rect.width - 2 * col, h)
        if self.building(game, viewer):
            self.draw_builder(surf, text, game, viewer, left)
        else:
            self.draw_techniques(surf, text, obs, viewer, left)
        self.draw_reveal(surf, text, game, obs, mid)
        self.draw_endurance(surf, text, game, duel, right)

    def _title(self, surf: pygame.Surface, text: TextCache, words: str, at: tuple[int, int]) -> int:
        img = text.render(words, 17, theme.TEXT, bold=True)
        surf.blit(img, at)
        return at[1] + img.get_height() + 2

    def _line(
        self, surf: pygame.Surface, text: TextCache, words: str, at: tuple[int, int], colour: Any = None
    ) -> int:
        img = text.render(words, 14, colour or theme.TEXT)
        surf.blit(img, at)
        return at[1] + img.get_height() + 1

    def draw_builder(
        self, surf: pygame.Surface, text: TextCache, game: Game, viewer: int, r: pygame.Rect
    ) -> None:
        s = text.scale
        name = game.state.players[viewer].name
        y = self._title(surf, text, f"{name}: build behind the shield", (r.left + 8, r.top + 6))
        used = self.used()
        self.pool_rects = []
        x0 = r.left + 14
        for i, (element, size) in enumerate(POOL):
            cx = x0 + (i % 12) * int(r.width / 12.6)
            piece = Piece(element, size, ORIENTS[self.orient], self.up and ORIENTS[self.orient] != "stack")
            box = pyramid(surf, piece, cx + 8 * s, y + 38 * s, s * 0.8, outline=(element, size) in used)
            self.pool_rects.append((box.inflate(6, 6), i))
            if i == self.cursor:
                pygame.draw.rect(surf, (250, 250, 250), box.inflate(6, 6), 2)
        y += int(44 * s)
        p = self.piece_at_cursor()
        y = self._line(
            surf,
            text,
            f"piece: {p.words}  (Left/Right piece, Up/Down {ORIENT_WORD[p.orient]}, U ungrounded)",
            (r.left + 8, y),
        )
        for k in range(MAX_TECHNIQUES):
            tech = self.draft[k]
            mark = ">" if k == self.current else " "
            label = f"{mark} {NAMES[k]}: "
            img = text.render(label, 14, theme.TEXT)
            surf.blit(img, (r.left + 8, y))
            x = r.left + 8 + img.get_width() + 10
            for q in tech:
                pyramid(surf, q, x, y + 24 * s, s * 0.7)
                x += int(26 * s)
            if not tech:
                surf.blit(text.render("(empty)", 14, theme.TEXT_DIM), (x, y))
            y += int(26 * s)
        self._line(
            surf,
            text,
            "Space add · Backspace undo · 1-4 technique · T suggest · C clear · B build",
            (r.left + 8, y),
        )
        if self.note:
            self._line(surf, text, self.note, (r.left + 8, r.bottom - int(18 * s)), theme.TEXT_DIM)

    def draw_techniques(
        self, surf: pygame.Surface, text: TextCache, obs: dict[str, Any], viewer: int, r: pygame.Rect
    ) -> None:
        s = text.scale
        duel = obs["scenario"]
        y = r.top + 6
        for m in obs["models"]:
            if m["removed"]:
                continue
            techs = duel["techniques"].get(m["id"], [])
            who = next(p["name"] for p in obs["players"] if p["index"] == m["player"])
            mine = m["player"] == viewer
            y = self._line(
                surf, text, f"{who}{' (you)' if mine else ''}: {len(techs)} techniques", (r.left + 8, y)
            )
            x = r.left + 16
            for t in techs:
                label = text.render(t["name"], 14, theme.TEXT_DIM)
                surf.blit(label, (x, y + 4))
                x += label.get_width() + 4
                if t.get("hidden"):
                    surf.blit(text.render("hidden", 14, theme.TEXT_DIM), (x, y + 4))
                    x += int(56 * s)
                    continue
                for tok in t["pieces"]:
                    pyramid(surf, parse_piece(tok), x + 8 * s, y + 30 * s, s * 0.6)
                    x += int(22 * s)
                if not t["pieces"]:
                    surf.blit(text.render("fallen", 14, theme.TEXT_DIM), (x, y + 4))
                    x += int(48 * s)
                x += int(12 * s)
            y += int(34 * s)
            if y > r.bottom - 30 * s:
                break

    def draw_reveal(
        self, surf: pygame.Surface, text: TextCache, game: Game, obs: dict[str, Any], r: pygame.Rect
    ) -> None:
        """The last exchange side by side: attacking pieces left, defending right, a line and a word
        for each piece that stopped another; what got through, and the endurance lost."""
        s = text.scale
        duel = obs["scenario"]
        exs = duel["exchanges"]
        y = self._title(surf, text, "The last exchange", (r.left + 8, r.top + 6))
        if not exs:
            self._line(surf, text, "none yet this round", (r.left + 8, y), theme.TEXT_DIM)
            return
        ex = exs[-1]
        att, foe = game.model(ex["attacker"]).name, game.model(ex["target"]).name
        y = self._line(
            surf,
            text,
            f"{att} ({ex['attack_name']}) against {foe} ({ex['defence_name'] or 'no defence'})",
            (r.left + 8, y),
        )
        attack = [parse_piece(p) for p in ex["attack"]]
        defence = [parse_piece(p) for p in ex["defence"]] if ex["defence"] else []
        ax, dx = r.left + int(40 * s), r.right - int(60 * s)
        row = int(30 * s)
        apos, dpos = {}, {}
        for i, p in enumerate(attack):
            cy = y + 26 * s + i * row
            pyramid(surf, p, ax, cy, s * 0.7)
            apos[i] = (ax + 14 * s, cy - 8 * s)
        for j, p in enumerate(defence):
            cy = y + 26 * s + j * row
            pyramid(surf, p, dx, cy, s * 0.7)
            dpos[j] = (dx - 14 * s, cy - 8 * s)
        stopped = set()
        for a, by, how in ex["stops"]:
            stopped.add(a)
            start = apos[a]
            end = dpos.get(by, (r.right - 90 * s, start[1])) if by >= 0 else (r.right - 110 * s, start[1])
            pygame.draw.line(surf, (236, 206, 140), start, end, 2)
            word = text.render(HOW_WORDS.get(how, how), 14, (236, 206, 140))
            # the word sits near the stopping piece, so words of crossing lines do not overlap
            wx, wy = start[0] + (end[0] - start[0]) * 0.72, start[1] + (end[1] - start[1]) * 0.72
            surf.blit(word, (wx - word.get_width() / 2, wy - word.get_height()))
        for i in ex["landed"]:
            start = apos[i]
            pygame.draw.line(surf, (255, 110, 90), start, (start[0] + 60 * s, start[1]), 3)
            surf.blit(text.render("gets through", 14, (255, 110, 90)), (start[0] + 64 * s, start[1] - 8 * s))
        bottom = r.bottom - int(20 * s)
        if ex["damage"]:
            self._line(
                surf,
                text,
                f"{foe} loses " + ", ".join(SIZE_WORD[x] for x in ex["damage"]),
                (r.left + 8, bottom),
                (255, 110, 90),
            )
        elif ex["reflected_damage"]:
            self._line(
                surf,
                text,
                f"{att} loses " + ", ".join(SIZE_WORD[x] for x in ex["reflected_damage"]),
                (r.left + 8, bottom),
                (255, 110, 90),
            )
        else:
            self._line(surf, text, "no endurance lost", (r.left + 8, bottom), theme.TEXT_DIM)

    def draw_endurance(
        self, surf: pygame.Surface, text: TextCache, game: Game, duel: dict[str, Any], r: pygame.Rect
    ) -> None:
        s = text.scale
        y = self._title(surf, text, f"Endurance · round {duel['round']}", (r.left + 8, r.top + 6))
        # a strip of table under the black pieces, so they read as black pyramids
        pygame.draw.rect(
            surf, (214, 200, 170), pygame.Rect(r.left + 4, y, r.width - 8, r.bottom - y - 4), border_radius=4
        )
        for mid, left in duel["endurance"].items():
            m = game.model(mid)
            native = duel["natives"].get(mid)
            tag = f" ({native})" if native else ""
            y = self._line(
                surf, text, m.name + tag + ("  — out" if not left else ""), (r.left + 8, y), (30, 30, 30)
            )
            endurance_pieces(surf, left, r.left + 24 * s, y + 26 * s, s * 0.8)
            label = "".join(SIZE_LETTER[x] for x in left) or "none"
            surf.blit(text.render(label, 14, (60, 60, 60)), (r.left + 110 * s, y + 8 * s))
            y += int(32 * s)
            if y > r.bottom - 20 * s:
                break
