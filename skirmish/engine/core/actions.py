"""Player actions: small frozen values with a text form that rebuilds them (design principle 2).

`repr(action)` is valid Python (`Shoot(model='p0.sokka', target='p1.zuko', weapon='boomerang')`) and
`parse_action(text)` turns it back into the action, so a log line pasted into a test replays it.
Replays store actions as JSON objects (`to_json` / `action_from_json`).
"""

from __future__ import annotations

import ast
from dataclasses import MISSING, Field, asdict, dataclass, fields
from typing import Any, ClassVar

Point = tuple[float, float]
Path = tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. `model` is the acting model's id where there is one."""

    kind: ClassVar[str] = "Action"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for k, v in list(data.items()):
            if isinstance(v, tuple):
                data[k] = [list(p) if isinstance(p, tuple) else p for p in v]
        return {"type": type(self).__name__, **data}

    @property
    def actor(self) -> str | None:
        return getattr(self, "model", None)


@dataclass(frozen=True, slots=True)
class EndStep(Action):
    """The acting player has done everything they want in this step (passing)."""


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Place a model at a point of its player's deployment zone before the first turn."""

    model: str
    at: Point


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Standard movement along a path (R-M2): the path's length is what it costs."""

    model: str
    path: Path


@dataclass(frozen=True, slots=True)
class TakeCover(Action):
    """Take Cover instead of moving (R-M4)."""

    model: str


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """Fire a ranged weapon or a ranged ability at a visible enemy (R-C1)."""

    model: str
    target: str
    weapon: str


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """Charge a visible enemy (R-C3); the engine measures the path after the charge is declared."""

    model: str
    target: str


@dataclass(frozen=True, slots=True)
class CounterCharge(Action):
    """The target of a failed charge charges the failed charger at once (R-C3)."""

    model: str
    target: str


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Decline an offered reaction (a counter-charge or a bending reaction)."""


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Use an ability (R-P4), paying its AP: on a target model, a point, or neither."""

    model: str
    ability: str
    target: str | None = None
    at: Point | None = None


@dataclass(frozen=True, slots=True)
class React(Action):
    """Answer an attack with a bending reaction (R-X2: block, deflect, reflect)."""

    model: str
    ability: str


@dataclass(frozen=True, slots=True)
class Advance(Action):
    """Move after winning a melee (R-E1)."""

    model: str
    path: Path


@dataclass(frozen=True, slots=True)
class Disengage(Action):
    """Leave a melee with Combat Distraction and move away (R-E2)."""

    model: str
    path: Path


@dataclass(frozen=True, slots=True)
class Build(Action):
    """The Avatar Duel: build this round's techniques behind the shield (R-X2), in the text form of
    `engine.scenarios.duel.pieces` (`fire.L.point+earth.M.stand / ...`). Hidden from the other players until
    revealed; the replay keeps it, so the game re-simulates exactly."""

    model: str
    techniques: str


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """The Avatar Duel: call ATTACK, reveal technique `technique` (a, b, c or d) against `target`."""

    model: str
    target: str
    technique: str


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """The Avatar Duel: the attacked Avatar reveals technique `technique` to defend with."""

    model: str
    technique: str


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (
        EndStep,
        Deploy,
        Move,
        TakeCover,
        Shoot,
        Charge,
        CounterCharge,
        Decline,
        UseAbility,
        React,
        Advance,
        Disengage,
        Build,
        Attack,
        Defend,
    )
}


def _coerce(cls: type[Action], data: dict[str, Any]) -> Action:
    kwargs: dict[str, Any] = {}
    names = {f.name for f in fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise ValueError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    missing = [f.name for f in fields(cls) if f.name not in data and _required(f)]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise ValueError(f"{cls.__name__} needs the field{plural} {', '.join(missing)}")
    for f in fields(cls):
        if f.name not in data:
            continue
        v = data[f.name]
        if f.name == "path":
            if not isinstance(v, list | tuple) or len(v) < 2:
                raise ValueError("path needs at least two points")
            v = tuple(_point(p) for p in v)
        elif f.name == "at":
            v = None if v is None else _point(v)
        elif v is not None and not isinstance(v, str):
            raise ValueError(f"{f.name} must be a string")
        kwargs[f.name] = v
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"{cls.__name__}: {exc}") from None


def _required(f: Field[Any]) -> bool:
    """A field an action cannot be built without: one with neither a default nor a factory."""
    return f.default is MISSING and f.default_factory is MISSING


MAX_COORDINATE = 1e6
"""No table is near this (240" at most): a point beyond it in a replay or a pasted action is refused
as it is read, before a path length squares it past the largest float (numpy's overflow warning
on stderr) or the geometry meets infinities."""


def _point(p: Any) -> Point:
    if not isinstance(p, list | tuple) or len(p) != 2:
        raise ValueError(f"a point is two numbers, not {p!r}")
    x, y = p
    if (
        isinstance(x, bool)
        or isinstance(y, bool)
        or not isinstance(x, int | float)
        or not isinstance(y, int | float)
    ):
        raise ValueError(f"a point is two numbers, not {p!r}")
    if not (abs(x) <= MAX_COORDINATE and abs(y) <= MAX_COORDINATE):  # also False for NaN
        raise ValueError(f"a point's coordinates are at most {MAX_COORDINATE:,.0f} inches, not {p!r}")
    return (float(x), float(y))


def action_from_json(data: Any) -> Action:
    """Rebuild an action from its JSON object; `ValueError` naming what is wrong otherwise."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError("an action is an object with a `type`")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise ValueError(f"unknown action type {data['type']!r}")
    return _coerce(cls, {k: v for k, v in data.items() if k != "type"})


def parse_action(text: str) -> Action:
    """Rebuild an action from its `repr`, e.g. `Charge(model='p0.toph', target='p1.zuko')`."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"not an action: {text!r}") from None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.args:
        raise ValueError(f"not an action: {text!r} (write Kind(field=value, ...))")
    try:
        kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
    except ValueError:
        raise ValueError(f"not an action: {text!r}") from None
    return action_from_json({"type": node.func.id, **kwargs})
