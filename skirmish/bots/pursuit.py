"""The heroes' bot for the Pursuit (R-X3): the heuristic bot with roles, as a co-operative table plays.

Each time it acts it gives every hero a role for the current objective:

- **runner** (a `reach` objective): the hero who gets there soonest — a flyer, or a glider that opens
  Air Glide on the way — heads for the zone and does not stop to fight;
- **holders** (a `hold` objective): the two toughest heroes nearest the zone stand in it and only
  fight what comes into it;
- **hunters**: everyone else closes on the active adversary (the one on the table) and shoots or
  charges it first — every adversary must fall before the heroes can win.

It protects the Avatar: Aang is never the one to hold a zone or charge, and keeps to shooting range.
It knows the clock: when Tracking is near its end a hunter with nothing in reach lays low in cover
(Taking Cover, holding its fire) to move the ship token back, and gliders save no AP for later.

It reads only what every player sees (positions, HP, Tracking, the revealed objective, the active
adversary); the face-down stack and the deck order are never read.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from skirmish.bots.heuristic import HeuristicBot
from skirmish.engine import queries
from skirmish.engine.core.actions import Action, Shoot, TakeCover, UseAbility
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game
from skirmish.engine.scenarios import PursuitRules

AVATAR = "avatar"
"""The keyword of the hero the Fire Nation is hunting (the heroes lose if he is caught)."""

CLOCK_MARGIN = 4
"""Tracking this close to its end makes idle hunters lay low."""


class PursuitHeroBot(HeuristicBot):
    name = "heuristic"

    def __init__(self, seed: int, player: int) -> None:
        super().__init__(seed, player)
        self._roles_memo: WeakKeyDictionary[Game, dict[tuple[object, ...], dict[str, str]]]
        self._roles_memo = WeakKeyDictionary()
        self._point_memo: tuple[object, object, tuple[float, float] | None] | None = None
        self._speed_memo: WeakKeyDictionary[Game, dict[str, float]] = WeakKeyDictionary()
        self._no_avatar = False
        """Set while the charges step chooses: the Avatar is never the one to charge in."""

    # ------------------------------------------------------------- roles
    def _rules(self, game: Game) -> PursuitRules:
        assert isinstance(game.rules, PursuitRules)
        return game.rules

    def roles(self, game: Game) -> dict[str, str]:
        """Model id -> `runner`, `holder` or `hunter`, for the heroes on the table now."""
        return self._once(game, ("roles",), lambda: self._roles_memoised(game))

    def _roles_memoised(self, game: Game) -> dict[str, str]:
        """Memoised weakly per game on everything the roles are worked out from: the current
        objective (by value) and each hero's active flag, HP and position. With no objective, or
        one without a point (defeat), every active hero hunts: no key is built for that."""
        o = self._rules(game).current_objective()
        goal = self._objective_point(game, o)
        mine = game.player_models(self.player)
        if o is None or goal is None:
            return {m.id: "hunter" for m in mine if m.active}
        # The positions by value, one conversion for all (the roles read them as plain floats:
        # equal floats, a zero's sign apart, give the same distances and so the same roles).
        rows = game.state.xy.tolist()
        heroes = tuple([(m.active, m.hp, *rows[m.index]) for m in mine])
        key = (o, heroes)
        memo = self._roles_memo.get(game)
        if memo is None:
            memo = self._roles_memo[game] = {}
        found = memo.get(key)
        if found is None:
            if len(memo) > 64:
                memo.clear()
            found = memo[key] = self._roles_now(game, o.kind, goal, [m for m in mine if m.active], rows)
        return found

    def _objective_point(self, game: Game, o: object = False) -> tuple[float, float] | None:
        """`objective_point()` of the rules: a function of the current objective and the scenario's
        zones alone (the zone's inner point), so worked out once per objective. `o`: the current
        objective when the caller has just read it."""
        if o is False:
            o = self._rules(game).current_objective()
        found = self._point_memo
        if found is None or found[0] is not o or found[1] is not game.scenario:
            found = self._point_memo = (o, game.scenario, self._rules(game).objective_point())
        return found[2]

    def _roles_now(
        self,
        game: Game,
        kind: str,
        goal: tuple[float, float],
        heroes: list[ModelState],
        xy: list[list[float]],
    ) -> dict[str, str]:
        """The roles of the active `heroes` for an objective of `kind` at point `goal` (`xy`: every
        model's centre as plain floats)."""
        roles = {m.id: "hunter" for m in heroes}
        gx, gy = goal
        dist = {m.id: float(np.hypot(xy[m.index][0] - gx, xy[m.index][1] - gy)) for m in heroes}
        if kind == "reach":
            runner = min(heroes, key=lambda m: (dist[m.id] / self._speed(game, m), m.index))
            roles[runner.id] = "runner"
        else:
            hold = [m for m in heroes if AVATAR not in m.profile.keywords] or heroes
            ranked = sorted(hold, key=lambda m: (-self._toughness(game, m), dist[m.id], m.index))
            for m in ranked[:2]:
                roles[m.id] = "holder"
        return roles

    def _speed(self, game: Game, m: ModelState) -> float:
        """Inches a turn over open ground, counting a glide (and flying over terrain as a bonus): a
        function of the model's profile and armoury, which never change in a game, so kept per
        game (weakly) by model id; the runner is chosen by it at nearly every decision."""
        known = self._speed_memo.setdefault(game, {})
        found = known.get(m.id)
        if found is None:
            found = known[m.id] = self._speed_now(game, m)
        return found

    @staticmethod
    def _speed_now(game: Game, m: ModelState) -> float:
        bonus = max(
            (
                float(a.params.get("bonus_move", 0))
                for a in queries.abilities_of(m, game.armoury(m))
                if a.effect == "glide"
            ),
            default=0.0,
        )
        return m.profile.move + bonus + (2.0 if m.profile.flying or bonus else 0.0)

    def _goal(self, game: Game, m: ModelState) -> tuple[float, float] | None:
        # Asked many times in one decision (hints, zone duty, abilities): worked out once each. A
        # hunter's reach depends on whether the Avatar is left out (in the charges step).
        key = ("goal", m.id, self._no_avatar)
        return self._once(game, key, lambda: self._goal_now(game, m))

    def _goal_now(self, game: Game, m: ModelState) -> tuple[float, float] | None:
        role = self.roles(game).get(m.id)
        if role in ("runner", "holder"):
            return self._objective_point(game)
        return self._hunt_point(game, m)

    def _hunt_point(self, game: Game, m: ModelState) -> tuple[float, float] | None:
        """Where a hunter goes: within shooting range of the active adversary (a shooter, and always
        the Avatar), or beside it (a fighter, and everyone once it is held in melee); None once
        there, so the bot shoots or charges."""
        foes = self._active_adversaries(game)
        if not foes:
            return None
        s = game.state
        dist = game.distance
        a = min(foes, key=lambda f: (dist(m, f), f.index)) if len(foes) > 1 else foes[0]
        d = dist(m, a)
        # plain floats: the sums of the 2-vectors they replace, in the same order
        (hx, hy), (tx, ty) = s.xy[m.index].tolist(), s.xy[a.index].tolist()
        gap = float(np.hypot(hx - tx, hy - ty))
        avatar = AVATAR in m.profile.keywords
        # an adversary held in melee cannot be shot: everyone but the Avatar closes in to join it
        # (asked first: cheaper than whether `m` is a shooter, and both only read)
        shooter = avatar or (not game.in_melee(a) and self._is_shooter(game, m))
        reach = max(2.0, self._best_range(game, m) - 1.0) if shooter else max(1.0, m.profile.charge - 1.0)
        if d <= reach or gap < 1e-6:
            return None
        stand = float(s.radii[a.index] + s.radii[m.index]) + (reach if shooter else 0.0)
        return (tx + (hx - tx) / gap * stand, ty + (hy - ty) / gap * stand)

    def _active_adversaries(self, game: Game) -> list[ModelState]:
        """The rules' `active_adversaries()`, once per decision (nothing leaves or comes back while
        the bot chooses; callers only read the list)."""
        return self._once(game, ("adversaries",), self._rules(game).active_adversaries)

    def _scenario_hints(self, game: Game, player: int) -> tuple[dict[str, tuple[float, float]], set[str]]:
        goals: dict[str, tuple[float, float]] = {}
        for m in game.player_models(player):
            if m.active:
                g = self._goal(game, m)
                if g is not None:
                    goals[m.id] = g
        return goals, {a.id for a in self._active_adversaries(game)}

    def _hint_targets(self, game: Game, player: int) -> set[str]:
        # `_scenario_hints`' second half: the active adversaries, without every hero's goal
        return {a.id for a in self._active_adversaries(game)}

    def _goal_hint(self, game: Game, m: ModelState) -> tuple[float, float] | None:
        # `_scenario_hints`' entry for an active model is its `_goal`: asked alone, the other
        # heroes' goals are not worked out.
        return self._goal(game, m) if m.active else None

    def _zone_duty(self, game: Game, m: ModelState) -> np.ndarray | None:
        g = self._goal(game, m)
        return None if g is None else np.asarray(g, dtype=float)

    def _in_zone(self, game: Game, m: ModelState) -> bool:
        o = self._rules(game).current_objective()
        if o is None or o.kind == "defeat":
            return False
        return self._rules(game).in_zone(m, o.target)  # the rules keep the zone's polygon

    # ------------------------------------------------------------- the clock
    def _near_the_end(self, game: Game) -> bool:
        rules = self._rules(game)
        return rules.tracking >= rules.cfg.tracking_length - CLOCK_MARGIN

    def _lays_low(self, game: Game, m: ModelState) -> bool:
        """A hunter with no adversary within reach, in medium or dense cover, when the clock is short."""
        rules = self._rules(game)
        if not rules.cfg.lay_low_tracking or not self._near_the_end(game):
            return False
        if self.roles(game).get(m.id) != "hunter" or game.cover(m) < 2:
            return False
        return all(game.distance(m, a) > 12.0 for a in rules.active_adversaries())

    def _take_cover(self, game: Game) -> Action | None:
        for a in queries.cover_options(game, game.state.active_player):
            assert isinstance(a, TakeCover)
            if self._lays_low(game, game.model(a.model)):
                return a
        return super()._take_cover(game)

    def _shooting(self, game: Game) -> Action | None:
        action = super()._shooting(game)
        if isinstance(action, Shoot | UseAbility) and self._holding_fire(game, game.model(action.model)):
            return self._shooting_without(game, action.model)
        return action

    def _holding_fire(self, game: Game, m: ModelState) -> bool:
        rules = self._rules(game)
        return m.taking_cover and rules.can_lay_low(m) and not rules.st["laid_low"]

    def _shooting_without(self, game: Game, model_id: str) -> Action | None:
        """The best shot of anyone but the hero laying low (who must not fire)."""
        m = game.model(model_id)
        m.fired = True  # hide it from the candidate lists for this one choice
        try:
            return super()._shooting(game)
        finally:
            m.fired = False

    # ------------------------------------------------------------- movement
    def _useful_move_abilities(self, game: Game, m: ModelState) -> set[str]:
        out = super()._useful_move_abilities(game, m)
        goal = self._goal(game, m)
        if goal is None:
            foes = self._foes(game, m)
            if not foes:
                return out
            f = min(foes, key=lambda f: (game.distance(m, f), f.index))
            far = game.distance(m, f) > m.profile.move + self._best_range(game, m)
        else:
            # plain floats: the 2-vector's subtraction and hypot, element by element
            x, y = game.state.xy[m.index].tolist()
            far = float(np.hypot(goal[0] - x, goal[1] - y)) > m.profile.move
        if far:
            out |= {a.name for a in queries.abilities_of(m, game.armoury(m)) if a.effect == "glide"}
        return out

    def _charges(self, game: Game) -> Action | None:
        self._no_avatar = True  # the Avatar is never the one to charge in
        try:
            return super()._charges(game)
        finally:
            self._no_avatar = False

    def _is_shooter(self, game: Game, m: ModelState) -> bool:
        """A hunter joins the melee when the active adversary is already held in it (shots cannot go
        into a melee, and each friend in it adds 1, R-C4); the Avatar keeps his distance."""
        if (
            self._no_avatar
            and AVATAR not in m.profile.keywords
            and self.roles(game).get(m.id) == "hunter"
            and any(game.in_melee(a) for a in self._active_adversaries(game))
        ):
            return False
        return super()._is_shooter(game, m)

    def _mine(self, game: Game) -> list[ModelState]:
        mine = super()._mine(game)
        if self._no_avatar:
            return [m for m in mine if AVATAR not in m.profile.keywords]
        return mine
