"""The Pursuit's objectives, the heroes laying low and the heroes' victory (R-X3), checked in the
scoring step once every model has moved.
"""

from __future__ import annotations

import shapely

from skirmish.engine.core.state import ModelState
from skirmish.engine.scenarios.pursuit.clock import PursuitClock
from skirmish.engine.scenarios.pursuit.config import title_of
from skirmish.engine.scenarios.specials import SpecialReader

IN_ZONE_MEMO = 4096
"""`in_zone`'s memo is emptied when it holds more centres than this."""


class PursuitObjectives(PursuitClock):
    """Objective progress in story order, Tracking relief for a hero lying low, and the win."""

    def read(self, reader: SpecialReader) -> None:
        super().read(reader)
        self._zone_polygons: dict[str, shapely.Polygon] = {}
        self._inside: dict[tuple[str, float, float], bool] = {}
        """`in_zone` answers by zone and exact centre: the heroes' bot and the scoring step ask
        it of the same few centres many times between two moves."""

    def objective_point(self) -> tuple[float, float] | None:
        """Where the current objective is (a zone's inner point), or None."""
        o = self.current_objective()
        if o is None or o.kind == "defeat":
            return None
        p = self._zone_polygon(o.target).representative_point()
        return (p.x, p.y)

    def _zone_polygon(self, zone: str) -> shapely.Polygon:
        """The scoring zone called `zone` as a polygon: built once per zone (the scenario's zones
        never change), not at every question of the scoring step and the heroes' bot."""
        polys = self._zone_polygons
        found = polys.get(zone)
        if found is None:
            z = next(z for z in self.game.scenario.scoring.zones if z.name == zone)
            found = polys[zone] = shapely.Polygon(z.polygon)
        return found

    def in_zone(self, m: ModelState, zone: str) -> bool:
        """Whether the centre of `m` lies strictly inside the scoring zone called `zone`: the same
        point test on the same floats, kept by zone and centre (the zones never change)."""
        x, y = self.game.state.xy[m.index].tolist()
        key = (zone, x, y)
        inside = self._inside.get(key)
        if inside is None:
            if len(self._inside) > IN_ZONE_MEMO:
                self._inside.clear()
            inside = self._inside[key] = bool(shapely.contains_xy(self._zone_polygon(zone), x, y))
        return inside

    def _score_objectives(self) -> None:
        g, st = self.game, self.st
        o = self.current_objective()
        if o is None:
            return
        done = False
        if o.kind == "reach":
            done = any(self.in_zone(h, o.target) for h in self.heroes())
        elif o.kind == "hold":
            held = any(self.in_zone(h, o.target) for h in self.heroes()) and not any(
                self.in_zone(a, o.target) for a in self.active_adversaries()
            )
            st["hold"] = int(st["hold"]) + 1 if held else 0
            g.emit(
                "objective",
                f"{o.title}: {title_of(o.target)} "
                + (f"held {st['hold']} of {o.amount} turn(s)" if held else "not held"),
                objective=o.name,
            )
            done = st["hold"] >= o.amount
        else:
            done = any(g.model(mid).profile.name == o.target for mid in st["defeated"])
        if done:
            st["completed"].append(o.name)
            st["objective"] = int(st["objective"]) + 1
            st["hold"] = 0
            g.emit(
                "objective",
                f"Objective complete: {o.title} ({len(st['completed'])} of {len(self.cfg.objectives)})",
                objective=o.name,
            )
            self.add_tracking(self.cfg.objective_reward_tracking, f"Completing {o.title}")

    def can_lay_low(self, m: ModelState) -> bool:
        """A hero lays low when it spends the turn Taking Cover in medium or dense cover without
        shooting, charging or fighting, with no adversary within 12": the Fire Nation loses the trail."""
        g = self.game
        if not (self.cfg.lay_low_tracking and self.is_hero(m) and m.active and m.taking_cover):
            return False
        if m.fired or m.charged or m.fought or g.cover(m) < 2:
            return False
        return all(g.distance(m, a) > 12.0 for a in self.active_adversaries())

    def _lay_low(self) -> None:
        """Tracking relief at a real cost (the hero gives up its turn): at most once a turn."""
        if self.st["outcome"] or not self.cfg.lay_low_tracking or self.tracking <= 0:
            return
        for h in self.heroes():
            if self.can_lay_low(h):
                self.st["laid_low"].append(h.id)
                self.add_tracking(self.cfg.lay_low_tracking, f"{h.name} lays low in cover")
                return

    def _check_victory(self) -> None:
        if self.all_objectives_done() and self.adversaries_defeated():
            self._decide("won", "every objective is complete and every adversary is defeated")
