"""The read-only face of a game for bots, the UI, the sim and notebooks: why an action would be
refused, and the exact odds of a pair of models now.

Both are answered by the engine's own code, never by a copy of its conditions: `why_not` runs the
action through `Game.refusal` (the same path as `apply`, always taken back), and `matchup` scores
the pair with the step modules' own score functions (`shot_scores`, `melee_score`) and hands the
scores to the exact odds of `skirmish.rules.odds`. Keeping one copy is the point: a greyed-out
button the engine would accept, or a bot that misjudges a shot the UI shows right, cannot happen.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np

from skirmish.data.armoury import Ability
from skirmish.engine.core.actions import (
    ACTION_TYPES,
    Action,
    Advance,
    Disengage,
    Move,
    TakeCover,
    UseAbility,
)
from skirmish.engine.core.errors import IllegalAction, Refusal
from skirmish.engine.core.state import GameState, ModelState, abilities_of, melee_weapon
from skirmish.engine.effects import abilities as _abilities
from skirmish.engine.effects import moving as _moving
from skirmish.engine.effects import shots as _shots
from skirmish.engine.effects.damage import saves_of
from skirmish.engine.effects.moving import flies, move_budget
from skirmish.engine.effects.shots import WEAK_TO, ShotSpec, shot_scores, shot_scores_each, shot_specs
from skirmish.engine.game import Game
from skirmish.engine.ruler import Reading, reading
from skirmish.engine.steps import charges as _charges
from skirmish.engine.steps import end_phase as _end_phase
from skirmish.engine.steps import movement as _movement
from skirmish.engine.steps import shooting as _shooting
from skirmish.engine.steps.end_phase import DISTRACTION_MOVE
from skirmish.engine.steps.melee import melee_score
from skirmish.rules.modifiers import Modifier, Score
from skirmish.rules.odds import MeleeOdds, ShotOdds, cached_melee_odds, cached_shot_odds

__all__ = [
    "WEAK_TO",
    "GameState",
    "ModelState",
    "Reading",
    "ability_actions",
    "ability_actions_of",
    "ability_reach",
    "abilities_of",
    "advance_actions",
    "can_charge",
    "can_move",
    "charge_path",
    "charge_targets",
    "charge_targets_within",
    "cover_options",
    "flies",
    "iter_advance_actions",
    "first_move_option",
    "goal_moves",
    "straight_goal_move",
    "straight_move_ends",
    "move_goals",
    "move_option_paths",
    "move_options",
    "saves",
    "shot_actions",
    "shot_matchups_within",
    "MeleeMatchup",
    "Refusal",
    "ShotMatchup",
    "ShotSpec",
    "matchup",
    "abilities_of_model",
    "flying",
    "move_allowance",
    "ruler_reading",
    "shot_options",
    "shot_specs",
    "why_not",
    "why_not_model",
]


# --------------------------------------------------------------------------- why_not


_KINDS = {name.lower(): cls for name, cls in ACTION_TYPES.items()} | {
    "take_cover": TakeCover,
    "use_ability": UseAbility,
    "ability": UseAbility,
}
_PATH_KINDS = (Move, Advance, Disengage)


def why_not(
    game: Game, kind: str | Action, model: str | ModelState | None = None, **fields: Any
) -> Refusal | None:
    """None if `apply` would accept the action now, else the engine's `Refusal` (rule ID and reason).

    `kind` is an action (`Shoot(...)`) or its kind's name (`"Shoot"`, `"shoot"`, `"take_cover"`),
    with `model` and the action's other fields as keywords (`target=`, `weapon=`, `ability=`). For
    the kinds that carry a path (Move, Advance, Disengage) a missing path asks about the model,
    not the route: a path that stays where the model stands, so the answer is whether the model
    may make that kind of move at all (a route is still checked in full by `apply`).

    The UI greys its buttons with this (the reason becomes the hint), so the conditions of each
    rule are written once, in the step modules.
    """
    action = kind if isinstance(kind, Action) else _build(game, kind, model, fields)
    found = game.refusal(action)
    return None if found is None else Refusal(found.rule, found.reason)


def _build(game: Game, kind: str, model: str | ModelState | None, fields: dict[str, Any]) -> Action:
    cls = _KINDS.get(kind.lower()) or _KINDS.get(kind.replace(" ", "").lower())
    if cls is None:
        known = ", ".join(sorted(ACTION_TYPES))
        raise ValueError(f"why_not: unknown action kind {kind!r} (known: {known})")
    data = dict(fields)
    if model is not None:
        data["model"] = model.id if isinstance(model, ModelState) else model
    if issubclass(cls, _PATH_KINDS) and "path" not in data and isinstance(data.get("model"), str):
        found = game.state.model(data["model"])
        if found is not None:
            x, y = (float(v) for v in game.state.xy[found.index])
            data["path"] = ((x, y), (x, y))
    for key in ("target",):
        if isinstance(data.get(key), ModelState):
            data[key] = data[key].id
    try:
        return cls(**data)
    except TypeError as exc:
        raise ValueError(f"why_not: {cls.__name__}: {exc}") from None


# --------------------------------------------------------------------------- matchup odds


@dataclass(frozen=True, slots=True)
class ShotMatchup:
    """One shot of `shooter` at `target` with `weapon`, scored as the rules score it now.

    The odds assume the shot is in range and, against a model Taking Cover, that the Perception
    test is passed: a shot's distance is the player's guess (range guessing, R-C1), so the odds
    never reveal it."""

    shooter: str
    target: str
    weapon: str
    attack: Score
    dodge: Score
    armour: int | None
    shield: int | None
    taking_cover: bool
    odds: ShotOdds


@dataclass(frozen=True, slots=True)
class MeleeMatchup:
    """One melee exchange of `attacker` against `defender` (R-C4), scored as the rules score it now.

    `attacker` counts the friends already fighting `defender` (+1 each) and, when `charging`, the
    +1 of a charge that reaches (named like every other modifier); the defender's one die is shared
    among all of them, so ganging up on a model is valued as the rules make it."""

    attacker: str
    defender: str
    attack: Score
    defend: Score
    odds: MeleeOdds


def _model(game: Game, m: str | ModelState) -> ModelState:
    return m if isinstance(m, ModelState) else game.model(m)


@overload
def matchup(game: Game, model: str | ModelState, target: str | ModelState, *, weapon: str) -> ShotMatchup: ...


@overload
def matchup(
    game: Game,
    model: str | ModelState,
    target: str | ModelState,
    *,
    weapon: None = None,
    charging: bool = False,
) -> MeleeMatchup: ...


def matchup(
    game: Game,
    model: str | ModelState,
    target: str | ModelState,
    *,
    weapon: str | None = None,
    charging: bool = False,
) -> ShotMatchup | MeleeMatchup:
    """The exact odds of this pair of models now: a shot with `weapon`, or (no weapon) one melee
    exchange, with `charging` adding the charge bonus the attacker has not yet earned.

    The one function bots, the UI and the sim ask, so they all see the engine's own scores."""
    me, foe = _model(game, model), _model(game, target)
    if weapon is not None:
        spec = next((sp for sp in shot_specs(game, me) if sp.name == weapon), None)
        if spec is None:
            raise IllegalAction("R-P3", f"{me.name} has no ranged weapon or ranged ability `{weapon}` now")
        return _shot_matchup(game, me, foe, spec, *shot_scores(game, me, foe, spec))
    allies = [f for f in game.melee_enemies(foe) if f is not me]
    mine = melee_score(game, me, [foe], len(allies))
    if charging and not me.charged:
        mine = Score(mine.stat_name, mine.stat, (*mine.modifiers, Modifier("charged this turn", 1)))
    theirs = melee_score(game, foe, [me, *allies], 0)
    mw, tw = melee_weapon(me, game.armoury(me)), melee_weapon(foe, game.armoury(foe))
    ma, ms = saves_of(game, me)
    ta, ts = saves_of(game, foe)
    modds = cached_melee_odds(
        mine.base_total,
        theirs.base_total,
        attacker_armour=ma,
        attacker_shield=ms,
        defender_armour=ta,
        defender_shield=ts,
        attacker_shield_breaker=bool(mw and mw.shield_breaker),
        defender_shield_breaker=bool(tw and tw.shield_breaker),
        attacker_damage=mw.damage if mw else 1,
        defender_damage=tw.damage if tw else 1,
        attacker_hp=me.hp,
        defender_hp=foe.hp,
        attacker_taking_cover=me.taking_cover,
        defender_taking_cover=foe.taking_cover,
    )
    return MeleeMatchup(me.id, foe.id, mine, theirs, modds)


