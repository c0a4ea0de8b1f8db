"""Melee (R-C4) and removal of melee casualties (R-C5).

Every model in base contact with an enemy rolls one D6 + Combat + modifiers; that one score is
compared with each enemy it touches, and each pair's higher score inflicts a hit (a tie nothing).
All dice are rolled before any hit lands: the fight is simultaneous.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.battlefield.measure import CONTACT
from skirmish.engine.core.flow import Step, StepSpec, step
from skirmish.engine.core.log import score_data
from skirmish.engine.core.state import ModelState, melee_weapon
from skirmish.engine.effects.damage import inflict
from skirmish.engine.effects.damage import remove_casualties as _remove
from skirmish.rules.combat import combat_score, melee_exchanges
from skirmish.rules.modifiers import Modifier, Score

if TYPE_CHECKING:
    from skirmish.data.armoury import Weapon
    from skirmish.engine.core.context import Ctx


def contact_pairs(game: Ctx) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, of active opposing models in base contact, in index order."""
    s = game.state
    # Only models in melee (R-P5: an active enemy in base contact) can be in a pair. The distance
    # is read from the game's lists (the entries `distances()` would put in an array).
    act = [m for m in s.models if m.active and game.in_melee(m)]
    distance = game.distance
    pairs = []
    for a_i, a in enumerate(act):
        for b in act[a_i + 1 :]:
            if distance(a, b) <= CONTACT and game.enemies(a, b):
                pairs.append((a.index, b.index))
    return pairs


