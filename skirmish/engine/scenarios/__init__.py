"""Scenario victory kinds and special rules (R-T4, R-E3, R-X1..R-X3), one module each.

`base` (`ScenarioRules`: the hooks the phase machine calls, and the default victory by Battle
Points or last side standing) ← `specials` (reading `special`, the eclipse every scenario may
name) ← `escort`, `pursuit/`, `duel/` (the victory kinds) ← `registry` (the only module that lists
them; `rules_for(game)`).

This package's own namespace is the face bots, screens, the sim and the command line use: the rule
classes they recognise a scenario by and the Pursuit's configuration reader. Everything else is
internal (an import-linter contract says so); the duel's pure piece modules (`duel.pieces`,
`duel.exchange`, `duel.templates`) are the Avatar War vocabulary and may be read too.
"""

from skirmish.engine.scenarios.base import ScenarioRules
from skirmish.engine.scenarios.duel.rules import DuelRules
from skirmish.engine.scenarios.escort import EscortRules
from skirmish.engine.scenarios.pursuit import PURSUIT_KEYS, PursuitConfig, PursuitRules, parse_config
from skirmish.engine.scenarios.registry import VICTORY, rules_for
from skirmish.engine.scenarios.specials import ScenarioSpecials, file_problems

__all__ = [
    "PURSUIT_KEYS",
    "VICTORY",
    "DuelRules",
    "EscortRules",
    "PursuitConfig",
    "PursuitRules",
    "ScenarioRules",
    "ScenarioSpecials",
    "file_problems",
    "parse_config",
    "rules_for",
]
