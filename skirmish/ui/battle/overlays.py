"""What the battle screen draws over the board while a player works: the path being drawn (its swept
base, legs, ghost base and the engine's verdict), the ruler, the line to a hovered target, the
learners' odds box and the legend. Drawing only: the verdicts are the controller's (the engine's).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pygame
import shapely

from skirmish.battlefield.measure import path_length
from skirmish.engine import queries
from skirmish.ui import theme
from skirmish.ui.legend_art import ICON_LEGEND, LEGEND, draw_legend

if TYPE_CHECKING:
    from skirmish.engine import Game
    from skirmish.engine.queries import ModelState
    from skirmish.ui.battle.table import Table


def _polys(geom: shapely.Geometry) -> list[shapely.Polygon]:
    return [p for p in shapely.get_parts(geom) if isinstance(p, shapely.Polygon) and p.area > 1e-6]


def corridor(
    game: Game, m: ModelState, pts: list[tuple[float, float]], problem: bool
) -> tuple[list[shapely.Polygon], list[shapely.Polygon]]:
    """The swept base (the path buffered by the base radius: what the engine checks, UX review 8)
    and, when the path is refused, where that corridor overlaps impassable terrain or another
    base. The engine's verdict stays the authority, this only shows where."""
    s = game.state
    r = float(s.radii[m.index])
    line = shapely.LineString(pts)
    swept = line.buffer(r, quad_segs=8)
    hits: list[shapely.Polygon] = []
    if problem:
        body = line.buffer(r - 1e-3, quad_segs=8)
        start = shapely.Point(pts[0]).buffer(r + 1e-3)
        if not queries.flying(m):
            for i in np.flatnonzero(game.table.impassable):
                hits.extend(_polys(body.intersection(game.table.polygons[i])))
        for o in s.models:
            if o is m or not o.active:
                continue
            reach = float(s.radii[o.index]) + (0.0 if not game.enemies(m, o) else 0.05)
            base = shapely.Point(s.xy[o.index]).buffer(reach, quad_segs=8)
            hits.extend(_polys(body.intersection(base).difference(start)))
    return (_polys(swept), hits)


def draw_path(scene: Table, surf: pygame.Surface) -> None:
    ctl, view = scene.control, scene.view
    m = ctl.selected_model()
    live = scene.drag.live
    if m is None or (not ctl.path and live is None) or scene.drag.kind == "deploy":
        return
    kind = ctl.path_kind(m)
    if kind is None:
        return
    pts = list(ctl.path)
    if live is not None and pts and live != pts[-1]:
        pts.append(live)
    if len(pts) < 1:
        return
    budget = ctl.budget(m, kind)
    used = path_length(np.asarray(pts))
    left = budget - used
    problem = ctl.check_path(m, kind, pts) if len(pts) >= 2 else None
    colour = (230, 40, 40) if problem or left < -1e-6 else (255, 255, 255)
    scr = [view.to_screen(*p) for p in pts]
    r_in = float(ctl.state.radii[m.index])
    # the range ring: where the base centre can still reach (straight line), around the start and the end
    sx, sy = scr[0]
    pygame.draw.circle(surf, (255, 255, 255), (sx, sy), (budget + r_in) * view.scale, 1)
    if len(scr) >= 2 and left > 0:
        pygame.draw.circle(surf, (250, 230, 120), scr[-1], (left + r_in) * view.scale, 1)
    if len(scr) >= 2:
        swept, hits = scene.path_corridor(m, pts, bool(problem))
        for poly in swept:
            ring = view.to_screen_array(np.asarray(poly.exterior.coords))
            if len(ring) >= 3:
                pygame.draw.polygon(surf, (20, 20, 20), ring, 3)
                pygame.draw.polygon(surf, colour, ring, 1)
        for poly in hits:  # where the swept base runs into what the engine refused
            ring = view.to_screen_array(np.asarray(poly.exterior.coords))
            if len(ring) >= 3:  # outlined, so the base or wall under it stays readable
                pygame.draw.polygon(surf, (90, 0, 0), ring, 5)
                pygame.draw.polygon(surf, (255, 40, 40), ring, 3)
        pygame.draw.lines(surf, (0, 0, 0), False, scr, 5)
        pygame.draw.lines(surf, colour, False, scr, 3)
    text = scene.text
    for a, b, pa, pb in zip(pts, pts[1:], scr, scr[1:], strict=False):
        leg = math.hypot(b[0] - a[0], b[1] - a[1])
        lab = text.render(f'{leg:.1f}"', 15, (20, 20, 20), bold=True)
        mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
        pygame.draw.rect(surf, (255, 255, 230), (mx - 2, my - 18, lab.get_width() + 4, lab.get_height()))
        surf.blit(lab, (mx, my - 18))
    ex, ey = scr[-1]
    ghost = pygame.Surface((int(2 * r_in * view.scale + 4),) * 2, pygame.SRCALPHA)
    c = ghost.get_width() / 2
    pygame.draw.circle(ghost, (*theme.side_colour(m.player), 110), (c, c), r_in * view.scale)
    pygame.draw.circle(ghost, (*colour, 220), (c, c), r_in * view.scale, 2)
    surf.blit(ghost, (ex - c, ey - c))
    info = f'{kind.__name__}: total {used:.1f}" · {kind.__name__} left {max(0.0, left):.1f}" of {budget:g}"'
    if problem:
        info += f" — {problem}"
    elif len(pts) >= 2:
        info += " — Enter commits, Backspace removes a leg"
    lab = text.render(info, 16, (255, 255, 255) if not problem else (255, 200, 200), bold=True)
    bx = min(ex + 14, scene.board_rect.right - lab.get_width() - 6)
    by = ey + r_in * view.scale + 14  # below the ghost base, not over it
    pygame.draw.rect(surf, (20, 20, 24), (bx - 4, by - 2, lab.get_width() + 8, lab.get_height() + 4))
    surf.blit(lab, (bx, by))


