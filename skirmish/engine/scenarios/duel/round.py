"""The Avatar Duel's round of attacks (R-X1, R-X2): ATTACK calls, defences, the exchange resolved by
`exchange.resolve`, counter-attacks down the chain, attrition, and the round's end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.engine.core.actions import Action, Attack, Decline, Defend
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState, Pending
from skirmish.engine.scenarios.duel import exchange
from skirmish.engine.scenarios.duel.base import DuelBase
from skirmish.engine.scenarios.duel.pieces import SPECIAL_TEXT, technique_words

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


class DuelRound(DuelBase):
    """The round: who may call, `Attack`, `Defend` and `Decline`, and each exchange's outcome."""

    def _begin_round(self, game: Ctx) -> None:
        st = self.st
        st["caller"], st["passes"] = 0, 0
        if self._round_over():
            self._end_round("nobody can attack")
            return
        self._offer_free_call(start=0)

    def _alive_players(self) -> list[int]:
        return [p for p in self.game.state.order if self.avatar(p) is not None]

    def _round_over(self) -> bool:
        if self.st["exhausted"] or len(self.game.teams_on_table()) <= 1:
            return True
        return not any(self.attack_options(m) for p in self._alive_players() if (m := self.avatar(p)))

    def _offer_free_call(self, start: int) -> None:
        """Offer the next free call (after a chain, or a pass) from order index `start` on."""
        g, st = self.game, self.st
        order = g.state.order
        alive = self._alive_players()
        for k in range(len(order)):
            idx = (start + k) % len(order)
            p = order[idx]
            m = self.avatar(p)
            if m is None:
                continue
            if st["passes"] >= len(alive):
                break
            if not self.attack_options(m):
                st["passes"] += 1
                continue
            st["caller"] = idx
            g.state.pending = Pending("duel_call", p, m.id, "", {"counter": False})
            return
        self._end_round("nobody attacks")

    def _end_round(self, why: str) -> None:
        g = self.game
        g.state.pending = None
        for p in g.state.players:
            p.done = True
        if not g.over:
            g.emit("duel", f"The round ends: {why}")

    def _call_actions(self, game: Ctx) -> list[Action]:
        p = game.state.pending
        assert p is not None
        return [*self.attack_options(game.model(p.model)), Decline()]

    def _defend_actions(self, game: Ctx) -> list[Action]:
        p = game.state.pending
        assert p is not None
        m = game.model(p.model)
        return [*(Defend(m.id, t["name"]) for t in self.live(m)), Decline()]

    def _tech(self, m: ModelState, name: str, rule: str = "R-X2") -> dict[str, Any]:
        t = next((t for t in self.techniques(m) if t["name"] == name), None)
        if t is None or not t["pieces"]:
            raise IllegalAction(rule, f"{m.name} has no technique `{name}` standing")
        return t

    def _do_attack(self, game: Ctx, action: Attack) -> None:
        s = game.state
        p = s.pending
        if p is None or p.kind != "duel_call":
            raise IllegalAction("R-X2", "no Avatar may call ATTACK now")
        m = game.model(action.model, rule="R-X2")
        if m.id != p.model:
            raise IllegalAction("R-X2", f"it is {game.model(p.model).name}'s call, not {m.name}'s")
        t = self._tech(m, action.technique)
        if t["attacked"]:
            raise IllegalAction("R-X2", f"technique {t['name']} has already attacked this round")
        if not self.can_attack_with(t):
            raise IllegalAction("R-X2", f"technique {t['name']} has no pointing piece to attack with")
        foe = game.model(action.target, rule="R-X2")
        if not foe.active or not game.enemies(m, foe):
            raise IllegalAction("R-X2", f"{foe.name} is not an Avatar {m.name} can attack")
        if not game.sees(m, foe):
            raise IllegalAction("R-B3", f"{m.name} cannot see {foe.name}")
        dist = game.distance(m, foe)
        if game.options.premeasure and dist > self.attack_range:
            raise IllegalAction(
                "R-X2", f'{foe.name} is {dist:.1f}" away, beyond the {self.attack_range:g}" of an attack'
            )
        counter = bool(p.data.get("counter"))
        s.pending = None
        self.st["passes"] = 0
        t["revealed"], t["attacked"] = True, True
        self._remember(m, t)
        pieces = self.pieces(t)
        verb = "counter-attacks" if counter else "calls ATTACK! on"
        ids = (m.id, foe.id)
        if dist > self.attack_range:
            game.emit(
                "attack",
                f"{m.name} {verb} {foe.name} with technique {t['name']} ({technique_words(pieces)}): "
                f'{dist:.1f}" is beyond the {self.attack_range:g}" of an attack — it falls short',
                ids,
            )
            self._after_exchange(m, foe)
            return
        game.emit(
            "attack",
            f"{m.name} {verb} {foe.name}, revealing technique {t['name']}: {technique_words(pieces)}",
            ids,
        )
        if self.setting.reactions and self.live(foe):
            s.pending = Pending("duel_defend", foe.player, foe.id, m.id, {"technique": t["name"]})
            return
        self._exchange(m, t, foe, None)

    def _do_defend(self, game: Ctx, action: Defend) -> None:
        p = game.state.pending
        if p is None or p.kind != "duel_defend":
            raise IllegalAction("R-X2", "no attack is waiting for a defence")
        foe = game.model(action.model, rule="R-X2")
        if foe.id != p.model:
            raise IllegalAction("R-X2", f"only {game.model(p.model).name} defends now")
        d = self._tech(foe, action.technique)
        m = game.model(p.target)
        t = self._tech(m, str(p.data["technique"]))
        game.state.pending = None
        d["revealed"] = True
        self._remember(foe, d)
        self._exchange(m, t, foe, d)

    def _do_decline(self, game: Ctx, action: Decline) -> None:
        p = game.state.pending
        assert p is not None and p.kind in ("duel_call", "duel_defend")
        m = game.model(p.model)
        game.state.pending = None
        if p.kind == "duel_defend":
            att = game.model(p.target)
            game.emit("defend", f"{m.name} does not defend", (m.id,))
            self._exchange(att, self._tech(att, str(p.data["technique"])), m, None)
            return
        if p.data.get("counter"):
            game.emit("pass", f"{m.name} does not counter-attack", (m.id,))
        else:
            self.st["passes"] += 1
            game.emit("pass", f"{m.name} does not attack", (m.id,))
        self._offer_free_call(self.st["caller"] + 1)

    def _remember(self, m: ModelState, t: dict[str, Any]) -> None:
        """Public history of revealed techniques (as first revealed), which the duel bot learns from."""
        hist = self.st["history"]
        rnd = self.st["round"]
        if not hist or hist[-1]["round"] != rnd:
            hist.append({"round": rnd, "revealed": {}})
        seen = hist[-1]["revealed"].setdefault(m.id, {})
        seen.setdefault(t["name"], list(t["pieces"]))

    def _exchange(self, m: ModelState, t: dict[str, Any], foe: ModelState, d: dict[str, Any] | None) -> None:
        g = self.game
        attack = self.pieces(t)
        defence = self.pieces(d) if d is not None else None
        out = exchange.resolve(
            attack,
            defence,
            self.setting,
            cover=g.cover(foe),
            target_endurance=self.endurance(foe),
            target_native=self.native(foe),
            attacker_endurance=self.endurance(m),
            attacker_native=self.native(m),
        )
        words = exchange.describe(attack, defence, out)
        for special, who in ((out.special_attack, m), (out.special_defence, foe)):
            if special:
                words.insert(0, f"{who.name}'s special {SPECIAL_TEXT[special]}")
        shown = f"technique {d['name']} ({technique_words(defence or ())})" if d is not None else "nothing"
        ids = (m.id, foe.id)
        g.emit(
            "exchange",
            f"{foe.name} defends with {shown}: " + ("; ".join(words) if words else "nothing gets through"),
            ids,
        )
        self.st["exchanges"].append(
            {
                "attacker": m.id,
                "target": foe.id,
                "attack": list(t["pieces"]),
                "attack_name": t["name"],
                "defence": list(d["pieces"]) if d is not None else None,
                "defence_name": d["name"] if d is not None else None,
                "stops": [[x.attack, -1 if x.by is None else x.by, x.how] for x in out.stops],
                "landed": list(out.landed),
                "damage": list(out.damage),
                "reflected_damage": list(out.reflected_damage),
            }
        )
        self._lose(foe, out.damage, m)
        self._lose(m, out.reflected_damage, foe)
        self._attrition(m, t, out.lost_attack)
        if d is not None:
            self._attrition(foe, d, out.lost_defence)
        self._after_exchange(m, foe)

    def _lose(self, who: ModelState, sizes: list[int], by: ModelState) -> None:
        if not sizes:
            return
        g = self.game
        left = self.st["endurance"][who.id]
        for sz in sizes:
            if sz in left:
                left.remove(sz)
        if not left and not who.ko:
            who.ko = True
            who.ko_turn = g.state.turn
            who.ko_step = f"{g.state.turn}:duel"
            g.state.extra.setdefault("ko_by", {})[who.id] = by.player
            g.moved()
            g.emit("ko", f"{who.name} has lost every endurance piece and is out of the duel", (who.id,))
        self.on_wound(who, len(sizes), by)

    def _attrition(self, who: ModelState, t: dict[str, Any], lost: set[int]) -> None:
        pieces = [x for i, x in enumerate(t["pieces"]) if i not in lost]
        if 0 < len(pieces) < 2:
            self.game.emit(
                "attrition",
                f"{who.name}'s technique {t['name']} falls below two pieces: its last piece is lost too",
                (who.id,),
            )
            pieces = []
        t["pieces"] = pieces
        if not self.live(who) and who.active:
            self.st["exhausted"] = True

    def _after_exchange(self, m: ModelState, foe: ModelState) -> None:
        g = self.game
        if len(g.teams_on_table()) <= 1:
            g.state.pending = None
            g.finish(
                "one Avatar is left standing" if g.teams_on_table() else "the last Avatars fell together"
            )
            return
        if self.st["exhausted"]:
            self._end_round("an Avatar is out of techniques")
            return
        if foe.active and self.attack_options(foe):
            g.state.pending = Pending("duel_call", foe.player, foe.id, m.id, {"counter": True})
            return
        self._offer_free_call(self.st["caller"] + 1)

    def _round_end(self, game: Ctx) -> None:
        st = self.st
        st["tech"], st["built"] = {}, []
        base = st["base_order"]
        k = game.state.turn % len(base)
        game.state.order = base[k:] + base[:k]  # the next round's first call passes on
        game.emit("duel", "Every piece returns to its Avatar for the next round")
