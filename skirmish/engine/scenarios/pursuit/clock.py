"""The Pursuit's clock and its effects (R-X3): Tracking moves, heroes lose and gain Health, are
stunned and recover, and the active adversaries' abilities trigger — once per effect, so an effect
they cause does not trigger them again and they cannot loop.
"""

from __future__ import annotations

from skirmish.engine.core.state import ModelState
from skirmish.engine.scenarios.pursuit.base import PursuitBase
from skirmish.engine.scenarios.pursuit.config import AdversaryAbility


class PursuitClock(PursuitBase):
    """Card, ability and reward effects, and the Tracking path that ends the game at its end."""

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