def draw_ruler(scene: Table, surf: pygame.Surface) -> None:
    if scene.ruler is None:
        return
    ctl, view = scene.control, scene.view
    a, b = scene.ruler
    pa, pb = view.to_screen(*a), view.to_screen(*b)
    ma = scene.model_at(*pa)
    mb = scene.model_at(*pb)
    pygame.draw.line(surf, (0, 0, 0), pa, pb, 4)
    pygame.draw.line(surf, theme.ACCENT, pa, pb, 2)
    # The engine decides what a ruler may tell (R-C1): your own model's path, up to its move.
    sel = ctl.selected_model()
    own = sel if sel is not None and ctl.own(sel) else (ma if ma is not None and ctl.own(ma) else None)
    words = queries.ruler_reading(ctl.game, [a, b], model=own, ends=(ma, mb)).text()
    lab = scene.text.render(words, 16, (20, 20, 20), bold=True)
    pygame.draw.rect(surf, theme.ACCENT, (pb[0] + 8, pb[1] - 10, lab.get_width() + 6, lab.get_height() + 2))
    surf.blit(lab, (pb[0] + 11, pb[1] - 9))


def draw_target_line(scene: Table, surf: pygame.Surface, kind: str) -> None:
    ctl, view, g = scene.control, scene.view, scene.control.game
    m = ctl.selected_model()
    t = ctl.state.model(scene.hovered) if scene.hovered else None
    if m is None or t is None or not g.enemies(m, t):
        return
    a = view.to_screen(*ctl.state.xy[m.index])
    b = view.to_screen(*ctl.state.xy[t.index])
    sees = g.sees(m, t)
    pygame.draw.line(surf, (255, 80, 80) if sees else (120, 120, 120), a, b, 2)
    words = "in sight" if sees else "out of sight"
    if g.options.premeasure:
        words += f' · {g.distance(m, t):.1f}"'
        if kind == "shoot" and (spec := ctl.current_spec(m)) is not None:
            words += f' (range {spec.range:g}")'
        elif kind == "charge":
            words += f' (charge {m.profile.charge:g}")'
    else:
        words += " · distance hidden (premeasure off)"
    lab = scene.text.render(words, 15, (255, 255, 255), bold=True)
    pygame.draw.rect(surf, (20, 20, 24), (b[0] + 12, b[1] + 8, lab.get_width() + 8, lab.get_height() + 4))
    surf.blit(lab, (b[0] + 16, b[1] + 10))


def draw_odds(scene: Table, surf: pygame.Surface, lines: list[str]) -> None:
    if not lines:
        return
    text, rect = scene.text, scene.board_rect
    lh = text.line_height(15)
    width = max(text.size(ln, 15)[0] for ln in lines) + 20
    x = rect.x + 10
    y = rect.bottom - lh * len(lines) - 20
    pygame.draw.rect(surf, (18, 20, 30), (x, y, width, lh * len(lines) + 12))
    pygame.draw.rect(surf, theme.ACCENT, (x, y, width, lh * len(lines) + 12), 1)
    for k, ln in enumerate(lines):
        surf.blit(text.render(ln, 15, theme.ACCENT if k == 0 else theme.TEXT), (x + 10, y + 6 + k * lh))


class Legend:
    """The compact legend (terrain patterns, sides, status icons), drawn once per text scale."""

    def __init__(self) -> None:
        self._cache: tuple[object, pygame.Surface] | None = None

    def surface(self, scene: Table) -> pygame.Surface:
        text, game = scene.text, scene.control.game
        key = (text.scale, id(game))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        probe = pygame.Surface((10, 10))
        bottom = draw_legend(probe, text, game, 0, 0, 400)
        words = [w for _, w in LEGEND + ICON_LEGEND] + [
            f"{p.name} — {p.troupe.title}" for p in game.state.players
        ]
        width = max(text.size(w, 15)[0] for w in words) + 34 + 24
        surf = pygame.Surface((width, bottom + 16 + text.line_height(13)))
        surf.fill((30, 32, 40))
        pygame.draw.rect(surf, theme.ACCENT, surf.get_rect(), 1)
        y = draw_legend(surf, text, game, 12, 8, width - 24)
        surf.blit(text.render("G hides the legend", 13, theme.TEXT_DIM), (12, y + 2))
        self._cache = (key, surf)
        return surf

    def draw(self, scene: Table, surf: pygame.Surface) -> None:
        leg = self.surface(scene)
        surf.blit(leg, (scene.board_rect.right - leg.get_width() - 8, scene.board_rect.y + 8))
