"""Issue 16 item 3: simultaneous fire (R-C2) covers ranged abilities as it covers bows."""

from __future__ import annotations

from helpers_engine import (
    advance_to,
    keep_only,
    m,
    new_game,
    place,
    troupe,
)

from skirmish.engine.core.actions import Shoot, UseAbility
from skirmish.engine.game import Game


def _sokka_and_mai() -> Game:
    g = new_game(troupes=[troupe("team_avatar"), troupe("azula_and_agents")])
    keep_only(g, ["p0.sokka", "p1.mai"])
    place(g, {"p0.sokka": (20.0, 10.0), "p1.mai": (20.0, 16.0)})
    return g


def test_r_c2_a_model_kod_earlier_in_the_shooting_step_still_uses_its_ranged_ability() -> None:
    g = _sokka_and_mai()
    advance_to(g, "shooting", 0)
    mai = m(g, "p1.mai")
    mai.hp = 1
    g.dice.force(6, 1, 1)  # boomerang 6 v dodge 1: hit; Mai's light armour rolls 1: KO'd
    g.apply(Shoot("p0.sokka", "p1.mai", "boomerang"))
    assert mai.ko and not mai.removed
    advance_to(g, "shooting", 1)
    throw = UseAbility("p1.mai", "pinning_throw", target="p0.sokka")
    assert throw in g.legal_actions()
    g.apply(throw)
    assert m(g, "p0.sokka").limping and mai.fired
    # Once removed (R-C2's removal step) it does nothing more.
    from skirmish.engine.effects.damage import remove_casualties

    remove_casualties(g)
    assert all(getattr(a, "model", None) != "p1.mai" for a in g.legal_actions())
