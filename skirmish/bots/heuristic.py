"""The heuristic bot: plays like a sensible beginner with a tape measure.

It moves toward cover and targets, shoots the target with the best exact odds, charges when the
melee odds favour it, takes cover when out-gunned and heads for scoring zones. As `heuristic` it
reads distances exactly (it does not guess ranges), its one advantage over a person; as `guess`
(`GuessingBot`) it judges the range of each shot, ranged ability and charge by eye with the seeded
error of `skirmish.bots.estimate` (`_read` is the one place it asks). Every choice is a
deterministic function of the game state and seed, so games with the same seed are identical.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast
from weakref import ref

import numpy as np

from skirmish.bots.duel_bot import DuelBot
from skirmish.bots.estimate import DistanceJudge
from skirmish.bots.zones import (
    Holding,
    Zone,
    holders_of,
    holding_of,
    in_zones,
    lies_beyond,
    scoring_zone,
    toughness_of,
)
from skirmish.engine import queries
from skirmish.engine.core.actions import (
    Action,
    Charge,
    CounterCharge,
    Decline,
    EndStep,
    Move,
    React,
    Shoot,
    TakeCover,
    UseAbility,
)
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game
from skirmish.engine.queries import shot_specs

_T = TypeVar("_T")

_SHOT_EFFECTS = frozenset({"heal", "push"})
"""The ability effects the bot uses in the shooting step (every other usable ability is passed over)."""
_HEAL = frozenset({"heal"})
"""The shooting step's effects when no push can be of use (`_shooting`)."""
_CHARGE_EFFECTS = frozenset({"buff", "chi_block"})
"""The ability effects the bot uses in the charges step."""

_SHOOTER_COVER = np.array([0.0, 1.0, 2.5, 2.5])
"""A shooter's value of standing in cover, by cover rank (0 open .. 3 dense): 1 for light, 2.5 more."""
_FIGHTER_COVER = np.array([0.0, 0.0, 1.0, 1.0])
"""A fighter's value of standing in cover, by rank: 1 in cover of rank 2 or more."""


