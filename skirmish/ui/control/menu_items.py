"""The numbered choices of the table: a model's abilities, and a pending decision's answers.

Which abilities are usable is the engine's answer (`legal_actions`); why the others are not is the
engine's refusal (`queries.why_not_model`), except where the words say how the ability is used
through the table's keys (a reaction is offered by the engine, a ranged attack is shot with S, a
Combat Distraction is a path in the Advances step): those follow the ability's data, not a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from skirmish.engine import queries
from skirmish.engine.core.actions import Action, Attack, CounterCharge, Decline, Defend, React, UseAbility
from skirmish.engine.scenarios.duel.pieces import parse_piece, technique_words
from skirmish.ui.table_words import effect_words

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine import Game
    from skirmish.engine.queries import ModelState

Item = tuple[str, Action | None, str]
"""(label, the action a choice sends or None when not usable, why not / "place" for a point)."""

HOW_WORDS = ("passive", "reaction", "a ranged", "Adv")
"""Reasons that say how an ability is used, not a refusal: shown without the warning colour."""


@dataclass
class Choices:
    """An open list of choices: the items and the rules text under each (abilities only)."""

    items: list[Item]
    notes: list[str]


def how_used(m: ModelState, ab: Ability) -> str:
    """How an ability that is never chosen from the menu is used at the table ("" for the others)."""
    if ab.timing.value == "reaction":
        return f"reaction — offered when an enemy shoots at {m.name}"
    if ab.effect == "ranged_attack":
        return "a ranged attack — Shoot (S) in the shooting step; W picks it"
    if ab.effect == "distraction":
        return "Advances step: drag a path to slip out of a melee"
    if ab.timing.value == "passive":
        return "passive — applies automatically when it matters"
    return ""


def why_not_usable(game: Game, m: ModelState, ab: Ability) -> str:
    """Why `ab` is not in the engine's legal actions now, in the engine's words."""
    how = how_used(m, ab)
    if how:
        return how
    refusal = queries.why_not_model(game, "UseAbility", m, ability=ab.name)
    return "no target in reach" if refusal is None else refusal.reason


def ability_choices(game: Game, m: ModelState, legal: list[Action]) -> Choices | None:
    """The ability menu of `m`: the usable ones (from `legal`) numbered, the others with why not."""
    abilities = queries.abilities_of_model(game, m)
    table = {a.name: a for a in abilities}
    items: list[Item] = []
    seen_walls: set[str] = set()
    for a in legal:
        if not isinstance(a, UseAbility) or a.model != m.id:
            continue
        ab = table.get(a.ability)
        cost = f"{ab.ap_cost} AP" if ab else "?"
        title = ab.title if ab else a.ability
        if ab is not None:
            reach = f', {ab.range:g}"' if ab.range else ""
            cost += f"{reach}: {effect_words(ab)}"
        if a.target:
            t = game.state.model(a.target)
            items.append((f"{title} -> {t.name if t else a.target} ({cost})", a, ""))
        elif a.at is not None:
            if a.ability not in seen_walls:
                seen_walls.add(a.ability)
                items.append((f"{title} — click where ({cost})", a, "place"))
        else:
            items.append((f"{title} ({cost})", a, ""))
    offered = {it[1].ability for it in items if isinstance(it[1], UseAbility)}
    for ab in abilities:
        if ab.name not in offered:
            reach = f', {ab.range:g}"' if ab.range else ""
            label = f"{ab.title} ({ab.ap_cost} AP{reach}: {effect_words(ab)})"
            items.append((label, None, why_not_usable(game, m, ab)))
    if not items:
        return None
    by_title = {ab.title: ab.description for ab in abilities}
    notes = [next((d for t, d in by_title.items() if label.startswith(t)), "") for label, _, _ in items]
    return Choices(items, notes)


def action_label(game: Game, action: Action) -> str:
    """The words for a duel decision in the pending menu (the observation of the player to act)."""
    obs = game.observation(game.state.active_player)
    techs = obs["scenario"]["techniques"]
    if isinstance(action, Attack):
        t = next(x for x in techs[action.model] if x["name"] == action.technique)
        foe = game.model(action.target).name
        return f"ATTACK {foe} with {t['name']}: {technique_words([parse_piece(p) for p in t['pieces']])}"
    if isinstance(action, Defend):
        t = next(x for x in techs[action.model] if x["name"] == action.technique)
        return f"Defend with {t['name']}: {technique_words([parse_piece(p) for p in t['pieces']])}"
    return repr(action)


def pending_choices(game: Game) -> Choices | None:
    """The answers to the pending decision (counter-charge, reaction, duel), from `legal_actions`."""
    p = game.state.pending
    if p is None:
        return None
    items: list[Item] = []
    for a in game.legal_actions():
        if isinstance(a, CounterCharge):
            t = game.model(a.target)
            items.append((f"Counter-charge {t.name}", a, ""))
        elif isinstance(a, React):
            m = game.model(a.model)
            ab = next((x for x in queries.abilities_of_model(game, m) if x.name == a.ability), None)
            words = f" — {effect_words(ab)}" if ab else ""
            cost = ab.ap_cost if ab else "?"
            items.append((f"{m.name}: {ab.title if ab else a.ability} ({cost} AP){words}", a, ""))
        elif isinstance(a, Attack | Defend):
            items.append((action_label(game, a), a, ""))
        elif isinstance(a, Decline):
            items.append(("Decline" if p.kind not in ("duel_call", "duel_defend") else "Pass", a, ""))
    return Choices(items, [])
