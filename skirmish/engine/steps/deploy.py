"""Deployment: models start in their player's zone, and players may re-place them before turn 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shapely

from skirmish.battlefield.measure import CONTACT
from skirmish.engine.core.actions import Action, Deploy
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.flow import Step, StepSpec, step
from skirmish.engine.effects.placing import impassable_area, zone_of

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def has_options(game: Ctx, player: int) -> bool:
    return any(m.active for m in game.player_models(player))


def candidates(game: Ctx, player: int) -> list[Action]:
    """Deployment is free placement; the auto-deployment is already legal, so no candidates are listed."""
    return []


def do_deploy(game: Ctx, action: Deploy) -> None:
    s = game.state
    m = game.model(action.model, rule="R-T1")
    if m.player != s.active_player:
        raise IllegalAction("R-T1", f"{m.id} belongs to another player")
    x, y = action.at
    r = float(s.radii[m.index])
    zone = zone_of(game, m.player)
    if not shapely.contains_xy(zone.buffer(-r + 1e-9), x, y):
        raise IllegalAction("R-T1", f"{m.name} must be placed wholly inside its deployment zone")
    blocked = impassable_area(game)
    if not blocked.is_empty and shapely.distance(blocked, shapely.Point(x, y)) < r:
        raise IllegalAction("R-M2", f"{m.name} cannot stand on impassable terrain")
    for o in s.models:
        if o is m:
            continue
        gap = float(np.hypot(x - s.xy[o.index, 0], y - s.xy[o.index, 1])) - r - float(s.radii[o.index])
        if gap < -1e-9:
            raise IllegalAction("R-M2", f"{m.name} would overlap {o.name}")
        if gap <= CONTACT and o.active and game.enemies(m, o):
            # Ruling (docs/rules.md R-M3): melee begins only from a charge, never from deployment.
            raise IllegalAction(
                "R-M3", f"{m.name} would deploy in base contact with {o.name}: melee needs a charge"
            )
    s.xy[m.index] = (x, y)
    game.moved()
    game.emit("deploy", f"{m.name} deploys at ({x:.1f}, {y:.1f})", (m.id,))


STEPS: tuple[StepSpec, ...] = (
    step(
        Step.DEPLOY,
        "deploy",
        "Deployment",
        "R-T1",
        "Deploy",
        generate=candidates,
        has_options=has_options,
        handlers={"Deploy": do_deploy},
        skip_words="deployment",
    ),
)
"""Deployment (R-T1): played before the first turn, then never again."""
