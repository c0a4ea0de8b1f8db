"""The line-of-sight overlay (V or right-click): shadows behind sight blockers seen from the model's
centre, the engine's evidence to each enemy, and one label per blocking piece (UX review 9).

The lines are the engine's verdict (`Game.sees` and the battlefield's `sight_evidence`); the shade is
an approximation drawn for orientation only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame
import shapely

from skirmish.battlefield.sight import sight_evidence
from skirmish.ui.render import model_labels

if TYPE_CHECKING:
    from skirmish.engine.queries import ModelState
    from skirmish.ui.battle.table import Table


class SightOverlay:
    """The overlay of one model (`scene.los_model`), its geometry cached per position."""

    def __init__(self) -> None:
        self._cache: tuple[object, list[Any]] | None = None
        self.labels: dict[str, list[tuple[ModelState, float, float]]] = {}
        """Blocking piece -> the enemies it hides and where their lines cross (screen px)."""

    def forget(self) -> None:
        self._cache = None

    def geometry(self, scene: Table) -> list[Any]:
        """[shadows, [(enemy, evidence, sees)]]; [] when no model is looked from."""
        g = scene.control.game
        key = (scene.los_model, len(g.history), id(g.state), id(g.table))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        s = g.state
        m = s.model(scene.los_model) if scene.los_model else None
        out: list[Any] = []
        if m is None or not m.active:
            self._cache = (key, out)
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
            lines.append((o, ev, g.sees(m, o)))
        out = [shadows, lines]
        self._cache = (key, out)
        return out

    def draw(self, scene: Table, surf: pygame.Surface) -> None:
        geo = self.geometry(scene)
        self.labels = {}
        if not geo:
            return
        shadows, lines = geo
        view, text, s = scene.view, scene.text, scene.control.state
        x, y, w, h = scene.board_rect
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        for poly in shadows:
            pts = [(px - x, py - y) for px, py in view.to_screen_array(np.asarray(poly.exterior.coords))]
            if len(pts) >= 3:
                pygame.draw.polygon(shade, (20, 20, 40, 90), pts)
        surf.blit(shade, (x, y))
        m = s.model(scene.los_model)
        c = view.to_screen(*s.xy[m.index])
        blocked: dict[str, list[tuple[ModelState, float, float]]] = {}
        for o, ev, sees in lines:
            oc = view.to_screen(*s.xy[o.index])
            if ev.visible and ev.line is not None:
                a, b = view.to_screen(*ev.line[0]), view.to_screen(*ev.line[1])
                pygame.draw.line(surf, (40, 200, 60), a, b, 2)
            elif sees:
                pygame.draw.line(surf, (170, 90, 220), c, oc, 2)
                lab = text.render("sensed", 13, (60, 0, 90), bold=True)
                surf.blit(lab, ((c[0] + oc[0]) / 2, (c[1] + oc[1]) / 2))
            else:
                steps = 14
                for k in range(0, steps, 2):
                    p0 = (c[0] + (oc[0] - c[0]) * k / steps, c[1] + (oc[1] - c[1]) * k / steps)
                    p1 = (c[0] + (oc[0] - c[0]) * (k + 1) / steps, c[1] + (oc[1] - c[1]) * (k + 1) / steps)
                    pygame.draw.line(surf, (210, 40, 40), p0, p1, 2)
                if ev.blocker:
                    blocked.setdefault(ev.blocker, []).append((o, (c[0] + oc[0]) / 2, (c[1] + oc[1]) / 2))
        self.labels = blocked
        lab = text.render(
            f"Line of sight from {m.name} to enemies (green: a clear line; red: blocked; shade: behind "
            "sight blockers) — V or right-click to close",
            15,
            (255, 255, 255),
            bold=True,
        )
        pygame.draw.rect(surf, (20, 20, 24), (x + 6, y + 6, lab.get_width() + 8, lab.get_height() + 4))
        surf.blit(lab, (x + 10, y + 8))

    def draw_labels(self, scene: Table, surf: pygame.Surface) -> None:
        """One high-contrast label per blocking piece, on the piece itself, over the bases (UX review 9)."""
        full = model_labels(scene.control.game)
        for blocker, who in self.labels.items():
            at = blocker_anchor(scene, blocker)
            px, py = scene.view.to_screen(*at) if at is not None else (who[0][1], who[0][2])
            names = ", ".join(dict.fromkeys(full.get(o.id, (o.name,))[0] for o, _, _ in who))
            lab = scene.text.render(
                f"{blocker.replace('_', ' ')} blocks sight to {names}", 14, (255, 255, 255), bold=True
            )
            box = pygame.Rect(0, 0, lab.get_width() + 10, lab.get_height() + 4)
            box.center = (round(px), round(py))
            box.clamp_ip(scene.board_rect)
            pygame.draw.rect(surf, (30, 10, 10), box, border_radius=3)
            pygame.draw.rect(surf, (210, 40, 40), box, 1, border_radius=3)
            surf.blit(lab, (box.x + 5, box.y + 2))


def blocker_anchor(scene: Table, name: str) -> tuple[float, float] | None:
    """A point inside the named terrain piece (board inches), or None for 'models' and the like."""
    table = scene.control.game.table
    for nm, poly in zip(table.names, table.polygons, strict=False):
        if nm == name:
            p = poly.representative_point()
            return (float(p.x), float(p.y))
    return None
