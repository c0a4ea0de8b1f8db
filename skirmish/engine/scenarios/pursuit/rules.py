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

from typing import Any

from skirmish.engine.core.flow import Step
from skirmish.engine.core.state import ModelState
from skirmish.engine.scenarios.pursuit.config import KEY
from skirmish.engine.scenarios.pursuit.objectives import PursuitObjectives
from skirmish.engine.scenarios.pursuit.stack import PursuitStack


class PursuitRules(PursuitStack, PursuitObjectives):
    """Victory `pursuit` (R-X3). See the module docstring for the order of the special rules."""

    def status(self) -> str:
        return " · ".join(self.status_lines())

    def observe(self, player: int) -> dict[str, Any]:
        """The Pursuit as a player may know it: the face-down Fire Nation deck and adversary stack
        by their size only (`deck_left`, `stack_left`), since their order, shuffled with the game's
        dice, says which card and which adversary come next; the rest is on the table."""
        extra = dict(self.game.state.extra)
        st = {k: v for k, v in extra[KEY].items() if k not in ("deck", "stack")}
        deck = extra[KEY].get("deck")
        st["deck_left"] = None if deck is None else len(deck)
        st["stack_left"] = len(extra[KEY].get("stack", []))
        extra[KEY] = st
        return extra

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

    # ------------------------------------------------------------- hooks
    def on_step(self, step: str) -> None:
        super().on_step(step)
        g = self.game
        if g.over:
            return
        if step == Step.DEPLOY:
            self._build_stack()
            g.emit("tracking", f"The Pursuit begins: Tracking {self.tracking} of {self.cfg.tracking_length}")
        elif step == Step.AP_ROLL:
            self._start_turn()
        elif step == Step.SCORING:
            self._score_objectives()
            self._lay_low()
            self._check_victory()
        elif step == Step.TURN_END:
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
