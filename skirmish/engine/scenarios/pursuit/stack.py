"""The adversary stack, the Fire Nation deck and the start of a turn (R-X3).

One adversary is active at a time (`active_adversaries`): the others wait in a stack shuffled with
the game's dice; a fallen adversary gives its reward at once and is replaced at the end of the
turn. The decks are shuffled by Fisher-Yates with the game's own dice, so every order is seeded,
logged and replayed.
"""

from __future__ import annotations

from typing import Any

from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.placing import free_spot
from skirmish.engine.scenarios.pursuit.clock import PursuitClock
from skirmish.engine.scenarios.pursuit.config import Card


class PursuitStack(PursuitClock):
    """Deal the adversaries and the cards; start each turn (objective, active hero, cards, abilities)."""

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
