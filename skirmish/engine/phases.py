"""Old home of the turn's declarations, kept while the UI moves to `skirmish.engine.STEPS`.

The steps are declared by the step modules (`engine.steps.*`) and put in order by
`engine.rulebook`; this module only re-exports what callers of the first version read.
"""

from __future__ import annotations

from skirmish.engine.rulebook import PENDING_ACTIONS, SPECS, STANDARD

DEPLOY = STANDARD.deploy
TURN = STANDARD.turn
STEP_INDEX = {s.name: i for i, s in enumerate(TURN)}

__all__ = ["DEPLOY", "PENDING_ACTIONS", "SPECS", "STEP_INDEX", "TURN"]
