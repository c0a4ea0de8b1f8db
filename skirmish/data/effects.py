"""The engine's ability effects and the parameters each takes: the schema ability data is checked against.

An ability names an `effect` the engine resolves and tunes it with `params` (R-P4). The engine
reads the parameters with `int(...)`/`float(...)`, so a string, a NaN or a negative range would
reach the rules as nonsense or a crash in the middle of a game; here each parameter of each effect
has a type and bounds, and a troupe file that breaks them is refused at load, naming the field.

This table lives in the data layer (the engine sits above it) and is the one list of effect names:
`tests/test_hardening_data.py` checks that every effect `skirmish/engine` implements is here and
every effect here is implemented.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Literal

ParamType = Literal["int", "float", "bool", "choice"]

ELEMENTS = ("air", "water", "earth", "fire")
BUFF_STATS = ("move", "ranged", "dodge", "combat")
"""The profile figures a `buff` raises: the ones the engine adds buffs to (movement, shooting, melee)."""


@dataclass(frozen=True)
class Param:
    """One parameter of an effect: its type and its inclusive bounds (or its choices)."""

    kind: ParamType
    lo: float = 0
    hi: float = 0
    choices: tuple[str, ...] = ()

    def problem(self, value: object) -> str | None:
        """Why `value` is not a valid value of this parameter, or None."""
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return None
            return f"must be one of {', '.join(self.choices)}, not {value!r}"
        if isinstance(value, bool) or not isinstance(value, int | float):
            what = "a whole number" if self.kind == "int" else "a number"
            return f"must be {what}, not {value!r}"
        if self.kind == "int" and not isinstance(value, int):
            return f"must be a whole number, not {value!r}"
        if not math.isfinite(value):
            return f"must be a finite number, not {value}"
        if not self.lo <= value <= self.hi:
            return f"must be from {self.lo:g} to {self.hi:g}, not {value:g}"
        return None


def _int(lo: int, hi: int) -> Param:
    return Param("int", lo, hi)


def _float(lo: float, hi: float) -> Param:
    return Param("float", lo, hi)


_BOOL = Param("bool")

EFFECTS: dict[str, dict[str, Param]] = {
    "ranged_attack": {
        "damage": _int(1, 10),
        "shield_breaker": _BOOL,
        "bonus": _int(-5, 5),
        "element": Param("choice", choices=ELEMENTS),
    },
    "heal": {"amount": _int(1, 30)},
    "wall": {"length": _float(0.5, 24), "width": _float(0.25, 12)},
    "push": {"distance": _float(0, 24), "damage": _int(0, 10), "shield_breaker": _BOOL},
    "sense": {"range": _float(0, 72)},
    "glide": {"bonus_move": _int(0, 24)},
    "chi_block": {},
    "distraction": {},
    "nullify_cover": {},
    "reaction_block": {"power": _int(0, 10)},
    "reaction_deflect": {},
    "reaction_reflect": {},
    "buff": {"stat": Param("choice", choices=BUFF_STATS), "amount": _int(1, 10)},
    "redirect": {},
    "limp": {"turns": _int(1, 10)},
}
"""Every effect the engine resolves, with the parameters it reads (`docs/troupes.md` describes them)."""


def effect_problem(effect: str) -> str | None:
    """Why `effect` is not an effect the engine knows (with the nearest name), or None."""
    if effect in EFFECTS:
        return None
    near = difflib.get_close_matches(effect, list(EFFECTS), n=1)
    hint = f"did you mean `{near[0]}`? " if near else ""
    return f"unknown effect `{effect}` ({hint}known: {', '.join(sorted(EFFECTS))})"


def param_problems(effect: str, params: dict[str, object]) -> list[tuple[str, str]]:
    """(parameter, why) for each parameter `params` that `effect` does not take or that is out of bounds."""
    schema = EFFECTS.get(effect)
    if schema is None:
        return []
    out: list[tuple[str, str]] = []
    for key in sorted(params):
        spec = schema.get(key)
        if spec is None:
            known = ", ".join(schema) if schema else "none"
            out.append((key, f"`{effect}` takes no parameter `{key}` (its parameters: {known})"))
            continue
        why = spec.problem(params[key])
        if why is not None:
            out.append((key, why))
    return out