def _shot_matchup(
    game: Game, me: ModelState, foe: ModelState, spec: ShotSpec, attack: Score, dodge: Score
) -> ShotMatchup:
    """The `ShotMatchup` of `me` shooting `foe` with `spec` at these scores (`shot_scores`): the odds
    are a pure function of the scores and the target's saves, kept for their exact arguments."""
    armour, shield = saves_of(game, foe)
    odds = cached_shot_odds(
        attack.base_total,
        dodge.base_total,
        armour,
        shield,
        foe.taking_cover,
        spec.shield_breaker,
        spec.damage,
        foe.hp,
    )
    return ShotMatchup(me.id, foe.id, spec.name, attack, dodge, armour, shield, foe.taking_cover, odds)


def position_of(game: Game, model: str | ModelState) -> tuple[float, float]:
    """A model's centre in inches (read-only: set positions with `engine.setup.place`)."""
    m = _model(game, model)
    x, y = np.asarray(game.state.xy[m.index], dtype=float)
    return float(x), float(y)


def shot_options(game: Game, model: str | ModelState) -> list[ShotSpec]:
    """What `model` can shoot with this turn (its ranged weapons and ranged-attack abilities, with
    range, damage, AP cost and element), as the engine lists them for `Shoot` (R-C1, R-P4)."""
    return list(shot_specs(game, _model(game, model)))


