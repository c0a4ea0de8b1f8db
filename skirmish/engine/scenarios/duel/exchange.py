"""One exchange of the Avatar Duel (R-X1, R-X2): an attacking technique against a defending one.

Pure: the rules module passes the revealed pieces, the target's cover, both Avatars' endurance and
native elements, and the scenario's switches; this module says which piece stopped which, what
got through, the damage by size, and which pieces attrition takes. The defender's pieces are
matched to the attacking pieces in the way that is best for the defender (fewest endurance pieces
lost, then most reflected, then fewest own pieces spent); the search is exhaustive (at most four
attacking pieces against four defending pieces and the cover), so the pairing is exact and
deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from skirmish.engine.scenarios.duel.pieces import SIZE_WORD, Piece, special_of

COVER_STOPS = {0: 0, 1: 1, 2: 2, 3: 3}
"""Largest grounded attacking piece the target's cover stops (one piece an exchange): light cover a
small piece, medium cover up to a medium piece, dense cover any size."""


@dataclass(frozen=True)
class Setting:
    """The scenario's switches that shape an exchange."""

    weakness: bool = True
    weak_to: tuple[tuple[str, str], ...] = (
        ("fire", "water"),
        ("water", "fire"),
        ("earth", "air"),
        ("air", "earth"),
    )
    """(element, the element it is weak to)."""
    airborne_rule: bool = True
    reactions: bool = True
    specials: bool = False
    native: bool = True

    def weakness_of(self, element: str | None) -> str | None:
        if not self.weakness or element is None:
            return None
        return dict(self.weak_to).get(element)


@dataclass(frozen=True)
class Stop:
    """Attacking piece `attack` (its index in the attacking technique) was stopped `how` by the
    defending piece `by` (its index in the defending technique), or by cover when `by` is None."""

    attack: int
    by: int | None
    how: str


@dataclass
class Outcome:
    stops: list[Stop] = field(default_factory=list)
    landed: list[int] = field(default_factory=list)
    damage: list[int] = field(default_factory=list)
    """Endurance sizes the defender loses."""
    reflected: list[int] = field(default_factory=list)
    """Attacking pieces turned back on the attacker (indices in the attacking technique)."""
    reflected_damage: list[int] = field(default_factory=list)
    """Endurance sizes the attacker loses to its own reflected pieces."""
    lost_attack: set[int] = field(default_factory=set)
    lost_defence: set[int] = field(default_factory=set)
    special_attack: str | None = None
    special_defence: str | None = None


def take_damage(
    endurance: frozenset[int] | set[int], pieces: list[Piece], native: str | None, setting: Setting
) -> list[int]:
    """Endurance sizes lost to pieces that got through (R-X2): each piece takes the endurance piece
    of its own size, once (more pieces of a size already lost do nothing); with the weakness cycle,
    a piece of the element the target's native element is weak to whose size is already gone strikes
    one size harder (R-X1, the duel's form of +1 to hit)."""
    left = set(endurance)
    lost: list[int] = []
    for p in sorted(pieces, key=lambda q: q.size):
        if p.size in left:
            left.discard(p.size)
            lost.append(p.size)
    weak = setting.weakness_of(native) if setting.native else None
    if weak is not None:
        for p in sorted(pieces, key=lambda q: q.size):
            if p.element == weak and p.size not in lost and p.size + 1 in left:
                left.discard(p.size + 1)
                lost.append(p.size + 1)
    return sorted(lost)


def stopper(a: Piece, d: Piece, setting: Setting, attack_special: str | None) -> str | None:
    """How defending piece `d` stops attacking piece `a`, or None (R-X2)."""
    if setting.airborne_rule and a.ungrounded != d.ungrounded:
        return None  # each level stops its own: ungrounded attacks only ungrounded pieces, and back
    if d.standing:
        return "block" if d.size >= a.size else None
    if d.orient == "deflect":
        if attack_special == "firestorm":
            return None
        return None if setting.weakness_of(d.element) == a.element else "deflect"
    if d.orient == "point":
        if attack_special in ("firestorm", "tidal_wave"):
            return None
        return "reflect" if d.element == a.element and d.size == a.size else None
    return None


