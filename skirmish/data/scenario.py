"""Scenario files: the table, its terrain, deployment zones, turn limit, scoring and rule options."""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Literal, get_args

from pydantic import Field, model_validator

from skirmish.data.base import Name, Strict, Text, Title, field_error
from skirmish.data.limits import MAX_TERRAIN_PIECES, MAX_TERRAIN_VERTICES, MAX_ZONE_VERTICES
from skirmish.data.options import RuleOptions

Point = Annotated[list[float], Field(min_length=2, max_length=2)]
Polygon = Annotated[list[Point], Field(min_length=3, max_length=256)]


class Cover(StrEnum):
    """Cover levels of R-B1, densest last so they compare by order."""

    none = "none"
    light = "light"
    medium = "medium"
    dense = "dense"

    @property
    def rank(self) -> int:
        return _COVER_RANK[self]


_COVER_RANK = {Cover.none: 0, Cover.light: 1, Cover.medium: 2, Cover.dense: 3}


class Terrain(Strict):
    """One terrain piece (R-B1)."""

    name: Name = Field(description="Identifier shown in the log, e.g. `bamboo_grove`.")
    polygon: Polygon = Field(description="Outline as [x, y] points in inches, in order.")
    cover: Cover = Field(default=Cover.none, description="Cover level a model inside it has (R-B2).")
    blocks_sight: bool = Field(default=False, description="Blocks line of sight through it (R-B3).")
    impassable: bool = Field(default=False, description="Models cannot move through it (R-M2).")
    height: float = Field(default=0.0, ge=0, le=20, description="Height; a higher shooter gets +1 (R-B2).")


class Zone(Strict):
    """A named area: a deployment zone or a scoring zone."""

    name: Name = Field(description="Identifier, e.g. `north`.")
    polygon: Polygon = Field(description="Outline as [x, y] points in inches.")
    player: int | None = Field(default=None, ge=0, le=7, description="Deployment: which player (0-based).")
    points: int = Field(default=0, ge=0, le=100, description="Scoring: Battle Points a turn for holding it.")


class Victory(StrEnum):
    """How the scenario decides its winner at the end (R-T4)."""

    battle_points = "battle_points"
    last_standing = "last_standing"
    escort = "escort"
    pursuit = "pursuit"
    duel = "duel"


class Scoring(Strict):
    """Battle Points (R-E3)."""

    ko_points: int = Field(default=1, ge=0, le=100, description="Points for each enemy model KO'd.")
    zones: Annotated[list[Zone], Field(max_length=32)] = Field(
        default_factory=list, description="Zones worth points each turn to the sole side holding them."
    )


BotPolicy = Literal["heuristic", "guess", "random"]
"""The bot policies a scenario side may name: `skirmish.bots.POLICIES` implements these (a test checks)."""

BOT_POLICIES: tuple[str, ...] = get_args(BotPolicy)


class Side(Strict):
    """A player's seat in the scenario: its default troupe and who drives it."""

    name: Name = Field(description="Identifier, e.g. `heroes`.")
    team: int = Field(
        default=-1, ge=-1, le=7, description="Sides with the same team are allies; -1: own team."
    )
    troupe: Name | None = Field(default=None, description="Default troupe name for this side.")
    bot: BotPolicy | None = Field(
        default=None, description="If set, the game drives this side with this bot policy."
    )


class Board(Strict):
    width: float = Field(default=48.0, ge=6, le=240, description="Table width in inches.")
    height: float = Field(default=48.0, ge=6, le=240, description="Table depth in inches.")


