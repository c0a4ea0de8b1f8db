"""The Pursuit (R-X3, from Aang's Destiny): co-operative heroes against adversaries the game drives.

A Tracking path advances with Fire Nation event cards drawn each turn (their number set by the
Tracking position at the start of the turn) and with the adversaries' abilities; the heroes lose
at once when it reaches its end — the path is the game's clock. Objectives are revealed one at a
time in story order. As in the source's Box 1, **one adversary is active at a time**
(`active_adversaries`): the others wait face down in a stack shuffled with the game's dice; an
adversary that falls gives its reward at once and is replaced from the stack at the end of the
turn. The heroes win when every objective is complete and every adversary is defeated. Heroes
brought to 0 HP are stunned, not KO'd (`hero_ko = "stun"`). The scenario's turn limit is only a
safety cap: reaching it is a draw, reported as such.

Turn order of the special rules (hooks called by the phase machine):

- deployment: the adversary stack is shuffled and the first adversary revealed; the others leave
  the table (they wait in the stack);
- start of each turn (the AP roll step, so AP exist to be drained): reveal the current objective,
  pick the active hero, draw and resolve the event cards, then the active adversaries' `each_turn`
  abilities;
- whenever an effect adds Tracking (or makes heroes discard): the active adversaries'
  `on_tracking` (`on_discard`) abilities, once per effect (an effect they cause does not trigger
  them again, so they cannot loop);
- an adversary KO'd: its reward at once;
- scoring step (every model has moved): objective progress, heroes laying low, then victory;
- turn end: stunned heroes recover all their HP, fallen adversaries are replaced from the stack.

The decks are shuffled with the game's own dice (a Fisher-Yates shuffle whose rolls are logged and
replayed like any other die). All changing state lives in `game.state.extra["pursuit"]`; a test may
set its `deck` (card indices, top first) or its `stack` (model ids, top first) to force them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import shapely

from skirmish.data.errors import DataError
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine.core.state import ModelState
from skirmish.engine.special_rules import ScenarioSpecials, SpecialReader, side_index

EFFECTS = (
    "tracking",
    "hurt_active",
    "hurt_all",
    "reinforce",
    "drain_ap",
    "discard_active",
    "calm",
    "heal_active",
    "heal_all",
)
TRIGGERS = ("on_tracking", "each_turn", "on_discard")
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
        "adversary_stack",
        "active_adversaries",
        "adversary_abilities",
        "adversary_rewards",
        "adversary_side",
        "objectives",
        "objective_reward_tracking",
        "lay_low_tracking",
        "hero_side",
        "hero_order",
        "hero_ko",
        "stun_tracking",
        "campaign",
        "chapter",
    }
)
"""Every `special` key the Pursuit reads (a campaign chapter may override any of them)."""

TRIGGER_WORDS = {
    "on_tracking": "Each time an effect adds any number of Tracking",
    "each_turn": "At the start of each turn",
    "on_discard": "Each time an effect makes a hero discard",
}


def effect_words(effect: str, amount: int) -> str:
    """An effect as a card says it, for players (never the `hurt_active 2` id)."""
    n = amount
    s = "" if n == 1 else "s"
    if effect == "tracking":
        return f"add {n} Tracking" if n >= 0 else f"remove {-n} Tracking"
    return {
        "hurt_active": f"the active hero loses {n} Health",
        "hurt_all": f"each hero loses {n} Health",
        "reinforce": f"{n} defeated soldier{s} go{'es' if n == 1 else ''} back under the adversary stack",
        "drain_ap": f"each hero discards {n} card{s} ({n} AP fewer this turn)",
        "discard_active": f"the active hero discards {n} card{s} ({n} AP fewer this turn)",
        "calm": "nothing happens",
        "heal_active": f"the active hero gains {n} Health",
        "heal_all": f"each hero gains {n} Health",
    }[effect]


def title_of(name: str) -> str:
    return name.replace("_", " ").title()


@dataclass(frozen=True)
class Card:
    """A Fire Nation event card: `name:effect:amount`."""

    name: str
    effect: str
    amount: int

    @property
    def title(self) -> str:
        return title_of(self.name)

    def words(self) -> str:
        return f"{self.title}: {effect_words(self.effect, self.amount)}"


@dataclass(frozen=True)
class AdversaryAbility:
    """`model:trigger:effect:amount`: the adversary `model` (a profile name) does `effect` on `trigger`
    while it is active on the table."""

    model: str
    trigger: str
    effect: str
    amount: int

    def words(self) -> str:
        return f"{TRIGGER_WORDS[self.trigger]}, {effect_words(self.effect, self.amount)}."


@dataclass(frozen=True)
class AdversaryReward:
    """`model:effect:amount`: gained at once when the adversary `model` is defeated."""

    model: str
    effect: str
    amount: int

    def words(self) -> str:
        return effect_words(self.effect, self.amount).capitalize() + "."


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
        place = title_of(self.target)
        if self.kind == "reach":
            return f"a hero ends a turn in {place}"
        if self.kind == "hold":
            return f"heroes hold {place} with no adversary in it for {self.amount} turn(s) in a row"
        return f"defeat {place}"


@dataclass(frozen=True)
class PursuitConfig:
    tracking_start: int
    tracking_length: int
    events_per_turn: int
    events_extra_at: tuple[int, ...]
    deck: tuple[Card, ...]
    stack: tuple[str, ...]
    active_adversaries: int
    abilities: tuple[AdversaryAbility, ...]
    rewards: tuple[AdversaryReward, ...]
    adversary_side: str
    objectives: tuple[Objective, ...]
    objective_reward_tracking: int
    lay_low_tracking: int
    hero_side: str
    hero_order: tuple[str, ...]
    hero_ko: str
    stun_tracking: int

    def cards_at(self, tracking: int) -> int:
        """Fire Nation cards revealed when a turn starts with the ship token at `tracking`."""
        return self.events_per_turn + sum(1 for t in self.events_extra_at if tracking >= t)


def _amount(reader: SpecialReader, key: str, text: str, lo: int = 0) -> int:
    try:
        v = int(text)
    except ValueError:
        reader.problem(key, f"amount `{text}` is not a whole number")
        return lo
    if v < lo or v > 99:
        reader.problem(key, f"amount {v} must be from {lo} to 99")
    return v


def _split(reader: SpecialReader, key: str, text: str, n: int, shape: str) -> list[str] | None:
    parts = text.split(":")
    if len(parts) != n or not all(parts):
        reader.problem(key, f"`{text}`: write {shape}")
        return None
    return parts


def _known(reader: SpecialReader, key: str, text: str, what: str, value: str, known: tuple[str, ...]) -> bool:
    if value not in known:
        reader.problem(key, f"`{text}`: unknown {what} `{value}` (known: {', '.join(known)})")
        return False
    return True


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
        parts = _split(r, key, text, 3, "name:effect:amount")
        if parts and _known(r, key, text, "effect", parts[1], EFFECTS):
            deck.append(Card(parts[0], parts[1], _amount(r, key, parts[2])))
    if not deck and r.has("event_deck"):
        r.problem("event_deck", "the deck needs at least one card")
    stack = tuple(r.get_strs("adversary_stack", []))
    active_n = r.get_int("active_adversaries", 1, lo=1, hi=20)
    abilities: list[AdversaryAbility] = []
    for i, text in enumerate(r.get_strs("adversary_abilities", [])):
        key = f"adversary_abilities[{i}]"
        parts = _split(r, key, text, 4, "model:trigger:effect:amount")
        if (
            parts
            and _known(r, key, text, "trigger", parts[1], TRIGGERS)
            and _known(r, key, text, "effect", parts[2], EFFECTS)
        ):
            abilities.append(AdversaryAbility(parts[0], parts[1], parts[2], _amount(r, key, parts[3])))
    rewards: list[AdversaryReward] = []
    for i, text in enumerate(r.get_strs("adversary_rewards", [])):
        key = f"adversary_rewards[{i}]"
        parts = _split(r, key, text, 3, "model:effect:amount")
        if parts and _known(r, key, text, "effect", parts[1], EFFECTS):
            rewards.append(AdversaryReward(parts[0], parts[1], _amount(r, key, parts[2], lo=-99)))
    zones = {z.name for z in scenario.scoring.zones}
    objectives: list[Objective] = []
    for i, text in enumerate(r.get_strs("objectives")):
        key = f"objectives[{i}]"
        parts = text.split(":")
        if len(parts) not in (3, 4) or not parts[0] or not parts[2]:
            r.problem(key, f"`{text}`: write name:kind:target[:amount]")
            continue
        kind = parts[1]
        if not _known(r, key, text, "kind", kind, KINDS):
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
    lay_low = r.get_int("lay_low_tracking", 0, lo=-5, hi=0)
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
        counts = {e.profile.name: e.count for e in adv.models}
        named: list[tuple[str, list[str]]] = [
            ("adversary_abilities", [a.model for a in abilities]),
            ("adversary_rewards", [w.model for w in rewards]),
            ("adversary_stack", list(stack)),
        ]
        for key, models in named:
            for i, model in enumerate(models):
                if model not in counts:
                    r.problem(f"{key}[{i}]", f"the adversaries' troupe `{adv.name}` has no `{model}`")
        for name in sorted(set(stack)):
            if name in counts and stack.count(name) > counts[name]:
                r.problem(
                    "adversary_stack",
                    f"`{name}` is named {stack.count(name)} times; `{adv.name}` has {counts[name]}",
                )
        for i, o in enumerate(objectives):
            if o.kind == "defeat" and o.target not in counts:
                r.problem(f"objectives[{i}]", f"the adversaries' troupe `{adv.name}` has no `{o.target}`")
            elif o.kind == "defeat" and stack and o.target not in stack:
                r.problem(f"objectives[{i}]", f"`{o.target}` is not in the adversary stack")
    r.done()
    return PursuitConfig(
        start,
        length,
        per_turn,
        extra_at,
        tuple(deck),
        stack,
        active_n,
        tuple(abilities),
        tuple(rewards),
        adversary_side,
        tuple(objectives),
        reward,
        lay_low,
        hero_side,
        hero_order,
        hero_ko,
        stun_tracking,
    )


class PursuitRules(ScenarioSpecials):
    """Victory `pursuit` (R-X3). See the module docstring for the order of the special rules."""

    def status(self) -> str:
        return " · ".join(self.status_lines())

    def status_lines(self) -> list[str]:
        """The Pursuit in words, one line each: Tracking, active hero, adversary, objective, cards."""
        st, cfg = self.st, self.cfg
        n = cfg.cards_at(self.tracking)
        lines = [
            f"Tracking {self.tracking} of {cfg.tracking_length} (the Fire Nation catches Aang at "
            f"{cfg.tracking_length}); next turn {n} Fire Nation card{'s' if n != 1 else ''}"
        ]
        hero = self.active_hero()
        if hero is not None:
            lines.append(f"Active hero: {hero.name}")
        left = len(st["stack"])
        for adv in self.active_adversaries():
            text = f"Adversary: {adv.name} ({adv.hp} of {adv.profile.hp} HP)"
            words = [a.words() for a in cfg.abilities if a.model == adv.profile.name]
            text += " — " + (" ".join(words) if words else "no ability")
            lines.append(text)
        lines[-1] += f"; {left} more in the stack" if left else "; the last adversary"
        o = self.current_objective()
        done, total = int(st["objective"]), len(cfg.objectives)
        if o is not None:
            held = f" — held {st['hold']} of {o.amount}" if o.kind == "hold" else ""
            lines.append(f"Objective {done + 1} of {total}: {o.title} ({o.describe()}){held}")
        elif done >= total:
            lines.append("Every objective complete: defeat every adversary")
        if st["last_cards"]:
            lines.append("Fire Nation cards: " + "; ".join(st["last_cards"]))
        return lines

    def hints(self, player: int) -> tuple[dict[str, tuple[float, float]], set[str]]:
        """Heroes head for the current objective; the adversaries hunt the heroes, the Avatar first."""
        g = self.game
        mine = [m for m in g.player_models(player) if m.active]
        if g.state.players[player].team != self.hero_team:
            heroes = {m.id for m in g.state.models if m.active and g.team(m) == self.hero_team}
            return {}, heroes
        goal = self.objective_point()
        targets = {m.id for m in self.active_adversaries()}
        if goal is None:
            return {}, targets
        return {m.id: goal for m in mine}, targets

    def objective_point(self) -> tuple[float, float] | None:
        """Where the current objective is (a zone's inner point), or None."""
        o = self.current_objective()
        if o is None or o.kind == "defeat":
            return None
        zone = next(z for z in self.game.scenario.scoring.zones if z.name == o.target)
        p = shapely.Polygon(zone.polygon).representative_point()
        return (p.x, p.y)

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
                "stack": [],
                "stacked": False,
                "defeated": [],
                "objective": 0,
                "revealed": 0,
                "hold": 0,
                "completed": [],
                "active": None,
                "rotation": 0,
                "stunned": [],
                "laid_low": [],
                "last_cards": [],
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

    def active_adversaries(self) -> list[ModelState]:
        """The adversaries on the table now (in Box 1, one at a time)."""
        return [m for m in self.adversaries() if m.active]

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
        return not self.st["stack"] and not self.active_adversaries()

    # ------------------------------------------------------------- hooks
    def on_step(self, step: str) -> None:
        super().on_step(step)
        g = self.game
        if g.over:
            return
        if step == "deploy":
            self._build_stack()
            g.emit("tracking", f"The Pursuit begins: Tracking {self.tracking} of {self.cfg.tracking_length}")
        elif step == "ap_roll":
            self._start_turn()
        elif step == "scoring":
            self._score_objectives()
            self._lay_low()
            self._check_victory()
        elif step == "turn_end":
            self._recover()
            self._replace_fallen()
        self._finish_if_decided()

    def on_wound(self, target: ModelState, hp_lost: int, by: ModelState | None) -> None:
        if self.game.over:
            return
        if self.is_hero(target) and target.hp == 0 and not target.ko and self.cfg.hero_ko == "stun":
            self._stun(target, f"{by.name}'s attack" if by is not None else "an attack")
        elif not self.is_hero(target) and target.ko and target.id not in self.st["defeated"]:
            self._defeated(target)
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
        return False  # the stack refills the table, and the objectives must still be completed

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
        foes = len(st["stack"]) + len(self.active_adversaries())
        return None, (
            f"the safety cap of {self.game.scenario.turns} turns was reached: a draw "
            f"({left} objective(s) left, {foes} adversar{'y' if foes == 1 else 'ies'} undefeated, "
            f"Tracking {self.tracking} of {self.cfg.tracking_length})"
        )

    # ------------------------------------------------------------- the adversary stack
    def _build_stack(self) -> None:
        """Shuffle the adversary stack with the game's dice and reveal the first `active_adversaries`;
        every other adversary leaves the table (it waits in the stack, or is not in this box)."""
        st = self.st
        if st["stacked"]:
            return
        st["stacked"] = True
        advs = self.adversaries()
        if not self.cfg.stack:  # no stack: everyone starts on the table
            return
        ids: list[str] = []
        used: set[str] = set()
        for name in self.cfg.stack:
            m = next(x for x in advs if x.profile.name == name and x.id not in used)
            used.add(m.id)
            ids.append(m.id)
        for m in advs:
            m.removed = True
        st["stack"] = self._shuffle(ids, "shuffle the adversary stack")
        self.game.moved()
        self._replace_fallen()

    def _replace_fallen(self) -> None:
        """Fill the table up to `active_adversaries` from the top of the stack (R-X3: a fallen adversary
        is replaced at the end of the turn it falls)."""
        from skirmish.engine.steps.deploy import free_spot

        g, st = self.game, self.st
        while st["stack"] and len(self.active_adversaries()) < self.cfg.active_adversaries:
            m = g.model(st["stack"][0])
            spot = free_spot(g, m)
            if spot is None:
                break
            st["stack"].pop(0)
            m.ko = m.removed = False
            m.hp = m.profile.hp
            m.limping = m.taking_cover = m.moved = m.fired = m.charged = False
            g.state.xy[m.index] = spot
            g.moved()
            words = [a.words() for a in self.cfg.abilities if a.model == m.profile.name]
            g.emit(
                "adversary",
                f"A new adversary is revealed: {m.name} ({m.profile.hp} HP). "
                + (" ".join(words) if words else "It has no ability.")
                + f" {len(st['stack'])} left in the stack.",
                (m.id,),
            )

    def _defeated(self, m: ModelState) -> None:
        """An adversary falls: its reward at once; it is replaced at the end of the turn."""
        g, st = self.game, self.st
        st["defeated"].append(m.id)
        g.emit("adversary", f"{m.name} is defeated", (m.id,))
        for rw in self.cfg.rewards:
            if rw.model == m.profile.name and not st["outcome"]:
                g.emit("reward", f"Reward for defeating {m.name}: {rw.words()}", (m.id,))
                self.apply_effect(rw.effect, rw.amount, f"{m.name}'s reward", triggered=True)

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
        cards = self.cfg.cards_at(self.tracking)  # fixed by Tracking at the start of the turn
        g.emit(
            "active_hero",
            f"Turn {g.state.turn}: the active hero is {hero.name if hero else 'nobody'}; "
            f"Tracking {self.tracking} of {self.cfg.tracking_length}: {cards} Fire Nation card(s)",
            (hero.id,) if hero else (),
        )
        st["last_cards"] = []
        st["laid_low"] = []
        for _ in range(cards):
            if st["outcome"] or not self.cfg.deck:
                break
            card = self._draw()
            st["last_cards"].append(card.words())
            g.emit("event_card", f"Fire Nation card: {card.words()}", card=card.name, effect=card.effect)
            self.apply_effect(card.effect, card.amount, card.title)
        for a in self.cfg.abilities:
            if st["outcome"]:
                break
            if a.trigger == "each_turn":
                self._adversary_ability(a)

    def _next_hero(self) -> ModelState | None:
        """The next hero in rotation (clockwise, as the source's turns), skipping absent heroes."""
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
        st["active"] = heroes[0].id  # pragma: no cover - every hero's name is in `order`
        return heroes[0]

    def _draw(self) -> Card:
        st = self.st
        if not st["deck"]:
            pile = st["discard"] if st["deck"] is not None else list(range(len(self.cfg.deck)))
            st["deck"] = self._shuffle(list(pile), "shuffle the Fire Nation deck")
            st["discard"] = []
            self.game.emit("shuffle", f"The Fire Nation deck is shuffled ({len(st['deck'])} cards)")
        idx = int(st["deck"].pop(0))
        st["discard"].append(idx)
        return self.cfg.deck[idx]

    def _shuffle(self, cards: list[Any], why: str) -> list[Any]:
        """Fisher-Yates with the game's dice, so the order is seeded, logged and replayed."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.game.dice.roll(i + 1, why) - 1
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def _adversary_ability(self, a: AdversaryAbility) -> None:
        g = self.game
        ms = [m for m in self.active_adversaries() if m.profile.name == a.model]
        if not ms:
            return
        g.emit(
            "adversary_ability",
            f"{ms[0].name}'s ability: {a.words()}",
            (ms[0].id,),
            ability=f"{a.model}:{a.trigger}",
        )
        self.apply_effect(a.effect, a.amount, ms[0].name, triggered=a.trigger != "each_turn")

    def _triggers(self, trigger: str) -> None:
        for a in self.cfg.abilities:
            if a.trigger == trigger and not self.st["outcome"]:
                self._adversary_ability(a)

    def apply_effect(self, effect: str, amount: int, source: str, *, triggered: bool = False) -> None:
        """Resolve one card, ability or reward effect; `triggered`: caused by a triggered ability (so it
        does not trigger abilities again)."""
        g = self.game
        if effect == "tracking":
            self.add_tracking(amount, source, trigger=not triggered)
        elif effect in ("hurt_active", "heal_active"):
            hero = self.active_hero()
            if hero is not None:
                (self.lose_hp if effect == "hurt_active" else self.gain_hp)(hero, amount, source)
        elif effect in ("hurt_all", "heal_all"):
            for hero in self.heroes():
                (self.lose_hp if effect == "hurt_all" else self.gain_hp)(hero, amount, source)
        elif effect == "reinforce":
            self._reinforce(amount, source)
        elif effect in ("drain_ap", "discard_active"):
            hero = self.active_hero()
            who = self.heroes() if effect == "drain_ap" else ([hero] if hero is not None else [])
            for h in who:
                h.ap = max(0, h.ap - amount)
            if who:
                g.emit(
                    "drain_ap",
                    f"{source}: {'every hero' if effect == 'drain_ap' else who[0].name} discards "
                    f"({amount} AP fewer this turn)",
                    tuple(h.id for h in who),
                )
                if not triggered:
                    self._triggers("on_discard")
        else:
            g.emit("calm", f"{source}: nothing happens")

    def add_tracking(self, amount: int, source: str, *, trigger: bool = True) -> None:
        """Move the ship token; at the end of the path the heroes lose. Adding Tracking triggers the
        active adversaries' `on_tracking` abilities once (unless this addition was itself triggered)."""
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
            self._triggers("on_tracking")

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

    def gain_hp(self, hero: ModelState, amount: int, source: str) -> None:
        """A reward heals a hero up to its Health (a stunned hero cannot gain Health this turn)."""
        if amount <= 0 or not hero.active or hero.id in self.st["stunned"]:
            return
        before = hero.hp
        hero.hp = min(hero.profile.hp, hero.hp + amount)
        if hero.hp > before:
            self.game.emit("heal", f"{source}: {hero.name} gains {hero.hp - before} HP", (hero.id,))

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
        """Up to `amount` defeated adversaries that are not unique characters (soldiers) go back to the
        bottom of the adversary stack (not used in Box 1)."""
        g, st = self.game, self.st
        back: list[ModelState] = []
        for mid in list(st["defeated"]):
            m = g.model(mid)
            if len(back) >= amount:
                break
            if m.profile.unique or m.active:
                continue
            st["defeated"].remove(mid)
            st["stack"].append(mid)
            back.append(m)
        g.emit(
            "reinforce",
            f"{source}: "
            + (", ".join(m.name for m in back) + " back in the adversary stack" if back else "nobody"),
            tuple(m.id for m in back),
        )

    # ------------------------------------------------------------- objectives, relief, victory
    def _in_zone(self, m: ModelState, zone: str) -> bool:
        z = next(z for z in self.game.scenario.scoring.zones if z.name == zone)
        return bool(shapely.contains_xy(shapely.Polygon(z.polygon), *self.game.state.xy[m.index]))

    def _score_objectives(self) -> None:
        g, st = self.game, self.st
        o = self.current_objective()
        if o is None:
            return
        done = False
        if o.kind == "reach":
            done = any(self._in_zone(h, o.target) for h in self.heroes())
        elif o.kind == "hold":
            held = any(self._in_zone(h, o.target) for h in self.heroes()) and not any(
                self._in_zone(a, o.target) for a in self.active_adversaries()
            )
            st["hold"] = int(st["hold"]) + 1 if held else 0
            g.emit(
                "objective",
                f"{o.title}: {title_of(o.target)} "
                + (f"held {st['hold']} of {o.amount} turn(s)" if held else "not held"),
                objective=o.name,
            )
            done = st["hold"] >= o.amount
        else:
            done = any(g.model(mid).profile.name == o.target for mid in st["defeated"])
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

    def can_lay_low(self, m: ModelState) -> bool:
        """A hero lays low when it spends the turn Taking Cover in medium or dense cover without
        shooting, charging or fighting, with no adversary within 12": the Fire Nation loses the trail."""
        g = self.game
        if not (self.cfg.lay_low_tracking and self.is_hero(m) and m.active and m.taking_cover):
            return False
        if m.fired or m.charged or m.fought or g.cover(m) < 2:
            return False
        return all(g.distance(m, a) > 12.0 for a in self.active_adversaries())

    def _lay_low(self) -> None:
        """Tracking relief at a real cost (the hero gives up its turn): at most once a turn."""
        if self.st["outcome"] or not self.cfg.lay_low_tracking or self.tracking <= 0:
            return
        for h in self.heroes():
            if self.can_lay_low(h):
                self.st["laid_low"].append(h.id)
                self.add_tracking(self.cfg.lay_low_tracking, f"{h.name} lays low in cover")
                return

    def _check_victory(self) -> None:
        if self.all_objectives_done() and self.adversaries_defeated():
            self._decide("won", "every objective is complete and every adversary is defeated")
