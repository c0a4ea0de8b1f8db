"""Model profiles (R-P1) and troupes: the models a player brings to the table."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, model_validator

from skirmish.data.armoury import Armoury
from skirmish.data.base import Name, Strict, Text, Title, field_error
from skirmish.data.limits import MAX_MODELS_PER_TROUPE


class Element(StrEnum):
    fire = "fire"
    water = "water"
    earth = "earth"
    air = "air"


class Kingdom(StrEnum):
    earth_kingdom = "earth_kingdom"
    fire_nation = "fire_nation"
    water_tribe = "water_tribe"
    air_nomads = "air_nomads"


class Allegiance(StrEnum):
    """Which side of the war a troupe fights on (the seed: for or against the Avatar)."""

    avatar = "avatar"
    fire_nation = "fire_nation"
    neutral = "neutral"


class Profile(Strict):
    """One model's profile (R-P1)."""

    name: Name = Field(description="Identifier, unique in the troupe, e.g. `sokka`.")
    title: Title = Field(description="Name shown to players, e.g. `Sokka`.")
    move: float = Field(ge=0, le=24, description="Inches moved in the Move Phase (R-M2).")
    ap: int = Field(ge=0, le=20, description="Ability points each turn before the bonus roll (R-M1).")
    ranged: int = Field(ge=-5, le=10, description="Ranged skill added to the shooting die (R-C1).")
    dodge: int = Field(ge=-5, le=10, description="Dodge skill added to the dodge die (R-C1).")
    combat: int = Field(default=0, ge=-5, le=10, description="Melee skill added to the combat die (R-C4).")
    hp: int = Field(ge=1, le=30, description="Hit points; at 0 the model is KO'd (R-S1).")
    perception: int = Field(ge=0, le=6, description="Passes a Perception test on a D6 roll <= this (R-M5).")
    base: float = Field(default=1.0, ge=0.5, le=6.0, description="Base diameter in inches (R-B4).")
    armour: Name | None = Field(default=None, description="Armour name from the armoury (R-P2).")
    shield: Name | None = Field(default=None, description="Shield name from the armoury (R-P2).")
    weapons: Annotated[list[Name], Field(max_length=8)] = Field(
        default_factory=list, description="Weapon names from the armoury (R-P3)."
    )
    abilities: Annotated[list[Name], Field(max_length=16)] = Field(
        default_factory=list, description="Ability names from the armoury (R-P4)."
    )
    elements: Annotated[list[Element], Field(max_length=4)] = Field(
        default_factory=list, description="Elements the model can bend."
    )
    keywords: Annotated[list[Name], Field(max_length=16)] = Field(
        default_factory=list, description="Free keywords, e.g. `hero`, `beast`, `archer`."
    )
    points: int = Field(ge=0, le=1000, description="Points cost for troupe building.")
    charge: float = Field(default=6.0, ge=0, le=24, description="Charge range in inches (R-C3).")
    advance: float = Field(
        default=6.0, ge=0, le=24, description="Advance distance (R-E1); 0 means the model cannot advance."
    )
    flying: bool = Field(default=False, description="Ignores terrain when moving, never in cover (R-B4).")
    hero: bool = Field(default=False, description="A hero: counts against the troupe's hero limit.")
    unique: bool = Field(default=False, description="A named character: at most one per troupe.")
    any_kingdom: bool = Field(default=False, description="May join a troupe of any kingdom.")
    kingdom: Kingdom | None = Field(
        default=None, description="Kingdom of the model; defaults to the troupe's."
    )

    @model_validator(mode="after")
    def _no_repeats(self) -> Profile:
        # A name listed twice is a slip, never a second copy: an ability given twice was offered
        # twice in every list of legal actions (and weighed twice by a random bot).
        for label in ("weapons", "abilities", "elements", "keywords"):
            items: list[str] = [str(x) for x in getattr(self, label)]
            for i, item in enumerate(items):
                if item in items[:i]:
                    raise field_error(f"{label}[{i}]", f"`{item}` is listed twice")
        return self


class TroupeEntry(Strict):
    """A profile and how many models of it the troupe fields."""

    count: int = Field(default=1, ge=1, le=30, description="How many models with this profile.")
    profile: Profile = Field(description="The profile these models share.")


def model_ids(entry: TroupeEntry) -> list[str]:
    """The ids the engine gives the models of `entry` (without the seat prefix): `name` or `name_1`..."""
    name = entry.profile.name
    return [name] if entry.count == 1 else [f"{name}_{k + 1}" for k in range(entry.count)]


class Troupe(Strict):
    """A troupe file: a player's models, with any troupe-specific armoury items."""

    name: Name = Field(description="Identifier used by commands, e.g. `team_avatar`.")
    title: Title = Field(description="Name shown to players.")
    description: Text = Field(default="", description="A short description of the troupe.")
    kingdom: Kingdom = Field(description="The troupe's kingdom.")
    allegiance: Allegiance = Field(default=Allegiance.neutral, description="For or against the Avatar.")
    heroic: bool = Field(
        default=False, description="A pre-made Heroic Troupe (building limits do not apply)."
    )
    points: int | None = Field(default=None, ge=0, le=100000, description="Declared points total, if any.")
    models: Annotated[list[TroupeEntry], Field(min_length=1, max_length=40)] = Field(
        description="The troupe's models."
    )
    armoury: Armoury = Field(default_factory=Armoury, description="Troupe-specific armoury items.")

    @model_validator(mode="after")
    def _unique_model_ids(self) -> Troupe:
        # The engine names models `name`, or `name_1`, `name_2`... when a profile has a count: two
        # models with one id would be one model to every action and log line.
        names: dict[str, int] = {}
        owner: dict[str, int] = {}
        for i, entry in enumerate(self.models):
            name = entry.profile.name
            if name in names:
                raise field_error(f"models[{i}].profile.name", f"model name `{name}` is used twice")
            names[name] = i
            for model_id in model_ids(entry):
                j = owner.setdefault(model_id, i)
                if j != i:
                    raise field_error(
                        f"models[{i}].profile.name",
                        f"model id `{model_id}` is used twice (models[{j}] and models[{i}], counts "
                        f"expanded as `name_1`, `name_2`...); rename one",
                    )
        total = self.model_count()
        if total > MAX_MODELS_PER_TROUPE:
            raise field_error(
                "models", f"{total} models after counts; a troupe has at most {MAX_MODELS_PER_TROUPE}"
            )
        return self

    def total_points(self) -> int:
        return sum(e.count * e.profile.points for e in self.models)

    def model_count(self) -> int:
        return sum(e.count for e in self.models)
