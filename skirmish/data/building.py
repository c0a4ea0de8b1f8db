"""Troupe-building rules for custom troupes (placeholder until the building rules land)."""

from __future__ import annotations

from skirmish.data.errors import Problem
from skirmish.data.troupe import Troupe


def building_problems(troupe: Troupe, name: str, points_limit: int = 0) -> list[Problem]:
    """Every building rule `troupe` breaks, each naming the rule and by how much."""
    return []
