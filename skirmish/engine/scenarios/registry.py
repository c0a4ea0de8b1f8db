"""The one place that lists the victory kinds (R-T4, R-X1..R-X3): a scenario's `victory` picks its rules.

Every kind's rules derive from `ScenarioSpecials`, so the special rules any scenario may name (the
Day of Black Sun's eclipse, `no_bending_element`) come with each of them. A new victory kind is a
module of its own in this package, one line here and one member of `data.scenario.Victory` (a test
checks that the two agree).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.data.scenario import Victory
from skirmish.engine.scenarios.base import ScenarioRules
from skirmish.engine.scenarios.duel.rules import DuelRules
from skirmish.engine.scenarios.escort import EscortRules
from skirmish.engine.scenarios.pursuit.rules import PursuitRules
from skirmish.engine.scenarios.specials import ScenarioSpecials

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx

VICTORY: dict[Victory, type[ScenarioRules]] = {
    Victory.battle_points: ScenarioSpecials,  # most Battle Points, then last side standing
    Victory.last_standing: ScenarioSpecials,  # the last side on the table, else Battle Points
    Victory.escort: EscortRules,  # the escorted model leaves by an edge, or is KO'd
    Victory.duel: DuelRules,  # the Avatar Duel of hidden techniques (R-X1, R-X2)
    Victory.pursuit: PursuitRules,  # co-operative heroes against the Tracking clock (R-X3)
}
"""Rules by victory kind; the default kinds are decided by `ScenarioRules.winner`."""


def rules_for(game: Ctx) -> ScenarioRules:
    """The rule object for `game`'s scenario; it reads (and checks) the scenario's `special` keys."""
    return VICTORY[game.scenario.victory](game)