# --------------------------------------------------------------------------- asked about a model
# (appended for the UI's buttons, issue 12 item 3: the table asks these instead of copying conditions)

_CHOICE_KINDS = ("Shoot", "Charge", "CounterCharge", "UseAbility")
_UNKNOWN = ("\x00no-such-model-a", "\x00no-such-model-b")


def why_not_model(game: Game, kind: str, model: str | ModelState, **fields: Any) -> Refusal | None:
    """Whether `model` may make an action of `kind` now at all, before its target, point or route is
    chosen: None when the engine's own checks get as far as that choice, else the engine's refusal of
    the model itself (e.g. `R-C6: Sokka has already fired this Combat Phase`).

    Asked without copying a condition: the action is tried (through `why_not`, so nothing changes)
    with two different unusable choices (targets that do not exist; a one-point path and one that
    starts elsewhere; no point and a point off the table). If the engine refuses both alike, its
    answer does not depend on the choice, so it is about the model; if the two answers differ, the
    checks reached the choice and the model may act. `fields` fixes what is not the choice (the
    `weapon` of a Shoot, the `ability` of a UseAbility)."""
    me = _model(game, model)
    cls = _KINDS.get(kind.lower()) or _KINDS.get(kind.replace(" ", "").lower())
    if cls is None:
        return why_not(game, kind, me, **fields)
    x, y = position_of(game, me)
    if issubclass(cls, _PATH_KINDS):
        trials: list[dict[str, Any]] = [{"path": ((x, y),)}, {"path": ((x + 1e3, y), (x + 1e3, y))}]
    elif cls.__name__ == "UseAbility":
        trials = [{"target": _UNKNOWN[0]}, {"target": _UNKNOWN[1], "at": (-1e3, -1e3)}]
    elif cls.__name__ in _CHOICE_KINDS:
        trials = [{"target": _UNKNOWN[0]}, {"target": _UNKNOWN[1]}]
    else:
        return why_not(game, cls.__name__, me, **fields)
    first, second = (why_not(game, cls.__name__, me, **fields, **t) for t in trials)
    return first if first is not None and first == second else None


