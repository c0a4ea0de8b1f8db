"""Scenario victory kinds and special rules (R-T4, R-E3, R-X1..R-X3)."""

from skirmish.engine.scenarios.specials import rules_for

__all__ = ["rules_for"]
