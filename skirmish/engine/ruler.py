"""What a ruler may tell a player (R-C1 range guessing): the query behind the UI's ruler.

With `premeasure` off nothing may tell a player a distance before they declare a shot, a ranged
ability or a charge. A player may still measure *their own model's path*: how far along a line it
would get with the move it has in this step, as at the table one measures a move, not the gap to
an enemy. So the reading is the length of the drawn path (never snapped to bases, which made it a
model-to-model measure), shown only up to the model's tape: its Move in the movement and
deployment steps, its Advance in the End Phase, nothing in the Combat Phase. Beyond the tape the
ruler says only "beyond". With `premeasure` on every distance is open, edge to edge between bases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from skirmish.battlefield.measure import path_length
from skirmish.engine.core.flow import Step
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.moving import move_budget

if TYPE_CHECKING:
    from skirmish.engine.game import Game

Point = tuple[float, float]


@dataclass(frozen=True)
class Reading:
    """One ruler reading. `length` is None when the path runs beyond the tape."""

    length: float | None
    tape: float | None
    """How far this ruler reads: None is unlimited (premeasuring), 0 means it may not measure now."""
    edge_to_edge: bool = False
    model: str = ""

    def text(self) -> str:
        if self.tape is None:
            d = f'{self.length or 0.0:.1f}"'
            return d + (" edge to edge" if self.edge_to_edge else "")
        if self.tape <= 0:
            return "premeasuring is off: ranges are guessed (measure your own model's move only)"
        if self.length is None:
            return f"beyond {self.model}'s {self.tape:g}\" (premeasuring is off)"
        return f'{self.length:.1f}" of {self.model}\'s {self.tape:g}"'


def tape(game: Game, model: ModelState | None) -> float | None:
    """How far a player may measure `model`'s own path in this step (None: anything, premeasuring)."""
    if game.options.premeasure:
        return None
    if model is None or not model.active or model.player != game.state.active_player:
        return 0.0
    step = game.state.step
    if step in (Step.DEPLOY, Step.MOVEMENT):
        return move_budget(game, model)
    if step == Step.ADVANCES:
        return float(model.profile.advance)
    return 0.0


def reading(
    game: Game,
    points: Sequence[Point],
    *,
    model: ModelState | None = None,
    ends: tuple[ModelState | None, ModelState | None] = (None, None),
) -> Reading:
    """The ruler's reading for a path drawn through `points`, measured for `model` (the player's own).

    `ends` are the models under the path's two ends; they count only when premeasuring is on, to
    measure base edge to base edge (R-C6).
    """
    limit = tape(game, model)
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    length = path_length(pts) if len(pts) >= 2 else 0.0
    name = model.name if model is not None else ""
    if limit is None:
        s = game.state
        a, b = ends
        edge = False
        if a is not None:
            length -= float(s.radii[a.index])
            edge = True
        if b is not None and b is not a:
            length -= float(s.radii[b.index])
            edge = True
        return Reading(max(0.0, length), None, edge, name)
    if limit <= 0:
        return Reading(None, 0.0, False, name)
    return Reading(length if length <= limit + 1e-9 else None, limit, False, name)
