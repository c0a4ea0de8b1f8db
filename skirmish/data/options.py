"""Rule options: the rulings of `docs/rules.md` that a group may switch (defaults are the rulings)."""

from __future__ import annotations

from pydantic import Field

from skirmish.data.base import Strict


class RuleOptions(Strict):
    """Switches for the rulings marked *option* in the rules reference."""

    premeasure: bool = Field(
        default=False, description="Measure before declaring a shot or charge (R-C1 range guessing off)."
    )
    priority_roll: bool = Field(
        default=False, description="Roll a D6 each turn for player order, highest first (R-T2)."
    )
    shoot_into_melee: bool = Field(default=False, description="Models in melee may shoot and be shot (R-C6).")
    models_block_sight: bool = Field(default=False, description="Other bases block line of sight (R-B3).")
    cover_shield_in_melee: bool = Field(
        default=True,
        description="Taking Cover's Wall Shield counts as a shield in melee: its attackers get the "
        "'enemy has a shield' -1 (R-M4, R-C4).",
    )
    weakness_cycle: bool = Field(
        default=True,
        description="R-X1 outside the Avatar Duel: +1 to hit with a bending attack of the element the "
        "target's native element is weak to.",
    )
    bending_reactions: bool = Field(
        default=True,
        description="R-X2 outside the Avatar Duel: the target of a bending attack may pay AP for Block, "
        "Deflect or Reflect.",
    )
    ko_points: int | None = Field(
        default=None,
        ge=0,
        le=100,
        description="Battle Points per enemy model KO'd, overriding the scenario's [scoring] (R-E3).",
    )

    def with_overrides(self, overrides: dict[str, object]) -> RuleOptions:
        """A copy with `overrides` applied and re-validated (so `--option` gets the file checks)."""
        return RuleOptions.model_validate({**self.model_dump(), **overrides})
