"""Scenario-specific rules, chosen by the scenario's `victory` and `special` keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.scenario_rules import ScenarioRules

if TYPE_CHECKING:
    from skirmish.engine.game import Game


def rules_for(game: Game) -> ScenarioRules:
    return ScenarioRules(game)
