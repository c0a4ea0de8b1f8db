"""The Pursuit (R-X3, from Aang's Destiny): co-operative heroes against adversaries the game drives.

A Tracking track advances with Fire Nation event cards drawn each turn and with the adversaries'
abilities; the heroes lose at once when it reaches its end. Objectives are revealed one at a time
in story order; the heroes win when every objective is complete and every adversary is KO'd.
Heroes brought to 0 HP are stunned, not KO'd (`hero_ko = "stun"`).

Turn order of the special rules (hooks called by the phase machine):

- start of each turn (the AP roll step, so AP exist to be drained): reveal the current objective,
  pick the active hero, draw and resolve the event cards (their number fixed by Tracking at the
  start of the turn), then the adversaries' `each_turn` abilities;
- whenever an effect adds Tracking: the adversaries' `on_tracking` abilities, once per effect
  (an effect they cause does not trigger them again, so they cannot loop);
- scoring step (every model has moved): objective progress, then the heroes' victory;
- turn end: stunned heroes recover all their HP.

The deck is shuffled with the game's own dice (a Fisher-Yates shuffle whose rolls are logged and
replayed like any other die). All changing state lives in `game.state.extra["pursuit"]`; a test may
set its `deck` (a list of card indices, top first) to force the cards drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import shapely

from skirmish.data.errors import DataError
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine.special_rules import ScenarioSpecials, SpecialReader, side_index
from skirmish.engine.state import ModelState

EFFECTS = ("tracking", "hurt_active", "hurt_all", "reinforce", "drain_ap", "calm")
TRIGGERS = ("on_tracking", "each_turn")
KINDS = ("reach", "hold", "defeat")
HERO_KO = ("stun", "ko")
KEY = "pursuit"

PURSUIT_KEYS = frozenset(
    {
        "tracking_start",
        "tracking_length",
        "events_per_turn",
        "events_extra_at",
        "event_deck",
        "adversary_abilities",
        "adversary_side",
        "objectives",
        "objective_reward_tracking",
        "hero_side",
        "hero_order",
        "hero_ko",
        "stun_tracking",
        "campaign",
        "chapter",
    }
)
"""Every `special` key the Pursuit reads (a campaign chapter may override any of them)."""


@dataclass(frozen=True)
class Card:
    """A Fire Nation event card: `name:effect:amount`."""

    name: str
    effect: str
    amount: int

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").title()


@dataclass(frozen=True)
class AdversaryAbility:
    """`model:trigger:effect:amount`: the adversary `model` (a profile name) does `effect` on `trigger`."""

    model: str
    trigger: str
    effect: str
    amount: int


@dataclass(frozen=True)
class Objective:
    """`name:kind:target[:amount]`, in story order."""

    name: str
    kind: str
    target: str
    amount: int

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").capitalize()

    def describe(self) -> str:
        if self.kind == "reach":
            return f"a hero ends a turn in {self.target}"
        if self.kind == "hold":
            return f"the heroes hold {self.target} for {self.amount} turn(s) in a row"
        return f"KO {self.target}"


@dataclass(frozen=True)
class PursuitConfig:
    tracking_start: int
    tracking_length: int
    events_per_turn: int
    events_extra_at: tuple[int, ...]
    deck: tuple[Card, ...]
    abilities: tuple[AdversaryAbility, ...]
    adversary_side: str
    objectives: tuple[Objective, ...]
    objective_reward_tracking: int
    hero_side: str
    hero_order: tuple[str, ...]
    hero_ko: str
    stun_tracking: int


def _amount(reader: SpecialReader, key: str, text: str, lo: int = 0) -> int:
    try:
        v = int(text)
    except ValueError:
        reader.problem(key, f"amount `{text}` is not a whole number")
        return lo
    if v < lo or v > 99:
        reader.problem(key, f"amount {v} must be from {lo} to 99")
    return v


def parse_config(scenario: Scenario, troupes: list[Troupe] | None = None) -> PursuitConfig:
    """Read and check the Pursuit's `special` keys; `DataError` lists every problem found.

    With `troupes` (one per side) the model names are checked against them too.
    """
    r = SpecialReader(scenario.name, scenario.special)
    start = r.get_int("tracking_start", 1, lo=0, hi=99)
    length = r.get_int("tracking_length", lo=1, hi=99)
    if start >= length:
        r.problem("tracking_start", f"{start} must be below tracking_length {length}")
    per_turn = r.get_int("events_per_turn", 1, lo=0, hi=10)
    extra_at = tuple(r.get_ints("events_extra_at", []))
    deck: list[Card] = []
    for i, text in enumerate(r.get_strs("event_deck")):
        key = f"event_deck[{i}]"
        parts = text.split(":")
        if len(parts) != 3 or not parts[0]:
            r.problem(key, f"`{text}`: write name:effect:amount")
            continue
        if parts[1] not in EFFECTS:
            r.problem(key, f"`{text}`: unknown effect `{parts[1]}` (known: {', '.join(EFFECTS)})")
            continue
        deck.append(Card(parts[0], parts[1], _amount(r, key, parts[2])))
    if not deck and r.has("event_deck"):
        r.problem("event_deck", "the deck needs at least one card")
    abilities: list[AdversaryAbility] = []
    for i, text in enumerate(r.get_strs("adversary_abilities", [])):
        key = f"adversary_abilities[{i}]"
        parts = text.split(":")
        if len(parts) != 4 or not parts[0]:
            r.problem(key, f"`{text}`: write model:trigger:effect:amount")
            continue
        if parts[1] not in TRIGGERS:
            r.problem(key, f"`{text}`: unknown trigger `{parts[1]}` (known: {', '.join(TRIGGERS)})")
            continue
        if parts[2] not in EFFECTS:
            r.problem(key, f"`{text}`: unknown effect `{parts[2]}` (known: {', '.join(EFFECTS)})")
            continue
        abilities.append(AdversaryAbility(parts[0], parts[1], parts[2], _amount(r, key, parts[3])))
    zones = {z.name for z in scenario.scoring.zones}
    objectives: list[Objective] = []
    for i, text in enumerate(r.get_strs("objectives")):
        key = f"objectives[{i}]"
        parts = text.split(":")
        if len(parts) not in (3, 4) or not parts[0] or not parts[2]:
            r.problem(key, f"`{text}`: write name:kind:target[:amount]")
            continue
        kind = parts[1]
        if kind not in KINDS:
            r.problem(key, f"`{text}`: unknown kind `{kind}` (known: {', '.join(KINDS)})")
            continue
        amount = _amount(r, key, parts[3], lo=1) if len(parts) == 4 else 1
        if kind in ("reach", "hold") and parts[2] not in zones:
            r.problem(
                key, f"`{text}`: no scoring zone is named `{parts[2]}` (zones: {', '.join(sorted(zones))})"
            )
        objectives.append(Objective(parts[0], kind, parts[2], amount))
    if not objectives and r.has("objectives"):
        r.problem("objectives", "name at least one objective")
    reward = r.get_int("objective_reward_tracking", 0, lo=-99, hi=99)
    adversary_side = r.get_str("adversary_side")
    hero_side = r.get_str("hero_side")
    sides = {s.name: i for i, s in enumerate(scenario.sides)}
    for key, name in (("adversary_side", adversary_side), ("hero_side", hero_side)):
        if name and name not in sides:
            r.problem(key, f"no side is named `{name}` (sides: {', '.join(sides)})")
    if adversary_side and adversary_side == hero_side:
        r.problem("adversary_side", "must differ from hero_side")
    elif (
        adversary_side in sides
        and hero_side in sides
        and scenario.sides[sides[adversary_side]].team == scenario.sides[sides[hero_side]].team != -1
    ):
        r.problem("adversary_side", "the heroes and the adversaries must be on different teams")
    hero_order = tuple(r.get_strs("hero_order", []))
    hero_ko = r.get_str("hero_ko", "stun", choices=HERO_KO)
    stun_tracking = r.get_int("stun_tracking", 1, lo=0, hi=99)
    r.get_str("campaign", "-")
    r.get_int("chapter", 1, lo=1, hi=99)
    if troupes is not None and not r.problems:
        adv = troupes[sides[adversary_side]]
        names = {e.profile.name for e in adv.models}
        for i, a in enumerate(abilities):
            if a.model not in names:
                r.problem(
                    f"adversary_abilities[{i}]", f"the adversaries' troupe `{adv.name}` has no `{a.model}`"
                )
        for i, o in enumerate(objectives):
            if o.kind == "defeat" and o.target not in names:
                r.problem(f"objectives[{i}]", f"the adversaries' troupe `{adv.name}` has no `{o.target}`")
    r.done()
    return PursuitConfig(
        start,
        length,
        per_turn,
        extra_at,
        tuple(deck),
        tuple(abilities),
        adversary_side,
        tuple(objectives),
        reward,
        hero_side,
        hero_order,
        hero_ko,
        stun_tracking,
    )


class PursuitRules(ScenarioSpecials):
    """Victory `pursuit` (R-X3). See the module docstring for the order of the special rules."""

    def status(self) -> str:
        st = self.st
        parts = [f"Tracking {st['tracking']}/{self.cfg.tracking_length}"]
        o = self.current_objective()
        done = int(st["objective"])
        total = len(self.cfg.objectives)
        if o is not None:
            parts.append(f"objective {done + 1}/{total}: {o.title} ({o.describe()})")
        elif done >= total:
            parts.append("all objectives complete: defeat every adversary")
        if st.get("active"):
            parts.append(f"active hero {self.game.model(st['active']).name}")
        return " · ".join(parts)

    def hints(self, player: int) -> tuple[dict[str, tuple[float, float]], set[str]]:
        """Heroes head for the current objective; everyone else hunts the heroes."""
        import shapely

        g = self.game
        mine = [m for m in g.player_models(player) if m.active]
        if g.state.players[player].team != self.hero_team:
            heroes = {m.id for m in g.state.models if m.active and g.team(m) == self.hero_team}
            return {}, heroes
        o = self.current_objective()
        if o is None:
            return {}, set()
        zone = next((z for z in g.scenario.scoring.zones if z.name == o.target), None)
        if zone is not None:
            p = shapely.Polygon(zone.polygon).representative_point()
            return {m.id: (p.x, p.y) for m in mine}, set()
        target = next((m for m in g.state.models if m.active and m.profile.name == o.target), None)
        if target is None:
            return {}, set()
        x, y = (float(v) for v in g.state.xy[target.index])
        return {m.id: (x, y) for m in mine}, {target.id}

    def read(self, reader: SpecialReader) -> None:
        g = self.game
        try:
            self.cfg = parse_config(g.scenario, g.troupes)
        except DataError as exc:
            reader.problems.extend(exc.problems)
            return
        self.hero_team = g.state.players[side_index(g, self.cfg.hero_side, reader, "hero_side")].team
        self.adversary_team = g.state.players[
            side_index(g, self.cfg.adversary_side, reader, "adversary_side")
        ].team
        g.state.extra.setdefault(
            KEY,
            {
                "tracking": self.cfg.tracking_start,
                "deck": None,
                "discard": [],
                "objective": 0,
                "revealed": 0,
                "hold": 0,
                "completed": [],
                "active": None,
                "rotation": 0,
                "stunned": [],
                "outcome": "",
                "why": "",
            },
        )

    # ------------------------------------------------------------- queries
    @property
    def st(self) -> dict[str, Any]:
        return self.game.state.extra[KEY]

    @property
    def tracking(self) -> int:
        return int(self.st["tracking"])

    def heroes(self) -> list[ModelState]:
        """Hero models on the table, in `hero_order` then model order."""
        g = self.game
        ms = [m for m in g.state.models if g.team(m) == self.hero_team and m.active]
        order = {name: i for i, name in enumerate(self.cfg.hero_order)}
        return sorted(ms, key=lambda m: (order.get(m.profile.name, len(order)), m.index))

    def adversaries(self) -> list[ModelState]:
        g = self.game
        return [m for m in g.state.models if g.team(m) == self.adversary_team]

    def is_hero(self, m: ModelState) -> bool:
        return self.game.team(m) == self.hero_team

    def active_hero(self) -> ModelState | None:
        mid = self.st["active"]
        if mid is None:
            return None
        m = self.game.model(mid)
        return m if m.active else None

    def current_objective(self) -> Objective | None:
        i = int(self.st["objective"])
        return self.cfg.objectives[i] if i < len(self.cfg.objectives) and self.st["revealed"] > i else None

    def all_objectives_done(self) -> bool:
        return int(self.st["objective"]) >= len(self.cfg.objectives)

    def adversaries_defeated(self) -> bool:
        return not any(m.active for m in self.adversaries())

    # ------------------------------------------------------------- hooks
    def on_step(self, step: str) -> None:
        super().on_step(step)
        g = self.game
        if g.over:
            return
        if step == "deploy":
            g.emit("tracking", f"The Pursuit begins: Tracking {self.tracking} of {self.cfg.tracking_length}")
        elif step == "ap_roll":
            self._start_turn()
        elif step == "scoring":
            self._score_objectives()
        elif step == "turn_end":
            self._recover()
        self._finish_if_decided()

    def on_wound(self, target: ModelState, hp_lost: int, by: ModelState | None) -> None:
        if self.game.over:
            return
        if self.is_hero(target) and target.hp == 0 and not target.ko and self.cfg.hero_ko == "stun":
            self._stun(target, f"{by.name}'s attack" if by is not None else "an attack")
            self._finish_if_decided()

    def stuns(self, target: ModelState) -> bool:
        return self.cfg.hero_ko == "stun" and self.is_hero(target)

    def absorbs_hit(self, target: ModelState) -> bool:
        if target.id in self.st["stunned"]:
            self.game.emit(
                "stunned", f"{target.name} is stunned: the hit costs no Health this turn", (target.id,)
            )
            return True
        return False

    def ends_when_one_side_left(self) -> bool:
        return False  # adversaries can be reinforced, and the objectives must still be completed

    def check_end(self) -> str:
        st = self.st
        if not st["outcome"] and not self.heroes():
            self._decide("lost", "every hero is KO'd")
        return str(st["why"]) if st["outcome"] else ""

    def winner(self) -> tuple[int | None, str]:
        st = self.st
        if st["outcome"] == "won":
            return self.hero_team, str(st["why"])
        if st["outcome"] == "lost":
            return self.adversary_team, str(st["why"])
        left = len(self.cfg.objectives) - int(st["objective"])
        foes = sum(1 for m in self.adversaries() if m.active)
        return self.adversary_team, (
            f"the heroes ran out of time ({left} objective(s) left, {foes} adversar"
            f"{'y' if foes == 1 else 'ies'} standing)"
        )

    # ------------------------------------------------------------- the turn
    def _decide(self, outcome: str, why: str) -> None:
        if not self.st["outcome"]:
            self.st["outcome"], self.st["why"] = outcome, why

    def _finish_if_decided(self) -> None:
        if self.st["outcome"] and not self.game.over:
            self.game.finish(str(self.st["why"]))

    def _start_turn(self) -> None:
        g, st = self.game, self.st
        i = int(st["objective"])
        if i < len(self.cfg.objectives) and st["revealed"] <= i:
            st["revealed"] = i + 1
            o = self.cfg.objectives[i]
            g.emit(
                "objective",
                f"Objective {i + 1} of {len(self.cfg.objectives)} revealed: {o.title} ({o.describe()})",
                objective=o.name,
            )
        hero = self._next_hero()
        cards = self.cfg.events_per_turn + sum(1 for t in self.cfg.events_extra_at if self.tracking >= t)
        g.emit(
            "active_hero",
            f"Turn {g.state.turn}: the active hero is {hero.name if hero else 'nobody'}; "
            f"Tracking {self.tracking} of {self.cfg.tracking_length}: {cards} Fire Nation card(s)",
            (hero.id,) if hero else (),
        )
        for _ in range(cards):
            if st["outcome"] or not self.cfg.deck:
                break
            card = self._draw()
            g.emit(
                "event_card",
                f"Fire Nation card: {card.title} ({card.effect} {card.amount})",
                card=card.name,
                effect=card.effect,
                amount=card.amount,
            )
            self.apply_effect(card.effect, card.amount, card.title)
        for a in self.cfg.abilities:
            if st["outcome"]:
                break
            if a.trigger == "each_turn":
                self._adversary_ability(a)

    def _next_hero(self) -> ModelState | None:
        """The next hero in rotation, skipping heroes who are not on the table."""
        st = self.st
        heroes = self.heroes()
        if not heroes:
            st["active"] = None
            return None
        order = [
            *self.cfg.hero_order,
            *(m.profile.name for m in heroes if m.profile.name not in self.cfg.hero_order),
        ]
        n = len(order)
        for k in range(n):
            j = (int(st["rotation"]) + k) % n
            found = [m for m in heroes if m.profile.name == order[j]]
            if found:
                st["rotation"] = (j + 1) % n
                st["active"] = found[0].id
                return found[0]
        st["active"] = heroes[0].id
        return heroes[0]

    def _draw(self) -> Card:
        st = self.st
        if not st["deck"]:
            pile = st["discard"] if st["deck"] is not None else list(range(len(self.cfg.deck)))
            st["deck"] = self._shuffle(list(pile))
            st["discard"] = []
            self.game.emit("shuffle", f"The Fire Nation deck is shuffled ({len(st['deck'])} cards)")
        idx = int(st["deck"].pop(0))
        st["discard"].append(idx)
        return self.cfg.deck[idx]

    def _shuffle(self, cards: list[int]) -> list[int]:
        """Fisher-Yates with the game's dice, so the order is seeded, logged and replayed."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.game.dice.roll(i + 1, "shuffle the Fire Nation deck") - 1
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def _adversary_ability(self, a: AdversaryAbility) -> None:
        g = self.game
        ms = [m for m in self.adversaries() if m.profile.name == a.model and m.active]
        if not ms:
            return
        g.emit(
            "adversary_ability",
            f"{ms[0].name}'s ability ({a.trigger}): {a.effect} {a.amount}",
            (ms[0].id,),
            ability=f"{a.model}:{a.trigger}",
        )
        self.apply_effect(a.effect, a.amount, ms[0].name, triggered=a.trigger == "on_tracking")

    def apply_effect(self, effect: str, amount: int, source: str, *, triggered: bool = False) -> None:
        """Resolve one card or ability effect; `triggered`: caused by an `on_tracking` ability."""
        g = self.game
        if effect == "tracking":
            self.add_tracking(amount, source, trigger=not triggered)
        elif effect == "hurt_active":
            hero = self.active_hero()
            if hero is not None:
                self.lose_hp(hero, amount, source)
        elif effect == "hurt_all":
            for hero in self.heroes():
                self.lose_hp(hero, amount, source)
        elif effect == "reinforce":
            self._reinforce(amount, source)
        elif effect == "drain_ap":
            for hero in self.heroes():
                hero.ap = max(0, hero.ap - amount)
            g.emit(
                "drain_ap",
                f"{source}: every hero has {amount} fewer AP this turn",
                tuple(h.id for h in self.heroes()),
            )
        else:
            g.emit("calm", f"{source}: nothing happens")

    def add_tracking(self, amount: int, source: str, *, trigger: bool = True) -> None:
        """Move the ship token; at the end of the track the heroes lose. Adding Tracking triggers the
        adversaries' `on_tracking` abilities once (unless this addition was itself triggered by one)."""
        g, st = self.game, self.st
        if amount == 0 or st["outcome"]:
            return
        before = self.tracking
        st["tracking"] = max(0, before + amount)
        verb = "adds" if amount > 0 else "removes"
        g.emit(
            "tracking",
            f"{source} {verb} {abs(amount)} Tracking: {before} -> {self.tracking} of "
            f"{self.cfg.tracking_length}",
            tracking=self.tracking,
        )
        if self.tracking >= self.cfg.tracking_length:
            self._decide(
                "lost", f"Tracking reached {self.cfg.tracking_length}: the Fire Nation has caught the Avatar"
            )
            return
        if amount > 0 and trigger:
            for a in self.cfg.abilities:
                if a.trigger == "on_tracking" and not st["outcome"]:
                    self._adversary_ability(a)

    def lose_hp(self, hero: ModelState, amount: int, source: str) -> None:
        """A card or ability takes HP from a hero, no save; at 0 the hero is stunned (or KO'd)."""
        g = self.game
        if amount <= 0 or not hero.active:
            return
        if hero.id in self.st["stunned"]:
            g.emit(
                "stunned", f"{hero.name} is stunned and cannot lose Health this turn ({source})", (hero.id,)
            )
            return
        before = hero.hp
        hero.hp = max(0, hero.hp - amount)
        hero.lost_hp_turn = True
        g.emit(
            "hurt", f"{source}: {hero.name} loses {before - hero.hp} HP, no save; {hero.hp} left", (hero.id,)
        )
        if hero.hp == 0:
            if self.cfg.hero_ko == "stun":
                self._stun(hero, source)
            else:
                hero.ko = True
                hero.ko_turn = g.state.turn
                g.moved()
                g.emit("ko", f"{hero.name} is KO'd", (hero.id,))

    def _stun(self, hero: ModelState, source: str) -> None:
        """Stunned instead of KO'd: no AP left, held at 1 HP (it can neither lose nor gain Health until it
        recovers at the end of the turn), and the Fire Nation closes in (Tracking + `stun_tracking`)."""
        if hero.id in self.st["stunned"]:
            return
        self.st["stunned"].append(hero.id)
        hero.ap = 0
        hero.hp = 1
        self.game.emit(
            "stun",
            f"{hero.name} is stunned by {source}: loses its remaining AP and recovers at the end of the turn",
            (hero.id,),
        )
        self.add_tracking(self.cfg.stun_tracking, f"{hero.name} stunned")

    def _recover(self) -> None:
        g = self.game
        for mid in self.st["stunned"]:
            m = g.model(mid)
            m.hp = m.profile.hp
            g.emit("recover", f"{m.name} recovers from the stun: back to {m.hp} HP", (m.id,))
        self.st["stunned"] = []

    def _reinforce(self, amount: int, source: str) -> None:
        """Up to `amount` KO'd adversaries that are not unique characters (soldiers) return in their zone."""
        from skirmish.engine.deploy import free_spot

        g = self.game
        back: list[ModelState] = []
        for m in self.adversaries():
            if len(back) >= amount:
                break
            if m.active or m.profile.unique:
                continue
            spot = free_spot(g, m)
            if spot is None:
                break
            m.ko = m.removed = False
            m.hp = m.profile.hp
            m.ap = m.profile.ap + g.state.players[m.player].ap_roll
            m.limping = m.taking_cover = m.moved = m.fired = m.charged = False
            g.state.xy[m.index] = spot
            g.state.extra.get("ko_by", {}).pop(m.id, None)
            g.moved()
            back.append(m)
        if back:
            g.emit(
                "reinforce",
                f"{source}: "
                + ", ".join(m.name for m in back)
                + (" returns" if len(back) == 1 else " return")
                + " to the fight",
                tuple(m.id for m in back),
            )
        else:
            g.emit("reinforce", f"{source}: no fallen soldier to return")

    # ------------------------------------------------------------- objectives
    def _in_zone(self, m: ModelState, zone: str) -> bool:
        z = next(z for z in self.game.scenario.scoring.zones if z.name == zone)
        return bool(shapely.contains_xy(shapely.Polygon(z.polygon), *self.game.state.xy[m.index]))

    def _score_objectives(self) -> None:
        g, st = self.game, self.st
        o = self.current_objective()
        if o is not None:
            done = False
            if o.kind == "reach":
                done = any(self._in_zone(h, o.target) for h in self.heroes())
            elif o.kind == "hold":
                held = any(self._in_zone(h, o.target) for h in self.heroes()) and not any(
                    self._in_zone(a, o.target) for a in self.adversaries() if a.active
                )
                st["hold"] = int(st["hold"]) + 1 if held else 0
                g.emit(
                    "objective",
                    f"{o.title}: {o.target} "
                    + (f"held {st['hold']} of {o.amount} turn(s)" if held else "not held"),
                    objective=o.name,
                )
                done = st["hold"] >= o.amount
            else:
                done = not any(m.active for m in self.adversaries() if m.profile.name == o.target)
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
        if self.all_objectives_done() and self.adversaries_defeated():
            self._decide("won", "every objective is complete and every adversary is defeated")
