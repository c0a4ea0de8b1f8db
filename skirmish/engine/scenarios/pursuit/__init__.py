"""The Pursuit (R-X3, from Aang's Destiny): co-operative heroes against adversaries the game drives.

Layered, each module reading only those before it: `config` (the vocabulary: cards, abilities,
rewards, objectives, `PursuitConfig`) ← `parse` (the `special` keys) ← `base` (the state and its
queries) ← `clock` (Tracking and the effects) ← `stack` (adversary stack, deck, turn start) and
`objectives` (objectives, laying low, victory) ← `rules` (`PursuitRules`, the hooks the phase
machine calls).
"""

from skirmish.engine.scenarios.pursuit.config import EFFECTS, PURSUIT_KEYS, TRIGGERS, PursuitConfig
from skirmish.engine.scenarios.pursuit.parse import parse_config
from skirmish.engine.scenarios.pursuit.rules import PursuitRules

__all__ = ["EFFECTS", "PURSUIT_KEYS", "TRIGGERS", "PursuitConfig", "PursuitRules", "parse_config"]
