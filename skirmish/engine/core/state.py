"""The game state: everything needed to continue a game, and its hash.

Positions live in one numpy array for the whole table (the geometry layer answers questions for
all models at once); everything else is plain Python for cheap snapshots. The state hash is a
SHA-256 of a canonical JSON form, so a replay can prove it reached the same place.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from skirmish.data.armoury import Ability, Armoury, Weapon, WeaponKind
from skirmish.data.troupe import Profile, Troupe


@dataclass
class ModelState:
    """One model on the table. Statuses are those of R-P5 plus the per-turn flags the rules need."""

    id: str
    index: int
    player: int
    profile: Profile
    hp: int
    ap: int = 0
    ko: bool = False
    removed: bool = False
    taking_cover: bool = False
    limping: bool = False
    charged: bool = False
    charged_from_cover: bool = False
    charged_into_cover: bool = False
    fired: bool = False
    moved: bool = False
    charge_declared: bool = False
    lost_hp_turn: bool = False
    start_cover: int = 0
    chi_blocked: int = 0
    can_advance: bool = False
    advanced: bool = False
    fought: bool = False
    glide: bool = False
    ko_turn: int = 0
    ko_step: str = ""
    buffs: dict[str, int] = field(default_factory=dict)
    label: str = ""
    """The display name (`engine.names`): presentation only, kept out of `public()` and the hash."""

    @property
    def active(self) -> bool:
        """On the table and able to act (not KO'd)."""
        return not self.ko and not self.removed

    def __repr__(self) -> str:
        # The dataclass repr would print the whole profile; a log or a test failure wants the gist.
        flags = [
            name
            for name, on in (
                ("removed", self.removed),
                ("KO'd", self.ko and not self.removed),
                ("Taking Cover", self.taking_cover),
                ("Limping", self.limping),
            )
            if on
        ]
        extra = "".join(f", {f}" for f in flags)
        return f"<Model {self.id} {self.hp}/{self.profile.hp} HP {self.ap} AP{extra}>"

    @property
    def on_table(self) -> bool:
        return not self.removed

    @property
    def name(self) -> str:
        return self.label or self.profile.title

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "hp": self.hp,
            "ap": self.ap,
            "ko": self.ko,
            "removed": self.removed,
            "taking_cover": self.taking_cover,
            "limping": self.limping,
            "charged": self.charged,
            "charged_from_cover": self.charged_from_cover,
            "charged_into_cover": self.charged_into_cover,
            "fired": self.fired,
            "moved": self.moved,
            "charge_declared": self.charge_declared,
            "lost_hp_turn": self.lost_hp_turn,
            "start_cover": self.start_cover,
            "chi_blocked": self.chi_blocked,
            "can_advance": self.can_advance,
            "advanced": self.advanced,
            "fought": self.fought,
            "glide": self.glide,
            "ko_turn": self.ko_turn,
            "ko_step": self.ko_step,
            "buffs": dict(sorted(self.buffs.items())),
        }


@dataclass
class PlayerState:
    """A seat at the table: its troupe, its team (allies share one) and its score."""

    index: int
    name: str
    team: int
    troupe: Troupe
    armoury: Armoury
    bot: str | None = None
    ap_roll: int = 0
    battle_points: list[int] = field(default_factory=list)
    done: bool = False

    @property
    def total_points(self) -> int:
        return sum(self.battle_points)

    def __repr__(self) -> str:
        return f"<Player {self.index} {self.name} team {self.team}, {self.total_points} BP>"


@dataclass
class Pending:
    """A decision the rules offer out of turn (a counter-charge, a bending reaction)."""

    kind: str
    player: int
    model: str
    target: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class GameState:
    models: list[ModelState]
    players: list[PlayerState]
    xy: np.ndarray
    radii: np.ndarray
    turn: int = 0
    phase: str = "deploy"
    step: str = "deploy"
    order: list[int] = field(default_factory=list)
    active_index: int = 0
    pending: Pending | None = None
    over: bool = False
    winner: int | None = None
    winning_team: int | None = None
    result_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    terrain_added: list[dict[str, Any]] = field(default_factory=list)

    def __repr__(self) -> str:
        where = "over" if self.over else f"turn {self.turn} {self.step}"
        return f"<GameState {where}, {len(self.models)} models, {len(self.players)} players>"

    @property
    def active_player(self) -> int:
        if self.pending is not None:
            return self.pending.player
        return self.order[self.active_index] if self.order else 0

    def model(self, model_id: str) -> ModelState | None:
        for m in self.models:
            if m.id == model_id:
                return m
        return None

    def canonical(self, dice_state: int) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "step": self.step,
            "order": self.order,
            "active_index": self.active_index,
            "pending": None
            if self.pending is None
            else {
                "kind": self.pending.kind,
                "player": self.pending.player,
                "model": self.pending.model,
                "target": self.pending.target,
                "data": self.pending.data,
            },
            "over": self.over,
            "winner": self.winner,
            "winning_team": self.winning_team,
            "reason": self.result_reason,
            "models": [m.public() for m in self.models],
            "xy": [[float(x), float(y)] for x, y in self.xy],
            "players": [{"ap_roll": p.ap_roll, "bp": p.battle_points, "done": p.done} for p in self.players],
            "extra": self.extra,
            "terrain_added": self.terrain_added,
            "dice": dice_state,
        }


def state_hash(state: GameState, dice_state: int) -> str:
    text = json.dumps(state.canonical(dice_state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def weapons_of(model: ModelState, armoury: Armoury) -> list[Weapon]:
    table = armoury.weapon_by_name()
    return [table[w] for w in model.profile.weapons if w in table]


def ranged_weapons(model: ModelState, armoury: Armoury) -> list[Weapon]:
    return [w for w in weapons_of(model, armoury) if w.kind is WeaponKind.ranged]


def melee_weapon(model: ModelState, armoury: Armoury) -> Weapon | None:
    """The melee weapon a model fights with: most damage, then Shield Breaker, then a pair of hand
    weapons (their +1 applies only to the weapon fought with, R-C4), then file order."""
    melee = [w for w in weapons_of(model, armoury) if w.kind is WeaponKind.melee]
    if not melee:
        return None
    return max(melee, key=lambda w: (w.damage, w.shield_breaker, w.two_hand))


def abilities_of(model: ModelState, armoury: Armoury) -> list[Ability]:
    table = armoury.ability_by_name()
    return [table[a] for a in model.profile.abilities if a in table]