class HeuristicBot:
    name = "heuristic"
    skill = "exact"
    """How well the bot judges distances it may not measure (`skirmish.bots.estimate.SKILLS`)."""

    def __init__(self, seed: int, player: int) -> None:
        self.player = player
        self._stay: set[tuple[int, str, bytes]] = set()
        self._tough: tuple[ref[Game], dict[tuple[str, int], float]] | None = None
        self._zone_info: tuple[object, tuple[Zone, ...], Holding] | None = None
        self._ranges: dict[str, tuple[list[queries.ShotSpec], int, float]] = {}
        self._mask: tuple[Game, bytes, list[bool]] | None = None
        self._now: tuple[Game, dict[tuple[object, ...], object]] | None = None
        self._effects: tuple[ref[Game], list[ModelState], dict[int, frozenset[str]]] | None = None
        self._duel = DuelBot(seed, player)
        self._judge = DistanceJudge(seed, player, self.skill)

    def _read(self, game: Game, m: ModelState, t: ModelState, true: float | None = None) -> float:
        """The distance (or charge path length `true`) from `m` to `t` as the bot believes it: the one
        place it reads a distance the rules keep hidden until it declares (R-C1, R-C3)."""
        d = game.distance(m, t) if true is None else true
        if game.options.premeasure:
            return d
        return self._judge.guess(d, game.state.turn, m.index, t.index)

    # ------------------------------------------------------------- dispatch
    def choose(self, game: Game) -> Action:
        # Answers that a decision asks for again and again (a model's foes, its best range, the
        # zone duties) are kept for this one decision: nothing they depend on changes while the
        # bot chooses, and the table is dropped before the action is applied.
        self._now = (game, {})
        try:
            return self._choose(game)
        finally:
            self._now = None

    def _once(self, game: Game, key: tuple[object, ...], work: Callable[[], _T]) -> _T:
        """`work()`, worked out once per decision under `key` (every call outside `choose` works).

        Only for answers nothing done during a decision can change, or whose key names what can:
        the Pursuit heroes' bot marks a model `fired` and switches `_no_avatar` while it chooses,
        so its goals key on `_no_avatar`, and nothing kept here reads `fired`."""
        now = self._now
        if now is None or now[0] is not game:
            return work()
        memo = now[1]
        if key not in memo:
            memo[key] = work()
        return cast("_T", memo[key])

    def _choose(self, game: Game) -> Action:
        if game.rules.technique_duel():
            return self._duel.choose(game)  # the Avatar Duel's hidden choices (R-X2)
        s = game.state
        if s.pending is not None:
            return self._pending(game)
        step = s.step
        chooser = {
            "movement": self._movement,
            "take_cover": self._take_cover,
            "shooting": self._shooting,
            "charges": self._charges,
            "advances": self._advances,
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
                if self._zone_duty(game, me) is None and self._melee_edge(game, me, foe, charging=True) >= 0:
                    return a
        return Decline()

    # ------------------------------------------------------------- helpers
    def _scenario_hints(self, game: Game, player: int) -> tuple[dict[str, tuple[float, float]], set[str]]:
        """What the scenario asks of `player` (goal points, enemies that matter); a scenario's own
        bot (the Pursuit's heroes) refines it."""
        return game.rules.hints(player)

    def _hint_targets(self, game: Game, player: int) -> set[str]:
        """`_scenario_hints`' enemies that matter alone (what the shots and charges read): a scenario
        bot whose goals cost more than its targets overrides this, so they are not worked out."""
        return self._scenario_hints(game, player)[1]

    def _goal_hint(self, game: Game, m: ModelState) -> tuple[float, float] | None:
        """The scenario's goal point for the active model `m` (`_scenario_hints`' entry for it): a
        scenario bot that can work out one model's goal alone overrides this, so reading one goal
        does not work out every model's."""
        return self._scenario_hints(game, m.player)[0].get(m.id)

    def _mine(self, game: Game) -> list[ModelState]:
        return [m for m in game.player_models(game.state.active_player) if m.active]

    def _foes(self, game: Game, m: ModelState) -> list[ModelState]:
        """The active enemies of `m` (a list shared within the decision: callers only read it).
        Asked some 150 times a game, so the decision's table is read here without `_once`'s
        closure."""
        now = self._now
        if now is None or now[0] is not game:
            return self._foes_now(game, m)
        key = ("foes", game.team(m))
        found = now[1].get(key)
        if found is None:
            found = now[1][key] = self._foes_now(game, m)
        return cast("list[ModelState]", found)

    @staticmethod
    def _foes_now(game: Game, m: ModelState) -> list[ModelState]:
        return [o for o in game.state.models if o.active and game.enemies(o, m)]

    def _best_range(self, game: Game, m: ModelState) -> float:
        """`_best_range_now`, kept across decisions on what it reads: the list the engine's
        `shot_specs` gives (kept by the game per model and turn, never changed; held here, so the
        identity test cannot meet a reused id) and the model's AP."""
        specs = shot_specs(game, m)
        found = self._ranges.get(m.id)
        if found is not None and found[0] is specs and found[1] == m.ap:
            return found[2]
        best = self._best_range_now(game, m)
        self._ranges[m.id] = (specs, m.ap, best)
        return best

    @staticmethod
    def _best_range_now(game: Game, m: ModelState) -> float:
        specs = [sp for sp in queries.shot_options(game, m) if sp.ap_cost == 0 or sp.ap_cost <= m.ap]
        return max((sp.range for sp in specs), default=0.0)

    def _is_shooter(self, game: Game, m: ModelState) -> bool:
        return self._best_range(game, m) > 0 and m.profile.ranged >= m.profile.combat

    def _melee_edge(self, game: Game, me: ModelState, foe: ModelState, *, charging: bool) -> float:
        """Expected hits I deal minus hits I take in one exchange, from the exact odds.

        Friends already fighting the foe count (+1 each for me, R-C4), and the foe's one die is
        shared among all of us, so ganging up on a model is valued as the rules make it."""
        odds = queries.matchup(game, me, foe, charging=charging).odds
        return (odds.defender_wounded + odds.defender_ko) - (odds.attacker_wounded + odds.attacker_ko)

    def _usable_abilities(self, game: Game, effects: frozenset[str]) -> list[UseAbility]:
        """The active player's usable abilities with one of `effects`, in the engine's order: the
        bot passes over every other ability here, so their actions are not generated. A player none
        of whose models has such an ability at all (most shooting and charges decisions) gets the
        empty list the engine would give without asking it (`_effects_of`)."""
        player = game.state.active_player
        if effects.isdisjoint(self._effects_of(game, player)):
            return []
        return queries.ability_actions_of(game, player, effects)

    def _effects_of(self, game: Game, player: int) -> frozenset[str]:
        """The effects of every ability of any of the player's models, active or not: a model's
        abilities are its profile's, read from its player's armoury, and neither changes during a
        game, so the set is kept per game (a weak reference) and model list (held, so a restored
        game's new list is met afresh)."""
        kept = self._effects
        models = game.state.models
        if kept is None or kept[0]() is not game or kept[1] is not models:
            kept = self._effects = (ref(game), models, {})
        found = kept[2].get(player)
        if found is None:
            found = kept[2][player] = frozenset(
                a.effect for m in game.player_models(player) for a in queries.abilities_of(m, game.armoury(m))
            )
        return found

    # ------------------------------------------------------------- Move Phase
    def _movement(self, game: Game) -> Action | None:
        # The player's usable abilities are asked only when a model that can move wants one (most
        # models have no useful move ability, and the list costs an engine query), and only those
        # with the useful abilities' effects (`_move_abilities`), at most once per set of effects.
        usable: dict[frozenset[str], list[UseAbility]] = {}
        for m in self._mine(game):
            if not queries.can_move(game, m):
                continue
            has_any = bool(queries.abilities_of(m, game.armoury(m)))
            useful = self._useful_move_abilities(game, m) if has_any else set()
            if useful:
                use = self._move_ability(m, self._move_abilities(game, m, useful, usable), useful)
                if use is not None:
                    return use
            choice = self._pick_move(game, m)
            if choice is not None:
                return choice
            # Nothing better than standing still. Remember it for this exact arrangement of the
            # table, so the choice is not recomputed; the key is a function of the state, so undo
            # or a copied game cannot make the bot act differently.
            self._stay.add(self._stay_key(game, m))
        return None

    @staticmethod
    def _stay_key(game: Game, m: ModelState) -> tuple[int, str, bytes]:
        return (game.state.turn, m.id, game.state.xy.tobytes())

    @staticmethod
    def _move_abilities(
        game: Game, m: ModelState, useful: set[str], asked: dict[frozenset[str], list[UseAbility]]
    ) -> list[UseAbility]:
        """The player's usable abilities whose effect is one of `m`'s `useful` abilities' effects, in
        the engine's order (`ability_actions_of`, kept in `asked` for the decision by those effects).
        `_move_ability` wants the first entry that is `m`'s and useful: every such entry has one of
        those effects, so it is the first of this list too, and the other abilities' actions (an
        Earth Wall's points, a geometry check each) are never generated."""
        effects = frozenset(a.effect for a in queries.abilities_of(m, game.armoury(m)) if a.name in useful)
        found = asked.get(effects)
        if found is None:
            found = asked[effects] = queries.ability_actions_of(game, game.state.active_player, effects)
        return found

    @staticmethod
    def _move_ability(m: ModelState, usable: list[UseAbility], useful: set[str]) -> Action | None:
        """The first of the player's usable abilities that is `m`'s and useful to it now."""
        for a in usable:
            if a.model == m.id and a.ability in useful:
                return a
        return None

    def _useful_move_abilities(self, game: Game, m: ModelState) -> set[str]:
        """The model's buffs when an enemy is within 12" (the only move abilities the bot uses);
        the distances are not asked of a model without a buff."""
        buffs = {a.name for a in queries.abilities_of(m, game.armoury(m)) if a.effect == "buff"}
        if not buffs:
            return buffs
        foes = self._foes(game, m)
        if foes and min(game.distance(m, f) for f in foes) <= 12:
            return buffs
        return set()

    def _in_zone(self, game: Game, m: ModelState) -> bool:
        return self._zone_mask(game)[m.index]

    def _zone_mask(self, game: Game) -> list[bool]:
        """Which models stand in a scoring zone, for every model at once (`in_zones`), kept for the
        exact arrangement it was worked out for (the positions' bytes)."""
        now = self._now
        if now is not None and now[0] is game:
            # nothing moves while the bot chooses: within a decision the mask is asked once
            kept = now[1].get(("mask",))
            if kept is not None:
                return cast("list[bool]", kept)
        xy = game.state.xy
        key = xy.tobytes()
        found = self._mask
        if found is not None and found[0] is game and found[1] == key:
            mask = found[2]
        else:
            mask = in_zones(self._zones(game), xy)
            self._mask = (game, key, mask)
        if now is not None and now[0] is game:
            now[1][("mask",)] = mask
        return mask

    def _zones(self, game: Game) -> tuple[Zone, ...]:
        """The scenario's scoring zones (in its order) with their polygon, centre and holders' spots,
        worked out once per scenario (held here, so the identity test cannot meet a reused id; the
        zones themselves are kept per process by their data, `scoring_zone`)."""
        return self._zone_data(game)[1]

    def _zone_data(self, game: Game) -> tuple[object, tuple[Zone, ...], Holding]:
        found = self._zone_info
        if found is not None and found[0] is game.scenario:
            return found
        zones = tuple(
            scoring_zone(z.name, z.points, tuple((float(x), float(y)) for x, y in z.polygon))
            for z in game.scenario.scoring.zones
        )
        self._zone_info = (game.scenario, zones, holding_of(zones))
        return self._zone_info

    @staticmethod
    def _toughness(game: Game, m: ModelState) -> float:
        """Expected hits to KO the model (HP over the chance a hit gets through its saves), rounded
        so that near-equal models tie and distance decides."""
        armour, shield = queries.saves(game, m)
        return toughness_of(m.hp, armour, shield)

    def _zone_duty(self, game: Game, m: ModelState) -> np.ndarray | None:
        """Where in a scoring zone this model should stand (a read-only spot of the zone): the three
        toughest models (nearest first among equals) hold each zone, each heading for its own spot
        so they do not crowd one point and stop short. Worked out for all the player's models at
        once, once per decision (`_zone_duties`)."""
        now = self._now
        if now is None or now[0] is not game:
            return self._zone_duties(game, m.player).get(m.id)
        key = ("duty", m.player)
        duties = now[1].get(key)
        if duties is None:
            duties = now[1][key] = self._zone_duties(game, m.player)
        return cast("dict[str, np.ndarray]", duties).get(m.id)

    def _zone_duties(self, game: Game, player: int) -> dict[str, np.ndarray]:
        """`holders` of the player's active models, worked out afresh: what it reads (each model's
        index, HP and position) changes between nearly all decisions (a move, a charge), so a memo
        across decisions found its answer about one time in ten and cost more in keys than it
        saved. A model's saves are those of its profile, which never changes in a game: its
        toughness is a function of its HP, kept per game (`_toughness_of`)."""
        held = self._zone_data(game)[2]
        if not held.zones:
            return {}  # nothing to hold in this scenario
        mine = [x for x in game.player_models(player) if x.active]
        known = self._toughness_of(game)
        tough = {}
        for x in mine:
            t = known.get((x.id, x.hp))
            if t is None:
                t = known[(x.id, x.hp)] = self._toughness(game, x)
            tough[x.id] = t
        rows = game.state.xy.tolist()
        return holders_of(held, mine, tough, [rows[x.index] for x in mine])

    def _toughness_of(self, game: Game) -> dict[tuple[str, int], float]:
        """The toughness table of `game` (model id and HP -> `_toughness`), one game at a time: held
        with a weak reference to its game, and started afresh for any other game (a freed game's
        address reused by a new one cannot be mistaken for it: its reference is dead)."""
        kept = self._tough
        if kept is not None and kept[0]() is game:
            return kept[1]
        table: dict[tuple[str, int], float] = {}
        self._tough = (ref(game), table)
        return table

    def _pick_move(self, game: Game, m: ModelState) -> Action | None:
        if self._stay_key(game, m) in self._stay:
            return None
        s = game.state
        foes = self._foes(game, m)
        goal_hint = self._goal_hint(game, m)
        if goal_hint is not None:
            return self._move_to(game, m, np.asarray(goal_hint, dtype=float))
        if not foes:
            return None
        zone = self._zone_duty(game, m)
        if zone is not None:
            # The zone mask (kept per arrangement) answers for the zones worth points; only a
            # zone worth none is asked here (the same point test, `Zone.holds`).
            inside = self._in_zone(game, m)
            if not inside:
                x, y = s.xy[m.index].tolist()
                inside = any(z.holds(x, y) for z in self._zones(game) if z.points <= 0)
            if inside:
                return None
            # A zone holder takes the first candidate toward its spot: only that one is worked out.
            return queries.first_move_option(game, m, zone)
        # the default goals (`move_goals`), worked out by the listing from the masks it has; the
        # listing's paths, and one Move made for the one chosen (`move_option_paths`)
        paths = queries.move_option_paths(game, m)
        if not paths:
            return None
        # The candidates' ends, then where it stands, as one flat list of floats: numpy reads a flat
        # list of floats in half the time of a list of pairs (the same float64 rows).
        flat = [v for p in paths for v in p[-1]]
        flat += s.xy[m.index].tolist()
        ends = np.array(flat, dtype=float).reshape(-1, 2)
        score = self._score_positions(game, m, ends, [])
        best = int(np.argmax(score))
        if best == len(paths) or score[best] <= score[-1] + 1e-9:
            return None
        return Move(m.id, paths[best])

    def _move_to(self, game: Game, m: ModelState, goal: np.ndarray) -> Action | None:
        """The candidate move that ends nearest a scenario goal (an exit edge, an objective)."""
        here = game.state.xy[m.index]
        now = float(np.hypot(*(goal - here)))
        if now < 0.5:
            return None
        first = queries.straight_goal_move(game, m, goal)
        if first is not None:
            # The straight move toward the goal comes first in the list and wins ties; when no
            # straight-line entry could end nearer, checked or not, it is the answer and the list is
            # not built (a move that must go around terrain is left to the list: no search twice).
            near = float(np.hypot(*(goal - np.asarray(first.path[-1]))))
            ends = queries.straight_move_ends(game, m)
            if (np.hypot(goal[0] - ends[:, 0], goal[1] - ends[:, 1]) >= near).all():
                return first if near < now - 0.25 else None
        candidates = queries.move_options(game, m, [goal])
        if not candidates:
            return None
        dist = [float(np.hypot(*(goal - np.asarray(c.path[-1])))) for c in candidates]
        best = int(np.argmin(dist))
        return candidates[best] if dist[best] < now - 0.25 else None

    def _score_positions(
        self, game: Game, m: ModelState, ends: np.ndarray, zones: list[np.ndarray]
    ) -> np.ndarray:
        """Cheap value of standing at each point: cover, the right distance to the enemy, zones."""
        s = game.state
        foes = self._foes(game, m)
        rows = [f.index for f in foes]
        fxy, fr = s.xy[rows], s.radii[rows]  # the same numbers as stacking them row by row
        d = (
            np.hypot(ends[:, None, 0] - fxy[None, :, 0], ends[:, None, 1] - fxy[None, :, 1])
            - fr[None, :]
            - s.radii[m.index]
        )
        nearest = d.min(axis=1)
        if self._is_shooter(game, m):
            want = max(2.0, self._best_range(game, m) - 2.0)
            # The cover bonus by rank read from a table (the same constants `np.where` picked).
            value = -np.abs(nearest - want) * 0.4 + self._cover_bonus(game, m, ends, _SHOOTER_COVER)
            value -= nearest < 3.0  # not needlessly inside easy charge reach (1.0 where True)
        else:
            reach = m.profile.charge
            value = -np.maximum(nearest - (reach - 1.0), 0.0) * 0.6 + self._cover_bonus(
                game, m, ends, _FIGHTER_COVER
            )
        for z in zones:
            dz = np.hypot(ends[:, 0] - z[0], ends[:, 1] - z[1])
            value += np.where(dz < 3.0, 2.0, 0.0) - dz * 0.02
        return value

    @staticmethod
    def _cover_bonus(game: Game, m: ModelState, ends: np.ndarray, bonus: np.ndarray) -> np.ndarray:
        """`bonus[rank]` of each end's cover rank (`cover_of`'s ranks, read as plain numbers from the
        table's per-point facts, `facts_of`, without `cover_of`'s two arrays); a flyer's ends are
        all open ground (rank 0)."""
        if m.profile.flying:
            return np.full(len(ends), bonus[0])
        return bonus[[f[0] for f in game.table.facts_of(ends)]]

    def _take_cover(self, game: Game) -> Action | None:
        # A model Takes Cover when it is threatened, no enemy is within its charge, and it has a free
        # weapon in range or no shot at all. The answers are asked cheapest first (distances, then
        # the foes' sight, then its own), each only when the ones before leave the choice open.
        for a in queries.cover_options(game, game.state.active_player):
            assert isinstance(a, TakeCover)
            m = game.model(a.model)
            foes = self._foes(game, m)
            if any(game.distance(m, f) <= m.profile.charge for f in foes):
                continue  # a charge is near: the bot would rather fight
            if not any(self._best_range(game, f) >= game.distance(f, m) and game.sees(f, m) for f in foes):
                continue  # not threatened
            # Taking Cover spends AP but not the free weapons: a shooter with a free weapon in range
            # keeps shooting from behind its 3+ Wall Shield (R-M4).
            free = max(
                (sp.range for sp in queries.shot_options(game, m) if sp.ap_cost == 0 and not sp.ability),
                default=0.0,
            )
            if any(free >= game.distance(m, f) and game.sees(m, f) for f in foes):
                return a
            if not any(self._best_range(game, m) >= game.distance(m, f) and game.sees(m, f) for f in foes):
                return a
        return None

    # ------------------------------------------------------------- Combat Phase
    def _shooting(self, game: Game) -> Action | None:
        player = game.state.active_player
        # A push is used only to knock an enemy out of a scoring zone that one of ours stands in (the
        # pusher, or another): unless both stand in one, the pushes' candidates (a target and a
        # line of sight each) are not generated at all.
        models = game.state.models
        pushes = any(x.player == player and self._in_zone(game, x) for x in models) and any(
            x.player != player and self._in_zone(game, x) for x in models
        )
        effects = _SHOT_EFFECTS if pushes else _HEAL
        for ua in self._usable_abilities(game, effects):
            ab = next(
                x
                for x in queries.abilities_of(game.model(ua.model), game.armoury(game.model(ua.model)))
                if x.name == ua.ability
            )
            if ab.effect == "heal":
                return ua
            if ab.effect == "push" and self._push_clears_zone(
                game, ua, float(ab.params.get("distance", 3)), queries.ability_reach(ab)
            ):
                return ua
        best: tuple[float, queries.ShotMatchup] | None = None
        specs: dict[str, dict[str, queries.ShotSpec]] = {}  # each shooter's weapons by name, asked once
        hints: set[str] | None = None  # the shooters are all the player's: one scenario hint
        by_id = {x.id: x for x in game.state.models}

        def within(m: ModelState, t: ModelState, spec: queries.ShotSpec) -> bool:
            return self._read(game, m, t) <= spec.range  # the shots it believes out of range are not made

        # The shots the bot believes in range, as the engine lists them: the others' sight and
        # scores are never worked out.
        for found in queries.shot_matchups_within(game, player, within):
            shooter, target = by_id[found.shooter], by_id[found.target]
            by_name = specs.get(shooter.id)
            if by_name is None:
                by_name = specs[shooter.id] = {}
                for sp in shot_specs(game, shooter):  # the engine's list, only read
                    by_name.setdefault(sp.name, sp)
            spec = by_name[found.weapon]
            odds = found.odds
            value = odds.wound + 2.0 * odds.ko
            if self._in_zone(game, target):
                value *= 1.5
            if hints is None:
                hints = self._hint_targets(game, player)
            if target.id in hints:
                value *= 3.0
            if target.taking_cover:
                value *= min(1.0, shooter.profile.perception / 6)
            value -= 0.05 * spec.ap_cost
            if best is None or value > best[0]:
                best = (value, found)  # the first of equals; its action is made once, below
        if best is not None and best[0] > 0.02:
            return Shoot(best[1].shooter, best[1].target, best[1].weapon)
        return None

    def _push_clears_zone(self, game: Game, action: Action, distance: float, reach: float) -> bool:
        """A push that knocks an enemy out of a scoring zone we stand in (worth a zone point), at a
        target the bot believes within the push's reach (it is wasted beyond, R-C1)."""
        target = getattr(action, "target", None)
        if target is None:
            return False
        me, t = game.model(action.model), game.model(target)  # type: ignore[attr-defined]
        if not self._in_zone(game, t) or self._read(game, me, t) > reach:
            return False
        s = game.state
        d = s.xy[t.index] - s.xy[me.index]
        n = float(np.hypot(*d))
        if n < 1e-9:
            return False
        ax, ay = (s.xy[t.index] + d / n * distance).tolist()
        if any(z.holds(ax, ay) for z in self._zones(game)):
            return False
        ours = any(self._in_zone(game, x) for x in self._mine(game))
        return ours or self._in_zone(game, me)

    def _charges(self, game: Game) -> Action | None:
        for a in self._usable_abilities(game, _CHARGE_EFFECTS):
            m = game.model(a.model)
            ab = next(x for x in queries.abilities_of(m, game.armoury(m)) if x.name == a.ability)
            if ab.effect == "buff" and (
                game.in_melee(m) or any(game.distance(m, f) <= m.profile.charge for f in self._foes(game, m))
            ):
                return a
            if ab.effect == "chi_block":
                return a
        # The best charge is the pair with the highest edge (the first in model, then target order
        # among equals) whose path the bot believes within reach. The edge does not depend on the
        # path, so the pairs are ranked first and measured best first: the first reachable one is
        # the answer, and the path searches of the pairs ranked below it are never run.
        ranked: list[tuple[float, int, ModelState, ModelState]] = []
        hints: set[str] | None = None  # the chargers are all the player's: one scenario hint
        for m in self._mine(game):
            if not self._can_charge(game, m):
                continue
            if self._is_shooter(game, m) and not any(game.distance(m, f) <= 2.5 for f in self._foes(game, m)):
                continue
            holder = self._in_zone(game, m) and self._zone_duty(game, m) is not None
            for t in queries.charge_targets_within(game, m, self._in_reach(game, m)):
                t_in_zone = self._in_zone(game, t)
                if holder and not t_in_zone:
                    continue
                edge = self._melee_edge(game, m, t, charging=True)
                if t.taking_cover:
                    edge *= m.profile.perception / 6
                if t_in_zone:
                    edge += 0.3
                if hints is None:
                    hints = self._hint_targets(game, m.player)
                if t.id in hints:
                    edge += 0.5
                if edge > -0.05:
                    ranked.append((-edge, len(ranked), m, t))
        for _, _, m, t in sorted(ranked, key=lambda r: (r[0], r[1])):
            found = queries.charge_path(game, m, t)
            if found is not None and self._read(game, m, t, found[1]) <= m.profile.charge:
                return Charge(m.id, t.id)
        return self._closing_charge(game)

    def _can_charge(self, game: Game, m: ModelState) -> bool:
        """`can_charge`, asked once per model and decision (the ranked charges and the closing
        charge both ask it of every model, and nothing changes between)."""
        now = self._now
        if now is None or now[0] is not game:
            return queries.can_charge(game, m)
        key = ("can_charge", m.id)
        found = now[1].get(key)
        if found is None:
            found = now[1][key] = queries.can_charge(game, m)
        return cast("bool", found)

    def _in_reach(self, game: Game, m: ModelState) -> Callable[[ModelState], bool]:
        """Whether the bot believes a target within `m`'s charge (the targets beyond are passed over
        before their sight is asked)."""
        reach = m.profile.charge
        return lambda t: self._read(game, m, t) <= reach

    def _charge_targets(self, game: Game, m: ModelState) -> list[ModelState]:
        """Whom `m` may charge (shared within the decision: callers only read it)."""
        return self._once(game, ("targets", m.id), lambda: queries.charge_targets(game, m))

    def _closing_charge(self, game: Game) -> Action | None:
        """A charge declared at a distant enemy by a fighter: it falls short but closes 6" (R-C3).

        Only when the target could not reach us afterwards with a counter-charge it would like:
        we check its melee edge against us from where it stands.
        """
        if game.options.premeasure:
            return None  # with premeasuring, a charge that would fall short cannot be declared
        for m in self._mine(game):
            if not self._can_charge(game, m):
                continue
            zone = self._zone_duty(game, m)
            if zone is not None and self._in_zone(game, m):
                continue
            if zone is None and self._is_shooter(game, m):
                continue  # a shooter closes only to run for its zone (its targets are not asked)
            if zone is None:
                targets = self._charge_targets(game, m)
            else:
                # Run for the zone: charge an enemy that lies beyond it, as seen from here (the
                # direction is asked first, so the enemies behind cost no sight).
                here = game.state.xy[m.index]
                if float(np.hypot(*(zone - here))) < 1.0:
                    continue
                targets = queries.charge_targets_within(game, m, lies_beyond(game.state.xy, here, zone))
            if not targets:
                continue
            t = min(targets, key=lambda f: (game.distance(m, f), f.index))
            if game.distance(m, t) <= m.profile.charge + 2.0:
                continue  # close enough that the bot would rather wait and charge for real
            if (
                game.distance(m, t) - m.profile.charge > t.profile.charge
                or self._melee_edge(game, t, m, charging=True) <= 0
            ):
                return Charge(m.id, t.id)
        return None

    # ------------------------------------------------------------- End Phase
    def _advances(self, game: Game) -> Action | None:
        return next(queries.iter_advance_actions(game, game.state.active_player), None)


class GuessingBot(HeuristicBot):
    """The heuristic bot judging ranges by eye (`average` skill): it wastes shots and falls short."""

    name = "guess"
    skill = "average"
