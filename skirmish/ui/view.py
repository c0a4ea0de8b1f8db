"""The board view: inches on the table to pixels on the screen, zoom toward the cursor, pan, fit.

The table's y axis points north (deployment zone of player 0 at y = 0, at the bottom of the
screen), so screen y is flipped. Pure arithmetic, so scenes, the snapshot and tests share it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MIN_SCALE = 3.0
MAX_SCALE = 200.0


@dataclass
class BoardView:
    """Maps board inches to screen pixels inside `rect` (x, y, w, h)."""

    width: float
    height: float
    rect: tuple[int, ...] = (0, 0, 800, 800)
    scale: float = 16.0
    ox: float = 0.0
    oy: float = 0.0

    def fit(self, rect: tuple[int, ...] | None = None, margin: float = 0.03) -> None:
        """Show the whole table centred in `rect` (the fit key)."""
        if rect is not None:
            self.rect = rect
        x, y, w, h = self.rect
        self.scale = max(MIN_SCALE, min(w / self.width, h / self.height) * (1 - 2 * margin))
        self.ox = x + (w - self.width * self.scale) / 2
        self.oy = y + (h - self.height * self.scale) / 2

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + x * self.scale, self.oy + (self.height - y) * self.scale)

    def to_screen_array(self, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        out = np.empty_like(pts)
        out[:, 0] = self.ox + pts[:, 0] * self.scale
        out[:, 1] = self.oy + (self.height - pts[:, 1]) * self.scale
        return out

    def to_board(self, px: float, py: float) -> tuple[float, float]:
        return ((px - self.ox) / self.scale, self.height - (py - self.oy) / self.scale)

    def zoom_at(self, factor: float, px: float, py: float) -> None:
        """Zoom by `factor` keeping the board point under the cursor where it is."""
        bx, by = self.to_board(px, py)
        self.scale = min(MAX_SCALE, max(MIN_SCALE, self.scale * factor))
        self.ox = px - bx * self.scale
        self.oy = py - (self.height - by) * self.scale

    def pan(self, dx: float, dy: float) -> None:
        self.ox += dx
        self.oy += dy

    def contains(self, px: float, py: float) -> bool:
        x, y, w, h = self.rect
        return x <= px < x + w and y <= py < y + h

    def key(self) -> tuple[float, float, float, tuple[int, ...]]:
        """Changes whenever the picture of the static board would change."""
        return (round(self.scale, 4), round(self.ox, 2), round(self.oy, 2), self.rect)