def move_allowance(game: Game, kind: str, model: str | ModelState) -> float:
    """How far `model` may go with a path action of `kind` now, in inches: its Move (halved when
    Limping, plus any glide, R-M2, R-P5), its Advance (R-E1), or the Combat Distraction move (R-E2)."""
    me = _model(game, model)
    name = kind.lower()
    if name == "move":
        return float(move_budget(game, me))
    if name == "advance":
        return float(me.profile.advance)
    if name == "disengage":
        return float(DISTRACTION_MOVE)
    raise ValueError(f"move_allowance: {kind!r} is not a path action (Move, Advance, Disengage)")


def flying(model: ModelState) -> bool:
    """Whether the model moves over impassable terrain now (a flyer, or gliding this turn)."""
    return flies(model)


def ruler_reading(
    game: Game,
    points: Sequence[tuple[float, float]],
    *,
    model: ModelState | None = None,
    ends: tuple[ModelState | None, ModelState | None] = (None, None),
) -> Reading:
    """What a ruler from `points[0]` to `points[-1]` may tell the player to act now (R-C1 range
    guessing): `skirmish.engine.ruler.reading`, whose `.text()` is the words to show."""
    return reading(game, points, model=model, ends=ends)


def abilities_of_model(game: Game, model: str | ModelState) -> list[Ability]:
    """The model's abilities as the armoury defines them (data: title, cost, timing, effect, text)."""
    me = _model(game, model)
    return list(abilities_of(me, game.armoury(me)))


# --------------------------------------------------------------------------- what a bot may do now
# The step modules' own answers under public names, so bots ask the engine's single copy of each
# condition and candidate list instead of importing the steps (an import-linter contract keeps
# `skirmish.bots` out of them). Each is the step's function itself, not a rewrite.

can_move = _movement.can_move
"""R-M2/R-M3/R-M4: the model may make a standard move now."""
move_options = _movement.model_moves
"""The engine's candidate moves for one model (toward `goals`, default: nearest enemy and cover)."""
move_option_paths = _movement.model_paths
"""`move_options`' paths, in its order: `Move(model.id, paths[k])` is its k-th entry (a bot that
picks one entry makes one Move)."""
move_goals = _moving.default_goals
"""The points `move_options` heads for by default: beside the nearest enemy, the nearest cover."""
cover_options = _movement.cover_candidates
"""The player's legal `TakeCover` actions (R-M4)."""
shot_actions = _shooting.candidates
"""The player's legal `Shoot` actions (R-C1)."""
ability_actions = _abilities.candidates
"""The player's legal `UseAbility` actions now (R-P4)."""
ability_reach = _abilities.reach
"""How far an ability reaches, in inches."""
can_charge = _charges.can_charge
"""R-C3: the model may declare a charge now."""
charge_targets = _charges.charge_targets
"""The active enemies the model sees (whom it may declare a charge at, R-C3)."""
charge_path = _charges.measure
"""The path `model` must move to reach base contact with `target`, and its length (R-C3)."""
advance_actions = _end_phase.candidates
"""The player's legal `Advance` and `Disengage` actions (R-E1, R-E2)."""
iter_advance_actions = _end_phase.iter_candidates
"""`advance_actions` one at a time, in the same order (each searched only when reached)."""
saves = saves_of
"""A model's armour and shield save values now (None where it has none)."""


def goal_moves(game: Game, model: ModelState, goals: Sequence[np.ndarray]) -> list[Move]:
    """The entries of `move_options(game, model, goals)` that head for `goals`, worked out alone:
    the list's first entries, before its straight lines. Each is kept as `model_moves` keeps it:
    a path of two or more points, at least 0.25" long, ending where no earlier entry ends (to the
    0.001" the list compares ends at)."""
    budget = move_budget(game, model)
    enemy, gone = game.enemy_mask(model), game.gone_mask()
    seen: set[tuple[float, float]] = set()
    out: list[Move] = []
    for goal in goals:
        move = _movement.listed_move(model.id, _movement.toward(game, model, goal, budget, enemy, gone), seen)
        if move is not None:
            out.append(move)
    _movement.note_listed(game, model, budget, enemy, gone, [mv.path for mv in out])
    return out


