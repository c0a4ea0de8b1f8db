"""Exact odds of every model of troupe A against every model of troupe B (`skirmish odds table A B`).

Before running thousands of games, a designer can read the matchup off the profiles: how often
each of A's shooters hits, wounds and KOs each of B's models in the open and in cover, and how each
1-v-1 melee exchange goes. The numbers are exact (`skirmish.rules.odds`), for a plain situation
spelled out in `SITUATIONS`: level ground, no friend within 5", no ability buffs, the shooter in
the open, full HP. The modifiers are those of R-C1 and R-C4 as the engine applies them
(`engine.effects.shots.shot_scores`, `engine.steps.melee.melee_score`) for that situation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmish.data.armoury import Armoury, WeaponKind
from skirmish.data.loader import troupe_armoury
from skirmish.data.troupe import Profile, Troupe
from skirmish.engine.queries import WEAK_TO
from skirmish.rules.odds import MeleeOdds, ShotOdds, melee_odds, shot_odds

COVERS: tuple[tuple[str, int], ...] = (("open", 0), ("light cover", 1), ("cover", 2))
"""Target positions for shooting: in the open, light cover, and medium or dense cover (same modifiers)."""

SITUATIONS = {
    "shooting": 'shooter in the open on level ground, no friend within 5", target at full HP; '
    "`cover` means medium or dense cover",
    "melee": "a plain exchange, nobody charging; `cover`: B's model stands in medium or dense cover",
}


@dataclass(frozen=True)
class Shot:
    """A way a model shoots: a ranged weapon or a ranged-attack ability."""

    name: str
    title: str
    damage: int
    shield_breaker: bool
    bonus: int
    element: str | None
    ap_cost: int


def shots_of(profile: Profile, armoury: Armoury) -> list[Shot]:
    """Ranged weapons, then shooting ranged-attack abilities, in profile order, as the engine has them."""
    weapons = armoury.weapon_by_name()
    abilities = armoury.ability_by_name()
    out = [
        Shot(w.name, w.title, w.damage, w.shield_breaker, 0, w.element, 0)
        for w in (weapons[n] for n in profile.weapons if n in weapons)
        if w.kind is WeaponKind.ranged
    ]
    for a in (abilities[n] for n in profile.abilities if n in abilities):
        if a.effect == "ranged_attack" and a.timing.value == "shooting":
            p = a.params
            element = p.get("element") or a.element
            out.append(
                Shot(
                    a.name,
                    a.title,
                    int(p.get("damage", 1)),
                    bool(p.get("shield_breaker", False)),
                    int(p.get("bonus", 0)),
                    str(element) if element else None,
                    a.ap_cost,
                )
            )
    return out


def saves(profile: Profile, armoury: Armoury) -> tuple[int | None, int | None]:
    armour = armoury.armour_by_name()[profile.armour].save if profile.armour else None
    shield = armoury.shield_by_name()[profile.shield].save if profile.shield else None
    return armour, shield


def melee_weapon(profile: Profile, armoury: Armoury) -> tuple[str, int, bool, bool]:
    """(title, damage, shield breaker, two-handed): the weapon the engine fights with, else fists."""
    table = armoury.weapon_by_name()
    melee = [table[n] for n in profile.weapons if n in table and table[n].kind is WeaponKind.melee]
    if not melee:
        return "blows", 1, False, False
    w = max(melee, key=lambda w: (w.damage, w.shield_breaker, w.two_hand))  # as engine.state.melee_weapon
    return w.title, w.damage, w.shield_breaker, w.two_hand


def shot_scores(shooter: Profile, target: Profile, shot: Shot, cover: int) -> tuple[int, int]:
    """Attack and Dodge before the dice (R-C1, R-X1) for the plain situation and the target's cover rank."""
    attack = shooter.ranged + shot.bonus
    attack += 1 if cover == 0 else (-1 if cover == 1 else -2)
    if shot.element and target.elements and WEAK_TO[target.elements[0].value] == shot.element:
        attack += 1
    dodge = target.dodge + 1  # the shooter stands in the open
    if cover >= 2:
        dodge += 1
    return attack, dodge


@dataclass(frozen=True)
class ShotRow:
    shooter: str
    weapon: str
    target: str
    odds: tuple[ShotOdds, ...]  # one per COVERS entry


@dataclass(frozen=True)
class MeleeRow:
    attacker: str
    defender: str
    odds: tuple[MeleeOdds, MeleeOdds]  # open, defender in cover


def _models(troupe: Troupe) -> list[Profile]:
    return [e.profile for e in troupe.models]


def odds_table(a: Troupe, b: Troupe) -> tuple[list[ShotRow], list[MeleeRow]]:
    """Shooting rows (each of A's shots at each of B's models) and melee rows (each pair)."""
    arm_a, arm_b = troupe_armoury(a), troupe_armoury(b)
    shots: list[ShotRow] = []
    melees: list[MeleeRow] = []
    for pa in _models(a):
        for shot in shots_of(pa, arm_a):
            for pb in _models(b):
                armour, shield = saves(pb, arm_b)
                row = []
                for _, cover in COVERS:
                    att, dod = shot_scores(pa, pb, shot, cover)
                    row.append(
                        shot_odds(att, dod, armour, shield, False, shot.shield_breaker, shot.damage, pb.hp)
                    )
                shots.append(ShotRow(pa.title, shot.title, pb.title, tuple(row)))
    for pa in _models(a):
        _, dmg_a, sb_a, two_a = melee_weapon(pa, arm_a)
        sa = saves(pa, arm_a)
        for pb in _models(b):
            _, dmg_b, sb_b, two_b = melee_weapon(pb, arm_b)
            sbv = saves(pb, arm_b)
            att = pa.combat + int(two_a) - int(pb.shield is not None)
            dfd = pb.combat + int(two_b) - int(pa.shield is not None)
            pair = tuple(
                melee_odds(
                    att, dfd + extra, sa[0], sa[1], sbv[0], sbv[1], sb_a, sb_b, dmg_a, dmg_b, pa.hp, pb.hp
                )
                for extra in (0, 1)
            )
            melees.append(MeleeRow(pa.title, pb.title, (pair[0], pair[1])))
    return shots, melees


def as_json(a: Troupe, b: Troupe, shots: list[ShotRow], melees: list[MeleeRow]) -> dict[str, Any]:
    return {
        "troupe_a": a.name,
        "troupe_b": b.name,
        "situations": SITUATIONS,
        "shooting": [
            {
                "shooter": r.shooter,
                "weapon": r.weapon,
                "target": r.target,
                **{name.replace(" ", "_"): o.as_dict() for (name, _), o in zip(COVERS, r.odds, strict=True)},
            }
            for r in shots
        ],
        "melee": [
            {
                "attacker": r.attacker,
                "defender": r.defender,
                "open": r.odds[0].as_dict(),
                "cover": r.odds[1].as_dict(),
            }
            for r in melees
        ],
    }