class Scenario(Strict):
    """A scenario file."""

    name: Name = Field(description="Identifier used by commands, e.g. `open_battle`.")
    title: Title = Field(description="Name shown to players.")
    description: Text = Field(default="", description="What the scenario is about.")
    board: Board = Field(default_factory=Board, description="The table's size.")
    terrain: Annotated[list[Terrain], Field(max_length=MAX_TERRAIN_PIECES)] = Field(
        default_factory=list, description=f"Terrain pieces (R-B1), at most {MAX_TERRAIN_PIECES}."
    )
    deployment: Annotated[list[Zone], Field(min_length=1, max_length=16)] = Field(
        description="Deployment zones, one or more per player."
    )
    sides: Annotated[list[Side], Field(min_length=2, max_length=8)] = Field(
        description="The players, in default turn order (R-T2, R-T3)."
    )
    turns: int = Field(default=6, ge=1, le=50, description="Turn limit (R-T4).")
    points_limit: int = Field(default=0, ge=0, le=100000, description="Troupe points limit; 0 = none.")
    victory: Victory = Field(default=Victory.battle_points, description="How the winner is decided (R-T4).")
    scoring: Scoring = Field(default_factory=Scoring, description="Battle Points (R-E3).")
    options: RuleOptions = Field(default_factory=RuleOptions, description="Rule options for this scenario.")
    special: dict[str, float | int | bool | str | list[str] | list[int]] = Field(
        default_factory=dict, description="Scenario-specific rule parameters (scalars, lists)."
    )
    fixed_roles: bool = Field(
        default=False,
        description="Asymmetric: each side keeps its role (troupe testing never swaps sides; a side with "
        "`bot` set is driven by the game).",
    )

    @model_validator(mode="after")
    def _finite_special(self) -> Scenario:
        # JSON and TOML both carry `nan` and `inf`; a scenario parameter that is not a number no
        # rule can compare with, and a NaN would make the scenario unequal to its own saved copy.
        for key, value in self.special.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise field_error(f"special.{key}", f"must be a finite number, not {value}")
        return self

    @model_validator(mode="after")
    def _bounded_cost(self) -> Scenario:
        # Paths, sight and cover grow with the outlines' vertices: 3,200 terrain vertices made one
        # game take 10 s, 7,680 half a minute (see `skirmish.data.limits`).
        vertices = sum(len(t.polygon) for t in self.terrain)
        if vertices > MAX_TERRAIN_VERTICES:
            raise field_error(
                "terrain",
                f"{vertices} polygon vertices in all; a scenario's terrain has at most "
                f"{MAX_TERRAIN_VERTICES} (simplify the outlines)",
            )
        zones = sum(len(z.polygon) for z in [*self.deployment, *self.scoring.zones])
        if zones > MAX_ZONE_VERTICES:
            raise field_error(
                "deployment",
                f"{zones} polygon vertices in the deployment and scoring zones; at most {MAX_ZONE_VERTICES}",
            )
        return self

    @model_validator(mode="after")
    def _unique_sides(self) -> Scenario:
        # A side is known by its name everywhere after loading: the result's Battle Points, KOs and
        # models left are keyed by it, and `special` names the hero side by it. Two sides of one name
        # made a game whose result showed one side only.
        seen: dict[str, int] = {}
        for i, side in enumerate(self.sides):
            j = seen.setdefault(side.name, i)
            if j != i:
                raise field_error(f"sides[{i}].name", f"side name `{side.name}` is used twice (sides[{j}])")
        return self

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        # Each problem names its field (`deployment[1].player`, `terrain[0].polygon[2]`), as the
        # per-field checks do, rather than the scenario as a whole.
        n = len(self.sides)
        for i, z in enumerate(self.deployment):
            if z.player is None or z.player >= n:
                raise field_error(
                    f"deployment[{i}].player",
                    f"deployment zone `{z.name}` needs a `player` from 0 to {n - 1}",
                )
        missing = set(range(n)) - {z.player for z in self.deployment}
        if missing:
            raise field_error("deployment", f"players {sorted(missing)} have no deployment zone")
        outlines: list[tuple[str, Sequence[Terrain | Zone]]] = [
            ("terrain", self.terrain),
            ("deployment", self.deployment),
            ("scoring.zones", self.scoring.zones),
        ]
        for label, items in outlines:
            for i, item in enumerate(items):
                for k, (x, y) in enumerate(item.polygon):
                    if not (-1e-9 <= x <= self.board.width + 1e-9 and -1e-9 <= y <= self.board.height + 1e-9):
                        raise field_error(
                            f"{label}[{i}].polygon[{k}]",
                            f"`{item.name}`: point [{x}, {y}] lies off the {self.board.width}x"
                            f"{self.board.height} table",
                        )
        return self
