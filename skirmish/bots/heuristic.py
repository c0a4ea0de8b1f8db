"""The heuristic bot: plays like a sensible beginner with a tape measure.

It moves toward cover and targets, shoots the target with the best exact odds, charges when the
melee odds favour it, takes cover when out-gunned and heads for scoring zones. It reads distances
exactly (it does not guess ranges); that is its only advantage over a person. Every choice is a
deterministic function of the game state, so games with the same seed are identical.
"""

from __future__ import annotations

import numpy as np
import shapely

from skirmish.battlefield.measure import CONTACT
from skirmish.engine import abilities, charges, end_phase, movement, shooting
from skirmish.engine.actions import Action, CounterCharge, Decline, EndStep, Move, React, Shoot, TakeCover
from skirmish.engine.game import Game
from skirmish.engine.melee import melee_score
from skirmish.engine.state import ModelState, melee_weapon
from skirmish.rules.odds import melee_odds, shot_odds


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int, player: int) -> None:
        self.player = player

    # ------------------------------------------------------------- dispatch
    def choose(self, game: Game) -> Action:
        s = game.state
        if s.pending is not None:
            return self._pending(game)
        step = s.step
        chooser = {
            "movement": self._movement, "take_cover": self._take_cover, "shooting": self._shooting,
            "charges": self._charges, "advances": self._advances,
        }.get(step)
        if chooser is not None:
            action = chooser(game)
            if action is not None:
                return action
        return EndStep()

    def _pending(self, game: Game) -> Action:
        options = game.legal_actions()
        for a in options:
            if isinstance(a, React):
                return a
        for a in options:
            if isinstance(a, CounterCharge):
                me, foe = game.model(a.model), game.model(a.target)
                if self._melee_edge(game, me, foe, charging=True) >= 0:
                    return a
        return Decline()

    # ------------------------------------------------------------- helpers
    def _mine(self, game: Game) -> list[ModelState]:
        return [m for m in game.player_models(game.state.active_player) if m.active]

    def _foes(self, game: Game, m: ModelState) -> list[ModelState]:
        return [o for o in game.state.models if o.active and game.enemies(o, m)]

    def _best_range(self, game: Game, m: ModelState) -> float:
        specs = [sp for sp in shooting.shot_specs(game, m) if sp.ap_cost == 0 or sp.ap_cost <= m.ap]
        return max((sp.range for sp in specs), default=0.0)

    def _is_shooter(self, game: Game, m: ModelState) -> bool:
        return self._best_range(game, m) > 0 and m.profile.ranged >= m.profile.combat

    def _melee_edge(self, game: Game, me: ModelState, foe: ModelState, *, charging: bool) -> float:
        """Expected hits I deal minus hits I take in one exchange, from the exact odds."""
        mine = melee_score(game, me, [foe], 0).base_total + (1 if charging and not me.charged else 0)
        theirs = melee_score(game, foe, [me], 0).base_total
        mw, tw = melee_weapon(me, game.armoury(me)), melee_weapon(foe, game.armoury(foe))
        from skirmish.engine.damage import saves_of

        ma, ms = saves_of(game, me)
        ta, ts = saves_of(game, foe)
        odds = melee_odds(mine, theirs, attacker_armour=ma, attacker_shield=ms, defender_armour=ta,
                          defender_shield=ts, attacker_shield_breaker=bool(mw and mw.shield_breaker),
                          defender_shield_breaker=bool(tw and tw.shield_breaker),
                          attacker_damage=mw.damage if mw else 1, defender_damage=tw.damage if tw else 1,
                          attacker_hp=me.hp, defender_hp=foe.hp)
        return (odds.defender_wounded + odds.defender_ko) - (odds.attacker_wounded + odds.attacker_ko)

    # ------------------------------------------------------------- Move Phase
    def _movement(self, game: Game) -> Action | None:
        s = game.state
        for m in self._mine(game):
            if not movement.can_move(game, m):
                continue
            use = self._move_ability(game, m)
            if use is not None:
                return use
            choice = self._pick_move(game, m)
            if choice is not None:
                return choice
            m_id = m.id
            # Nothing better than standing still: mark the model as done by a zero-cost choice.
            self._stay = getattr(self, "_stay", set())
            self._stay.add((s.turn, m_id))
        return None

    def _move_ability(self, game: Game, m: ModelState) -> Action | None:
        for a in abilities.candidates(game, game.state.active_player):
            if getattr(a, "model", None) == m.id and a.ability in self._useful_move_abilities(game, m):
                return a
        return None

    def _useful_move_abilities(self, game: Game, m: ModelState) -> set[str]:
        out = set()
        foes = self._foes(game, m)
        if not foes:
            return out
        near = min(game.distance(m, f) for f in foes)
        for a in abilities.abilities_of(m, game.armoury(m)):
            if a.effect == "buff" and near <= 12:
                out.add(a.name)
            if a.effect == "wall" and near <= 10 and self._is_shooter(game, m) is False:
                continue
        return out

    def _pick_move(self, game: Game, m: ModelState) -> Action | None:
        if (s_turn := game.state.turn, m.id) in getattr(self, "_stay", set()):
            return None
        s = game.state
        foes = self._foes(game, m)
        if not foes:
            return None
        goals = movement.default_goals(game, m)
        zone_goals = [np.array(shapely.Polygon(z.polygon).centroid.coords[0]) for z in game.scenario.scoring.zones]
        goals.extend(zone_goals)
        candidates = movement.model_moves(game, m, goals)
        if not candidates:
            return None
        here = s.xy[m.index].copy()
        ends = np.array([c.path[-1] for c in candidates] + [tuple(here)])
        score = self._score_positions(game, m, ends, zone_goals)
        best = int(np.argmax(score))
        if best == len(candidates) or score[best] <= score[-1] + 1e-9:
            return None
        return candidates[best]

    def _score_positions(self, game: Game, m: ModelState, ends: np.ndarray, zones: list[np.ndarray]) -> np.ndarray:
        """Cheap value of standing at each point: cover, the right distance to the enemy, zones."""
        s = game.state
        rank, _ = game.table.cover_of(ends)
        rank = np.asarray(rank, dtype=float)
        if m.profile.flying:
            rank[:] = 0
        foes = self._foes(game, m)
        fxy = np.array([s.xy[f.index] for f in foes])
        fr = np.array([s.radii[f.index] for f in foes])
        d = np.hypot(ends[:, None, 0] - fxy[None, :, 0], ends[:, None, 1] - fxy[None, :, 1]) - fr[None, :] \
            - s.radii[m.index]
        nearest = d.min(axis=1)
        if self._is_shooter(game, m):
            want = max(2.0, self._best_range(game, m) - 2.0)
            value = -np.abs(nearest - want) * 0.4 + np.where(rank >= 2, 2.5, np.where(rank == 1, 1.0, 0.0))
            value -= np.where(nearest < 4.0, 2.0, 0.0)  # stay out of easy charge reach
        else:
            reach = m.profile.charge
            value = -np.maximum(nearest - (reach - 1.0), 0.0) * 0.6 + np.where(rank >= 2, 1.0, 0.0)
        for z in zones:
            dz = np.hypot(ends[:, 0] - z[0], ends[:, 1] - z[1])
            value += np.where(dz < 3.0, 2.0, 0.0) - dz * 0.02
        return value

    def _take_cover(self, game: Game) -> Action | None:
        for a in movement.cover_candidates(game, game.state.active_player):
            assert isinstance(a, TakeCover)
            m = game.model(a.model)
            foes = self._foes(game, m)
            threatened = any(self._best_range(game, f) >= game.distance(f, m) and game.sees(f, m) for f in foes)
            my_shots = any(self._best_range(game, m) >= game.distance(m, f) and game.sees(m, f) for f in foes)
            charge_near = any(game.distance(m, f) <= m.profile.charge for f in foes)
            if threatened and not my_shots and not charge_near:
                return a
        return None

    # ------------------------------------------------------------- Combat Phase
    def _shooting(self, game: Game) -> Action | None:
        for a in abilities.candidates(game, game.state.active_player):
            ab = next(x for x in abilities.abilities_of(game.model(a.model), game.armoury(game.model(a.model)))
                      if x.name == a.ability)
            if ab.effect == "heal":
                return a
        best: tuple[float, Shoot] | None = None
        for a in shooting.candidates(game, game.state.active_player):
            assert isinstance(a, Shoot)
            shooter, target = game.model(a.model), game.model(a.target)
            spec = next(sp for sp in shooting.shot_specs(game, shooter) if sp.name == a.weapon)
            if game.distance(shooter, target) > spec.range:
                continue
            attack, dodge = shooting.shot_scores(game, shooter, target, spec)
            from skirmish.engine.damage import saves_of

            armour, shield = saves_of(game, target)
            odds = shot_odds(attack.base_total, dodge.base_total, armour, shield, target.taking_cover,
                             spec.shield_breaker, spec.damage, target.hp)
            if target.taking_cover:
                p = min(1.0, shooter.profile.perception / 6)
                value = (odds.wound + odds.ko) * p
            else:
                value = odds.wound + odds.ko
            value -= 0.05 * spec.ap_cost
            if best is None or value > best[0]:
                best = (value, a)
        if best is not None and best[0] > 0.02:
            return best[1]
        return None

    def _charges(self, game: Game) -> Action | None:
        for a in abilities.candidates(game, game.state.active_player):
            m = game.model(a.model)
            ab = next(x for x in abilities.abilities_of(m, game.armoury(m)) if x.name == a.ability)
            if ab.effect == "buff" and (game.in_melee(m) or any(
                    game.distance(m, f) <= m.profile.charge for f in self._foes(game, m))):
                return a
            if ab.effect == "chi_block":
                return a
        best: tuple[float, Action] | None = None
        for m in self._mine(game):
            if not charges.can_charge(game, m):
                continue
            if self._is_shooter(game, m) and not any(game.distance(m, f) <= 2.5 for f in self._foes(game, m)):
                continue
            for t in charges.charge_targets(game, m):
                if game.distance(m, t) > m.profile.charge:
                    continue
                found = charges.measure(game, m, t)
                if found is None or found[1] > m.profile.charge:
                    continue
                edge = self._melee_edge(game, m, t, charging=True)
                if t.taking_cover:
                    edge *= m.profile.perception / 6
                if edge > -0.05 and (best is None or edge > best[0]):
                    best = (edge, charges.Charge(m.id, t.id))
        return None if best is None else best[1]

    # ------------------------------------------------------------- End Phase
    def _advances(self, game: Game) -> Action | None:
        acts = end_phase.candidates(game, game.state.active_player)
        if not acts:
            return None
        return acts[0]


def _unused(*_: object) -> None:
    return None


__all__ = ["HeuristicBot", "CONTACT", "Move"]
