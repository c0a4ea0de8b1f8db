"""Drawing the table's models: bases with their state and labels laid out so they never overlap,
the legend, the roster and the words of the banner. The terrain and zones are `terrain_art.py`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from skirmish.engine.core.names import model_number
from skirmish.ui import theme
from skirmish.ui.theme import TextCache
from skirmish.ui.view import BoardView

if TYPE_CHECKING:
    from skirmish.engine import Game
    from skirmish.engine.queries import ModelState


# ----------------------------------------------------------------------------- models
def model_status(game: Game, m: ModelState) -> list[str]:
    """Words for a model's state (R-P5), in the order the icons are drawn."""
    out = []
    if m.removed:
        out.append("removed")
    elif m.ko:
        out.append("KO'd")
    if m.taking_cover:
        out.append("Taking Cover")
    if m.limping:
        out.append("Limping")
    if m.active and game.in_melee(m):
        out.append("in melee")
    return out


def side_ring(
    surf: pygame.Surface,
    colour: theme.Colour,
    centre: tuple[float, float],
    r: float,
    width: int,
    pattern: str,
) -> None:
    if pattern == "solid" or r < 5:
        pygame.draw.circle(surf, colour, centre, r, width)
    elif pattern == "double":
        pygame.draw.circle(surf, colour, centre, r, max(1, width // 2))
        pygame.draw.circle(surf, colour, centre, r - width, max(1, width // 2))
    else:
        n = 12 if pattern == "dashed" else 20
        frac = 0.6 if pattern == "dashed" else 0.35
        rect = pygame.Rect(0, 0, 2 * r, 2 * r)
        rect.center = (round(centre[0]), round(centre[1]))
        for k in range(n):
            a0 = 2 * math.pi * k / n
            pygame.draw.arc(surf, colour, rect, a0, a0 + 2 * math.pi / n * frac, width)


def status_badge(surf: pygame.Surface, text: TextCache, kind: str, x: float, y: float, size: int) -> None:
    """A small status icon: shield (Taking Cover), boot (Limping), crossed blades (melee)."""
    r = size // 2
    if kind == "Taking Cover":
        pts = [(x - r, y - r), (x + r, y - r), (x + r, y), (x, y + r + 1), (x - r, y)]
        pygame.draw.polygon(surf, (230, 240, 255), pts)
        pygame.draw.polygon(surf, (0, 70, 140), pts, 2)
    elif kind == "Limping":
        pygame.draw.circle(surf, (255, 220, 170), (x, y), r)
        pygame.draw.circle(surf, (160, 70, 0), (x, y), r, 2)
        lab = text.render("L", max(9, size), (120, 50, 0), bold=True)
        surf.blit(lab, (x - lab.get_width() / 2, y - lab.get_height() / 2))
    elif kind == "in melee":
        # crossed blades with hilts on a gold disc, so it never reads as the KO cross
        pygame.draw.circle(surf, (255, 214, 90), (x, y), r)
        pygame.draw.circle(surf, (120, 70, 0), (x, y), r, 1)
        d = r - 3
        for sgn in (1, -1):
            tip, hilt = (x + sgn * d, y - d), (x - sgn * d, y + d)
            pygame.draw.line(surf, (40, 40, 50), tip, hilt, 2)
            gx, gy = x - sgn * d * 0.45, y + d * 0.45
            pygame.draw.line(surf, (40, 40, 50), (gx - 2, gy - 2 * sgn), (gx + 2, gy + 2 * sgn), 2)


@dataclass
class ModelMarks:
    """Per-frame emphasis: selected, hovered, highlighted (from the log), dimmed (out of sight)."""

    selected: str | None = None
    hovered: str | None = None
    highlighted: frozenset[str] = frozenset()
    dimmed: frozenset[str] = frozenset()
    targets: frozenset[str] = frozenset()
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    pulse: float = 0.0


TITLES = frozenset(
    {
        "prince",
        "princess",
        "general",
        "admiral",
        "commander",
        "captain",
        "colonel",
        "uncle",
        "avatar",
        "master",
        "lieutenant",
        "chief",
        "king",
        "queen",
        "lord",
        "lady",
        "sergeant",
        "fire",
    }
)
"""Leading words dropped for a short label ("Prince Zuko" -> "Zuko"); not for one-word names."""


def short_names(models: list[ModelState]) -> dict[str, tuple[str, str, str]]:
    """(full label, short label, initials inside the base) for every model.

    Names shared by several models get the number from their id ("Soldier 2", initials "S2"), so
    three "Fire Nation Soldier" discs can still be told apart without hovering.
    """
    counts: dict[tuple[int, str], int] = {}
    for m in models:
        key = (m.player, m.profile.title)
        counts[key] = counts.get(key, 0) + 1
    out: dict[str, tuple[str, str, str]] = {}
    for m in models:
        # the engine's display name already carries the number ("Fire Nation Soldier 2", engine.names)
        words = m.profile.title.split()
        if counts[(m.player, m.profile.title)] > 1:
            num = model_number(m.id, m.index)
            short = f"{words[-1]} {num}" if words else num
            out[m.id] = (m.name, short, (words[-1][:1] if words else "") + num)
            continue
        rest = words
        while len(rest) > 1 and rest[0].lower() in TITLES:
            rest = rest[1:]
        short = rest[0] if rest else m.name
        out[m.id] = (m.name, short, short[:2])
    return out


_SHORT: dict[int, tuple[tuple[tuple[str, str], ...], dict[str, tuple[str, str, str]]]] = {}


def model_labels(game: Game) -> dict[str, tuple[str, str, str]]:
    """`short_names` of the game's models, cached per game."""
    models = game.state.models
    key = tuple((m.id, m.name) for m in models)
    hit = _SHORT.get(id(game))
    if hit is not None and hit[0] == key:
        return hit[1]
    names = short_names(list(models))
    if len(_SHORT) > 16:
        _SHORT.clear()
    _SHORT[id(game)] = (key, names)
    return names


def _free(rect: pygame.Rect, taken: list[pygame.Rect], bounds: pygame.Rect) -> bool:
    return bounds.contains(rect) and rect.collidelist(taken) < 0


def draw_models(
    surf: pygame.Surface,
    view: BoardView,
    game: Game,
    text: TextCache,
    marks: ModelMarks | None = None,
    *,
    show_removed: bool = True,
) -> dict[str, pygame.Rect]:
    """Bases, rings, initials, HP pips and status icons, then the name labels laid out so they never
    cover each other or another base (UX review 2).

    Labels are placed most important first (selected, hovered, highlighted, targets, then by index):
    each tries the full name above the base, then below its pips, then the short name above, below,
    left and right; a label with no free place is left out (the initials inside the base remain, and
    hovering shows the full name). Zoomed far out only the important models are labelled.
    Returns where each drawn label went (model id -> screen rect).
    """
    marks = marks or ModelMarks()
    s = game.state
    scale = view.scale
    label_size = 14 if scale < 20 else 17
    names = model_labels(game)
    order = sorted(s.models, key=lambda m: (m.active, m.index))
    taken: list[pygame.Rect] = []  # bases, pips and icons: labels keep off them
    placed: list[tuple[ModelState, float, float, float, float]] = []  # m, cx, cy, r, bottom of pips/base
    for m in order:
        if m.removed and not show_removed:
            continue
        x, y = marks.positions.get(m.id, (float(s.xy[m.index, 0]), float(s.xy[m.index, 1])))
        cx, cy = view.to_screen(x, y)
        r = max(4.0, float(s.radii[m.index]) * scale)
        colour = theme.side_colour(m.player)
        taken.append(pygame.Rect(round(cx - r), round(cy - r), round(2 * r), round(2 * r)))
        if not m.active:
            ghost = pygame.Surface((int(2 * r + 4), int(2 * r + 4)), pygame.SRCALPHA)
            c = (r + 2, r + 2)
            alpha = 110 if m.removed else 200
            pygame.draw.circle(ghost, (*theme.KO_GREY, alpha), c, r)
            pygame.draw.circle(ghost, (*colour, alpha), c, r, 2)
            d = r * 0.6
            pygame.draw.line(ghost, (60, 60, 60, alpha), (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), 3)
            pygame.draw.line(ghost, (60, 60, 60, alpha), (c[0] + d, c[1] - d), (c[0] - d, c[1] + d), 3)
            surf.blit(ghost, (cx - r - 2, cy - r - 2))
            placed.append((m, cx, cy, r, cy + r))
            continue
        if m.id in marks.highlighted:
            glow = 6 + 3 * math.sin(marks.pulse * 6)
            pygame.draw.circle(surf, theme.ACCENT, (cx, cy), r + glow, 3)
        if m.id in marks.targets:
            pygame.draw.circle(surf, (255, 80, 80), (cx, cy), r + 5, 2)
        if m.id == marks.selected:
            pygame.draw.circle(surf, theme.HIGHLIGHT, (cx, cy), r + 4, 3)
        elif m.id == marks.hovered:
            pygame.draw.circle(surf, (200, 200, 200), (cx, cy), r + 3, 1)
        fill = tuple(int(c * 0.45 + 255 * 0.55) for c in colour)
        if m.id in marks.dimmed:
            fill = tuple(int(c * 0.5) for c in fill)
        pygame.draw.circle(surf, fill, (cx, cy), r)
        pygame.draw.circle(surf, (25, 25, 30), (cx, cy), r + 1, 1)  # dark edge: pale bases on pale ground
        side_ring(surf, colour, (cx, cy), r, max(2, int(r * 0.28)), theme.SIDE_PATTERNS[m.player % 8])
        # initials inside the base at every zoom, so a disc is never anonymous
        initials = names.get(m.id, (m.name, m.name, m.name[:2]))[2]
        lab = text.render(initials, max(9, min(40, int(r * 0.95))), (15, 15, 15), bold=True)
        if lab.get_width() <= 2.4 * r:
            surf.blit(lab, (cx - lab.get_width() / 2, cy - lab.get_height() / 2 + 1))
        # HP pips under the base: filled for HP left, hollow for HP lost.
        total = m.profile.hp
        pip = max(4, min(8, int(scale * 0.3)))
        gap = 2
        width = total * pip + (total - 1) * gap
        px0 = cx - width / 2
        py0 = cy + r + 3
        for k in range(total):
            rect = pygame.Rect(round(px0 + k * (pip + gap)), round(py0), pip, pip)
            if k < m.hp:
                pygame.draw.rect(surf, (200, 30, 30), rect)
            pygame.draw.rect(surf, (40, 10, 10), rect, 1)
        taken.append(pygame.Rect(round(px0), round(py0), round(width), pip))
        badges = [b for b in model_status(game, m) if b in ("Taking Cover", "Limping", "in melee")]
        size = max(12, int(r * 0.9))
        for k, b in enumerate(badges):
            bx = cx + r + size * 0.6 + k * (size + 2)
            status_badge(surf, text, b, bx, cy - r * 0.4, size)
            taken.append(pygame.Rect(round(bx - size / 2), round(cy - r * 0.4 - size / 2), size, size + 1))
        placed.append((m, cx, cy, r, py0 + pip))
    return _draw_labels(surf, view, text, marks, placed, taken, names, label_size)


def _draw_labels(
    surf: pygame.Surface,
    view: BoardView,
    text: TextCache,
    marks: ModelMarks,
    placed: list[tuple[ModelState, float, float, float, float]],
    taken: list[pygame.Rect],
    names: dict[str, tuple[str, str, str]],
    label_size: int,
) -> dict[str, pygame.Rect]:
    drawn: dict[str, pygame.Rect] = {}
    if view.scale < 5:
        return drawn
    important = {marks.selected, marks.hovered} | set(marks.highlighted) | set(marks.targets)

    def rank(item: tuple[ModelState, float, float, float, float]) -> tuple[int, int]:
        m = item[0]
        if m.id == marks.hovered:
            return (0, m.index)
        if m.id == marks.selected:
            return (1, m.index)
        if m.id in important:
            return (2, m.index)
        return (3 if m.active else 4, m.index)

    crowded_out = view.scale < 10  # zoomed far out: only the models that matter now are named
    bounds = surf.get_clip() if surf.get_clip().w > 0 else surf.get_rect()
    labels: list[pygame.Rect] = []
    for item in sorted(placed, key=rank):
        m, cx, cy, r, below = item
        must = m.id in important
        if crowded_out and not must:
            continue
        full, short, _ = names.get(m.id, (m.name, m.name, ""))
        if not m.active:
            full, short = f"{full} (KO'd)", f"{short} KO"
        texts = [full] if full == short else [full, short]
        chosen: tuple[pygame.Surface, pygame.Rect] | None = None
        first: tuple[pygame.Surface, pygame.Rect] | None = None
        for k, words in enumerate(texts):
            colour = (15, 15, 15) if m.active else (90, 90, 90)
            lab = text.render(words, label_size if k == 0 else label_size - 1, colour, bold=m.active)
            lw, lh = lab.get_width() + 4, lab.get_height()
            spots = [(cx - lw / 2, cy - r - lh - 2), (cx - lw / 2, below + 1)]
            if k > 0:
                spots += [(cx - r - lw - 3, cy - lh / 2), (cx + r + 3, cy - lh / 2)]
            for sx, sy in spots:
                rect = pygame.Rect(round(sx), round(sy), lw, lh)
                if first is None:
                    first = (lab, rect)
                if _free(rect, taken, bounds) and rect.collidelist(labels) < 0:
                    chosen = (lab, rect)
                    break
            if chosen is not None:
                break
        if chosen is None and must and first is not None:
            chosen = first  # the hovered / selected model is always named, even over others
        if chosen is None:
            continue
        lab, rect = chosen
        labels.append(rect)
        plate = (250, 248, 235) if m.active else (220, 220, 215)
        edge = theme.side_dark_colour(m.player)
        pygame.draw.rect(surf, plate, rect, border_radius=3)
        if must:
            pygame.draw.rect(surf, edge, rect, 1, border_radius=3)
        surf.blit(lab, (rect.x + 2, rect.y))
        drawn[m.id] = rect
    return drawn


# ----------------------------------------------------------------------------- roster and log


def draw_roster(
    surf: pygame.Surface, text: TextCache, game: Game, x: int, y: int, width: int, bottom: int
) -> int:
    """Each side's models with HP and state, for the snapshot and the end screen."""
    size = 15
    lh = text.line_height(size) + 1
    for p in game.state.players:
        if y + lh * 2 > bottom:
            break
        head = f"{p.name}: {p.troupe.title} — {p.total_points} BP"
        surf.blit(text.render(head, 16, theme.side_text_colour(p.index), bold=True), (x, y))
        y += lh + 2
        for m in game.player_models(p.index):
            if y + lh > bottom:
                break
            status = model_status(game, m)
            colour = theme.TEXT_DIM if not m.active else theme.TEXT
            line = f"{m.name}  HP {m.hp}/{m.profile.hp}" + (f"  · {', '.join(status)}" if status else "")
            surf.blit(text.render(line, size, colour), (x + 12, y))
            y += lh
        y += 6
    return y


def draw_log_tail(
    surf: pygame.Surface, text: TextCache, game: Game, x: int, y: int, width: int, bottom: int
) -> None:
    size = 14
    lh = text.line_height(size)
    surf.blit(text.render("Last events", 17, theme.TEXT, bold=True), (x, y))
    y += lh + 4
    lines: list[tuple[str, theme.Colour]] = []
    for e in game.log[-40:]:
        for k, ln in enumerate(text.wrap(f"T{e.turn} {e.text}", size, width - 8)):
            lines.append((ln if k == 0 else "   " + ln, theme.TEXT if e.rolls else theme.TEXT_DIM))
    room = max(0, (bottom - y) // lh)
    for ln, colour in lines[-room:] if room else []:
        surf.blit(text.render(ln, size, colour), (x, y))
        y += lh