@lru_cache(maxsize=1 << 16)
def resolve(
    attack: tuple[Piece, ...],
    defence: tuple[Piece, ...] | None,
    setting: Setting,
    *,
    cover: int,
    target_endurance: frozenset[int],
    target_native: str | None,
    attacker_endurance: frozenset[int],
    attacker_native: str | None,
) -> Outcome:
    """The whole exchange: pairing, damage both ways and attrition. A pure function of hashable
    values, so it is memoised (the duel bot asks the same questions many times); callers must not
    change the `Outcome` it returns."""
    if not setting.reactions:
        defence = None
    a_special = special_of(attack) if setting.specials else None
    d_special = special_of(defence) if setting.specials and defence else None
    if a_special not in ("firestorm", "tidal_wave"):
        a_special = None
    if d_special not in ("air_shield", "earth_fortress"):
        d_special = None
    attackers = [i for i, p in enumerate(attack) if p.orient == "point"]
    out = Outcome(special_attack=a_special, special_defence=d_special)
    cover_cap = 0 if a_special == "tidal_wave" else COVER_STOPS.get(cover, 0)

    if d_special is not None and defence is not None:
        # A defending special answers every attacking piece at once.
        for i in attackers:
            a = attack[i]
            if d_special == "air_shield":
                out.stops.append(Stop(i, None if not defence else 0, "shield"))
            elif not (setting.airborne_rule and a.ungrounded):
                out.stops.append(Stop(i, 0, "fortress"))
                out.lost_attack.add(i)
            else:
                out.landed.append(i)
        out.lost_defence = set(range(len(defence)))
    else:
        best = _best_pairing(
            attack,
            attackers,
            defence or (),
            setting,
            a_special,
            cover_cap,
            target_endurance,
            target_native,
            attacker_endurance,
            attacker_native,
        )
        for i, (by, how) in zip(attackers, best, strict=True):
            if how is None:
                out.landed.append(i)
                continue
            out.stops.append(Stop(i, by, how))
            if how in ("block", "cover", "reflect"):
                out.lost_attack.add(i)
            if how == "block" and by is not None:
                out.lost_defence.add(by)
            if how == "reflect":
                out.reflected.append(i)
    out.damage = take_damage(target_endurance, [attack[i] for i in out.landed], target_native, setting)
    out.reflected_damage = take_damage(
        attacker_endurance, [attack[i] for i in out.reflected], attacker_native, setting
    )
    if a_special is not None:
        out.lost_attack = set(range(len(attack)))  # pieces used in specials are always lost
    return out


def _best_pairing(
    attack: tuple[Piece, ...],
    attackers: list[int],
    defence: tuple[Piece, ...],
    setting: Setting,
    a_special: str | None,
    cover_cap: int,
    t_end: frozenset[int],
    t_native: str | None,
    a_end: frozenset[int],
    a_native: str | None,
) -> list[tuple[int | None, str | None]]:
    """For each attacking piece, (defending piece index or None for cover, how) or (None, None)."""
    options: list[list[tuple[int | None, str]]] = []
    for i in attackers:
        a = attack[i]
        opts: list[tuple[int | None, str]] = []
        for j, d in enumerate(defence):
            how = stopper(a, d, setting, a_special)
            if how is not None:
                opts.append((j, how))
        if cover_cap and not a.ungrounded and a.size <= cover_cap:
            opts.append((None, "cover"))
        options.append(opts)
    best: list[tuple[int | None, str | None]] = [(None, None)] * len(attackers)
    best_key: tuple[int, ...] | None = None
    chosen: list[tuple[int | None, str | None]] = []

    def score() -> tuple[int, ...]:
        landed = [attack[attackers[k]] for k, (_, how) in enumerate(chosen) if how is None]
        refl = [attack[attackers[k]] for k, (_, how) in enumerate(chosen) if how == "reflect"]
        dmg = take_damage(t_end, landed, t_native, setting)
        back = take_damage(a_end, refl, a_native, setting)
        spent = sum(1 for _, how in chosen if how == "block")
        return (len(dmg), sum(dmg), -len(back), -sum(back), spent)

    def walk(k: int, used: frozenset[int], cover_used: bool) -> None:
        nonlocal best, best_key
        if k == len(attackers):
            key = score()
            if best_key is None or key < best_key:
                best_key, best = key, list(chosen)
            return
        for j, how in options[k]:
            if j is None:
                if cover_used:
                    continue
                chosen.append((None, how))
                walk(k + 1, used, True)
            else:
                if j in used:
                    continue
                chosen.append((j, how))
                walk(k + 1, used | {j}, cover_used)
            chosen.pop()
        chosen.append((None, None))
        walk(k + 1, used, cover_used)
        chosen.pop()

    walk(0, frozenset(), False)
    return best


def describe(attack: tuple[Piece, ...], defence: tuple[Piece, ...] | None, out: Outcome) -> list[str]:
    """The exchange in words, piece by piece: which piece stopped which and what got through."""
    lines = []
    for st in out.stops:
        a = attack[st.attack].words
        if st.how == "cover":
            lines.append(f"cover stops the {a}")
        elif st.how == "shield":
            lines.append(f"the Air Shield deflects the {a}")
        elif st.how == "fortress":
            lines.append(f"the Earth Fortress blocks the {a} (both lost)")
        elif defence is not None and st.by is not None:
            d = defence[st.by].words
            verb = {"block": "blocks", "deflect": "deflects", "reflect": "reflects"}[st.how]
            tail = {"block": " (both lost)", "deflect": "", "reflect": " back at the attacker"}[st.how]
            lines.append(f"the {d} {verb} the {a}{tail}")
    for i in out.landed:
        lines.append(f"the {attack[i].words} gets through")
    if out.damage:
        lines.append("endurance lost: " + ", ".join(SIZE_WORD[s] for s in out.damage))
    if out.reflected_damage:
        lines.append("the attacker loses endurance: " + ", ".join(SIZE_WORD[s] for s in out.reflected_damage))
    return lines
