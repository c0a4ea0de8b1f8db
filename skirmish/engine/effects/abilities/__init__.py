"""The ability effects (R-P4): one small `Effect` per file, registered by name, and what every
ability shares (`use`). The imports below are the one list of active effects; a new effect is a
file here, a line below and its parameters in `skirmish/data/effects.py` (`docs/engine.md`).
"""

from skirmish.engine.effects.abilities import (  # noqa: F401  (each registers its effect)
    buff,
    chi_block,
    glide,
    heal,
    limp,
    nullify_cover,
    push,
    wall,
)
from skirmish.engine.effects.abilities.registry import EFFECTS, Aimed, Effect, reach, register
from skirmish.engine.effects.abilities.use import TIMING_STEP, candidates, do_use, has_options

__all__ = [
    "EFFECTS",
    "TIMING_STEP",
    "Aimed",
    "Effect",
    "candidates",
    "do_use",
    "has_options",
    "reach",
    "register",
]
