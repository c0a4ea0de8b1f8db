"""Armour, shields, weapons and abilities (R-P2, R-P3, R-P4).

The armoury is shared data: troupe files name items, and the loader checks that each name exists.
The standard items of the rulebook ship in `skirmish/data/armoury.toml`; a troupe may add its own
character-specific items in the same shape.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Annotated

from pydantic import Field, field_validator, model_validator

from skirmish.data.base import Name, Save, Strict, Text, Title, field_error
from skirmish.data.effects import effect_problem, param_problems


class Armour(Strict):
    """A worn armour and its save (R-P2)."""

    name: Name = Field(description="Identifier troupe files use, e.g. `light`.")
    title: Title = Field(description="Name shown to players, e.g. `Light Armour`.")
    save: Save = Field(description="D6 score needed to stop a hit (R-S1), e.g. 5 for 5+.")


class Shield(Strict):
    """A carried shield: a second, separate save (R-P2, R-S1)."""

    name: Name = Field(description="Identifier troupe files use, e.g. `buckler`.")
    title: Title = Field(description="Name shown to players.")
    save: Save = Field(description="D6 score needed to stop a hit, e.g. 5 for 5+.")


class WeaponKind(StrEnum):
    melee = "melee"
    ranged = "ranged"


class Weapon(Strict):
    """A weapon (R-P3). Ranged weapons have a range; every weapon deals `damage` per hit."""

    name: Name = Field(description="Identifier troupe files use, e.g. `bow`.")
    title: Title = Field(description="Name shown to players.")
    kind: WeaponKind = Field(description="`melee` or `ranged`.")
    range: float | None = Field(
        default=None, gt=0, le=72, description="Range in inches, edge to edge (ranged weapons only)."
    )
    damage: int = Field(default=1, ge=1, le=10, description="HP lost per unsaved hit.")
    shield_breaker: bool = Field(
        default=False, description="Negates armour and shield saves, not Taking Cover's Wall Shield (R-S2)."
    )
    two_hand: bool = Field(default=False, description="A pair of hand weapons: +1 in melee (R-C4).")
    element: str | None = Field(
        default=None, description="Bending element of the attack (fire, water, earth, air), for R-X1."
    )

    @model_validator(mode="after")
    def _range_matches_kind(self) -> Weapon:
        if self.kind is WeaponKind.ranged and self.range is None:
            raise ValueError("a ranged weapon needs a `range`")
        if self.kind is WeaponKind.melee and self.range is not None:
            raise ValueError("a melee weapon has no `range`")
        return self


class Timing(StrEnum):
    """When an ability may be used (R-P4): the step of the turn it belongs to."""

    move = "move"
    take_cover = "take_cover"
    shooting = "shooting"
    charges = "charges"
    melee = "melee"
    end = "end"
    reaction = "reaction"
    passive = "passive"


class Ability(Strict):
    """An ability paid in AP (R-P4). `effect` names the engine handler; `params` tune it."""

    name: Name = Field(description="Identifier troupe files use, e.g. `water_whip`.")
    title: Title = Field(description="Name shown to players.")
    description: Text = Field(default="", description="Rules text shown on the profile card.")
    ap_cost: int = Field(default=0, ge=0, le=20, description="AP spent to use it (R-P4).")
    timing: Timing = Field(description="The step of the turn in which it may be used.")
    effect: Name = Field(description="The engine effect that resolves it, e.g. `ranged_attack`, `heal`.")
    element: str | None = Field(default=None, description="Bending element, for R-X1/R-X2.")
    range: float | None = Field(default=None, gt=0, le=72, description="Range in inches, if any.")
    params: dict[str, float | int | bool | str] = Field(
        default_factory=dict,
        description="Effect parameters, e.g. `damage`, `distance`, `amount` (see `docs/troupes.md`).",
    )

    @field_validator("effect")
    @classmethod
    def _known_effect(cls, effect: str) -> str:
        why = effect_problem(effect)
        if why is not None:
            raise ValueError(why)
        return effect

    @model_validator(mode="after")
    def _params_fit_effect(self) -> Ability:
        # Typed, finite and bounded for the effect that reads them: `range = -7` or `damage = nan`
        # would otherwise reach the rules mid-game.
        found = param_problems(self.effect, dict(self.params))
        if len(found) == 1:
            key, why = found[0]
            raise field_error(f"params.{key}", why)
        if found:
            raise field_error("params", "; ".join(f"{key}: {why}" for key, why in found))
        return self


class Armoury(Strict):
    """A set of named items: the rulebook's standard items, or a troupe's own."""

    armour: Annotated[list[Armour], Field(max_length=200)] = Field(
        default_factory=list, description="Armours (R-P2)."
    )
    shields: Annotated[list[Shield], Field(max_length=200)] = Field(
        default_factory=list, description="Shields (R-P2)."
    )
    weapons: Annotated[list[Weapon], Field(max_length=500)] = Field(
        default_factory=list, description="Weapons (R-P3)."
    )
    abilities: Annotated[list[Ability], Field(max_length=500)] = Field(
        default_factory=list, description="Abilities (R-P4)."
    )

    @model_validator(mode="after")
    def _unique_names(self) -> Armoury:
        for kind in ("armour", "shields", "weapons", "abilities"):
            seen: set[str] = set()
            for item in getattr(self, kind):
                if item.name in seen:
                    raise ValueError(f"{kind}: `{item.name}` is defined twice")
                seen.add(item.name)
        return self

    def merged(self, other: Armoury) -> Armoury:
        """This armoury with `other`'s items added; `other` may not redefine a name."""
        return Armoury(
            armour=[*self.armour, *other.armour],
            shields=[*self.shields, *other.shields],
            weapons=[*self.weapons, *other.weapons],
            abilities=[*self.abilities, *other.abilities],
        )

    # The lookups are asked in every shot and melee; the armoury is frozen, so each table is built
    # once per armoury (callers must not mutate the returned dicts).
    @functools.cached_property
    def _armour_index(self) -> dict[str, Armour]:
        return {a.name: a for a in self.armour}

    @functools.cached_property
    def _shield_index(self) -> dict[str, Shield]:
        return {s.name: s for s in self.shields}

    @functools.cached_property
    def _weapon_index(self) -> dict[str, Weapon]:
        return {w.name: w for w in self.weapons}

    @functools.cached_property
    def _ability_index(self) -> dict[str, Ability]:
        return {a.name: a for a in self.abilities}

    def armour_by_name(self) -> dict[str, Armour]:
        return self._armour_index

    def shield_by_name(self) -> dict[str, Shield]:
        return self._shield_index

    def weapon_by_name(self) -> dict[str, Weapon]:
        return self._weapon_index

    def ability_by_name(self) -> dict[str, Ability]:
        return self._ability_index