def straight_goal_move(game: Game, model: ModelState, goal: np.ndarray) -> Move | None:
    """The first entry of `move_options(game, model, [goal])` when it is the straight line toward
    `goal` (the move `toward` makes when that line is clear and the list keeps it), else None;
    the path search `toward` falls back on is never run here, so asking costs one line check."""
    budget = move_budget(game, model)
    enemy, gone = game.enemy_mask(model), game.gone_mask()
    move = _movement.listed_move(
        model.id, _movement.toward(game, model, goal, budget, enemy, gone, search=False), set()
    )
    if move is not None:
        _movement.note_listed(game, model, budget, enemy, gone, [move.path])
    return move


def first_move_option(game: Game, model: ModelState, goal: np.ndarray) -> Move | None:
    """`move_options(game, model, [goal])[0]` (None when the list is empty), without working out the
    rest of the list when the move toward `goal` is its first entry: a bot that only wants the move
    toward its goal pays for that one path, not for the eight straight lines as well."""
    found = goal_moves(game, model, [goal])
    if found:
        return found[0]
    moves = _movement.model_moves(game, model, [goal])
    return moves[0] if moves else None


def straight_move_ends(game: Game, model: ModelState) -> np.ndarray:
    """Where the straight-line entries of `move_options` for `model` can end, before they are
    checked: eight directions at the full and at half the model's Move, in the list's order (the
    same floats, so a bot can tell that none of them could beat a move it already has)."""
    return _movement.straight_ends(game.state.xy[model.index].copy(), move_budget(game, model))


def ability_actions_of(game: Game, player: int, effects: Collection[str]) -> list[UseAbility]:
    """`ability_actions(game, player)` cut to the abilities whose effect is one of `effects`, in the
    same order, without generating the other abilities' actions: a bot that uses only some effects
    asks this (an Earth Wall's candidate points cost a geometry check each)."""
    return _abilities.candidates(game, player, effects)


def shot_matchups_within(
    game: Game, player: int, within: Callable[[ModelState, ModelState, ShotSpec], bool]
) -> list[ShotMatchup]:
    """`matchup(game, a.model, a.target, weapon=a.weapon)` of each of `shot_actions(game, player)` for
    which `within(shooter, target, spec)` holds (`spec` the shooter's first `ShotSpec` of the shot's
    weapon name, the one `matchup` scores), in the list's order (`Shoot(m.shooter, m.target,
    m.weapon)` is the action). `within` is asked before line of sight and the scores, so the pairs
    it drops cost neither (four shot candidates in five lie beyond their weapon's range). A weapon's
    kept targets are scored in one batch (`shot_scores_each`: the shooter's facts read once), and a
    kept shot is scored once: the list's check that the shot is possible reads the matchup's attack
    score when the weapon is the first of its name, as it nearly always is."""
    out: list[ShotMatchup] = []
    premeasure = game.options.premeasure
    for m in game.player_models(player):
        if not _shots.can_fire(game, m):
            continue
        specs = shot_specs(game, m)
        first: dict[str, ShotSpec] = {}
        for sp in specs:
            first.setdefault(sp.name, sp)
        # `targetable` is `open_target` and sight: the first part is the same for every weapon
        open_targets = _shots.open_targets(game, [m])[0]
        for spec in specs:
            if spec.ap_cost > m.ap:
                continue
            named = first[spec.name]
            kept = [
                t
                for t in open_targets
                if within(m, t, named)
                and game.sees(m, t)
                and not (premeasure and game.distance(m, t) > spec.range)
            ]
            if not kept:
                continue
            scores = shot_scores_each(game, m, kept, named)
            checks = scores if named is spec else shot_scores_each(game, m, kept, spec)
            for t, (attack, dodge), (check, _) in zip(kept, scores, checks, strict=True):
                if check.base_total > 0:
                    out.append(_shot_matchup(game, m, t, named, attack, dodge))
    return out


def charge_targets_within(
    game: Game, model: ModelState, within: Callable[[ModelState], bool]
) -> list[ModelState]:
    """`charge_targets(game, model)` cut to the targets for which `within(target)` holds, in the same
    order, with `within` asked before line of sight: a bot that only charges what it believes in
    reach asks this, and a model with no enemy in reach costs no sight at all (R-C3)."""
    return [t for _, t in _charges.foe_pairs(game, [model]) if within(t) and game.sees(model, t)]