def groups(pairs: list[tuple[int, int]]) -> list[list[int]]:
    """Connected melees: models linked through chains of contact fight in the same melee."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[find(a)] = find(b)
    out: dict[int, list[int]] = {}
    for x in sorted(parent):
        out.setdefault(find(x), []).append(x)
    return sorted(out.values(), key=lambda g: g[0])


def melee_score(game: Ctx, m: ModelState, foes: list[ModelState], friends_in_melee: int) -> Score:
    """Combat + every modifier of R-C4, named, before the die.

    The score is a function of a few facts (`melee_score_of_facts`), and a game asks the same
    facts again and again (each melee step, the bots' odds): the game keeps the score of each set
    of facts it has seen (`memo["melee_scores"]`), keyed on those facts exactly, so the same facts
    give the same (immutable) score without building it again."""
    weapon = _weapon_of(game, m)
    cover_shield = game.options.cover_shield_in_melee  # Taking Cover's Wall Shield counts (R-M4)
    # Everything `melee_score_of_facts` reads, in its argument order.
    facts = (
        m.profile.combat,
        m.charged,
        weapon is not None and weapon.two_hand,
        m.charged_from_cover,
        game.cover(m) >= 2,
        m.charged_into_cover,
        friends_in_melee,
        m.buffs.get("combat"),
        any(f.profile.shield or (cover_shield and f.taking_cover) for f in foes),
        m.fired,
        m.lost_hp_turn,
    )
    memo: dict[tuple[object, ...], Score] = game.memo.setdefault("melee_scores", {})
    found = memo.get(facts)
    if found is None:
        if len(memo) >= MELEE_SCORE_MEMO:
            memo.clear()
        found = memo[facts] = melee_score_of_facts(*facts)
    return found


MELEE_SCORE_MEMO = 1024
"""Sets of melee facts whose scores a game keeps (cleared when full; a game meets a few dozen)."""


def _weapon_of(game: Ctx, m: ModelState) -> Weapon | None:
    """`melee_weapon(m, game.armoury(m))`, worked out once a game per model (a model's weapons and
    its player's armoury never change during a game)."""
    kept: dict[str, tuple[Weapon | None]] = game.memo.setdefault("melee_weapons", {})
    found = kept.get(m.id)
    if found is None:
        found = kept[m.id] = (melee_weapon(m, game.armoury(m)),)
    return found[0]


def melee_score_of_facts(
    combat: int,
    charged: bool,
    two_hand: bool,
    charged_from_cover: bool,
    in_cover: bool,
    charged_into_cover: bool,
    friends_in_melee: int,
    combat_buff: int | None,
    foe_shield: bool,
    fired: bool,
    lost_hp_turn: bool,
) -> Score:
    """The melee score of one set of facts, every modifier of R-C4 named: the rules' own
    arithmetic, a pure function of its arguments (`melee_score_reference` reads them from the
    game; a test holds the two equal)."""
    mods: list[Modifier] = []
    if charged:
        mods.append(Modifier("charged this turn", 1))
    if two_hand:
        # Only when it fights with them (ruling R-C4): the hit is dealt with this same weapon.
        mods.append(Modifier("two hand weapons", 1))
    if charged and charged_from_cover:
        mods.append(Modifier("charging out of cover", 1))
    if in_cover and not (charged and charged_into_cover):
        # A model that charged into cover takes the -1 below instead (the rulebook's worked example).
        mods.append(Modifier("in cover", 1))
    if friends_in_melee:
        mods.append(Modifier("friends in the melee", friends_in_melee))
    if combat_buff:
        mods.append(Modifier("ability bonus", combat_buff))
    if foe_shield:
        mods.append(Modifier("enemy has a shield", -1))
    if charged and charged_into_cover:
        mods.append(Modifier("charging into cover", -1))
    if fired:
        mods.append(Modifier("fired this phase", -1))
    if lost_hp_turn:
        mods.append(Modifier("lost HP this turn", -1))
    return combat_score(combat, mods)


def melee_score_reference(game: Ctx, m: ModelState, foes: list[ModelState], friends_in_melee: int) -> Score:
    """`melee_score` worked out from the game each time: the reference the memo is held to."""
    mods: list[Modifier] = []
    if m.charged:
        mods.append(Modifier("charged this turn", 1))
    weapon = melee_weapon(m, game.armoury(m))
    if weapon is not None and weapon.two_hand:
        # Only when it fights with them (ruling R-C4): the hit is dealt with this same weapon.
        mods.append(Modifier("two hand weapons", 1))
    if m.charged and m.charged_from_cover:
        mods.append(Modifier("charging out of cover", 1))
    if game.cover(m) >= 2 and not (m.charged and m.charged_into_cover):
        # A model that charged into cover takes the -1 below instead (the rulebook's worked example).
        mods.append(Modifier("in cover", 1))
    if friends_in_melee:
        mods.append(Modifier("friends in the melee", friends_in_melee))
    if m.buffs.get("combat"):
        mods.append(Modifier("ability bonus", m.buffs["combat"]))
    cover_shield = game.options.cover_shield_in_melee  # Taking Cover's Wall Shield counts (R-M4)
    if any(f.profile.shield or (cover_shield and f.taking_cover) for f in foes):
        mods.append(Modifier("enemy has a shield", -1))
    if m.charged and m.charged_into_cover:
        mods.append(Modifier("charging into cover", -1))
    if m.fired:
        mods.append(Modifier("fired this phase", -1))
    if m.lost_hp_turn:
        mods.append(Modifier("lost HP this turn", -1))
    return combat_score(m.profile.combat, mods)


def resolve_melee(game: Ctx) -> None:
    s = game.state
    pairs = contact_pairs(game)
    if not pairs:
        return
    foes_of: dict[int, list[ModelState]] = {}
    for a, b in pairs:
        foes_of.setdefault(a, []).append(s.models[b])
        foes_of.setdefault(b, []).append(s.models[a])
    fought = s.extra.setdefault("fought", {})
    for group in groups(pairs):
        start = len(game.dice.history)
        scores: dict[int, Score] = {}
        for i in group:
            m = s.models[i]
            friends = sum(1 for j in group if j != i and not game.enemies(s.models[j], m))
            scores[i] = melee_score(game, m, foes_of[i], friends)
        for i in group:
            scores[i] = scores[i].with_die(game.dice.d6(f"melee {s.models[i].name}"))
        group_pairs = [(a, b) for a, b in pairs if a in scores]
        results = melee_exchanges({i: sc.total for i, sc in scores.items()}, group_pairs)
        logging = game.logging
        lines = [f"{s.models[i].name} rolls {scores[i].die}: {scores[i].explain()}" for i in group if logging]
        outcome = (
            [f"{s.models[w].name} beats {s.models[lo].name}" for w, lo in results] or ["no hits (ties)"]
            if logging
            else []
        )
        # one line per pair for readers (the UI's short form); "result" is filled in as hits land
        exchanges = [
            {
                "a": s.models[a].id,
                "b": s.models[b].id,
                "a_score": scores[a].total,
                "b_score": scores[b].total,
                "winner": next((s.models[w].id for w, lo in results if {w, lo} == {a, b}), None),
                "result": "tie",
            }
            for a, b in (group_pairs if game.record_log else [])
        ]
        if logging:
            game.emit(
                "melee",
                "Melee — " + " | ".join(lines) + " => " + ", ".join(outcome),
                tuple(s.models[i].id for i in group),
                rolls_from=start,
                scores={s.models[i].id: score_data(scores[i]) for i in group},
                exchanges=exchanges,
            )
        for i in group:
            s.models[i].fought = True
            fought.setdefault(s.models[i].id, [])
            for f in foes_of[i]:
                if f.id not in fought[s.models[i].id]:
                    fought[s.models[i].id].append(f.id)
        for w, lo in results:
            winner, loser = s.models[w], s.models[lo]
            weapon = _weapon_of(game, winner)
            damage = weapon.damage if weapon else 1
            breaker = weapon.shield_breaker if weapon else False
            hit = inflict(
                game,
                loser,
                damage,
                shield_breaker=breaker,
                by=winner,
                source=f"{winner.name}'s {weapon.title if weapon else 'blows'}",
            )
            if not exchanges:
                continue  # no log to fill in
            words = (
                "no effect"
                if hit is None
                else "saved"
                if hit.saves.saved
                else "KO"
                if loser.ko
                else f"-{hit.hp_lost} HP"
            )
            for ex in exchanges:
                if ex["winner"] == winner.id and loser.id in (ex["a"], ex["b"]):
                    ex["result"] = words


def remove_casualties(game: Ctx) -> None:
    """R-C5, then R-E1: a model whose melee enemies this turn are all KO'd has won and may advance."""
    s = game.state
    fought = s.extra.get("fought", {})
    _remove(game)
    for m in s.models:
        if m.active and m.id in fought and fought[m.id]:
            foes = [s.model(f) for f in fought[m.id]]
            if all(f is not None and f.ko for f in foes) and not game.in_melee(m):
                m.can_advance = m.profile.advance > 0
    s.extra["fought"] = {}


STEPS: tuple[StepSpec, ...] = (
    step(Step.MELEE, "combat", "Melee", "R-C4", begin=resolve_melee),
    step(Step.MELEE_CASUALTIES, "combat", "Removal of melee casualties", "R-C5", begin=remove_casualties),
)
"""Melee, fought by itself once charges are over, and the removal of its casualties (R-C4, R-C5)."""
