"""The rulebook each shipped scenario plays (R-T1): every action kind a step or a pending decision
allows has a handler, so an action is either applied or refused with a typed `IllegalAction` —
never a `KeyError` from a missing handler (the Duel's own turn once lost deployment's)."""

from __future__ import annotations

import pytest

from skirmish.data.catalogue import shipped
from skirmish.engine import Game, IllegalAction
from skirmish.engine.core.actions import Deploy

MACHINE = {"EndStep", "Decline"}  # answered by the phase machine itself


@pytest.mark.parametrize("scenario", sorted(p.stem for p in shipped("scenarios")))
def test_r_t1_every_allowed_action_kind_has_a_handler(scenario: str) -> None:
    book = Game.from_scenario(scenario).book
    for spec in (book.deploy, *book.turn):
        missing = spec.actions - MACHINE - set(book.handlers)
        assert not missing, f"{scenario}: step {spec.name} allows {missing} with no handler"
    for kind, pending in book.pending.items():
        missing = pending.actions - MACHINE - set(book.handlers)
        assert not missing, f"{scenario}: pending {kind} allows {missing} with no handler"


def test_r_t1_a_deploy_in_the_duel_is_refused_by_the_rule_not_a_missing_handler() -> None:
    game = Game.from_scenario("avatar_duel")
    before = game.hash()
    with pytest.raises(IllegalAction) as exc:
        game.apply(Deploy(game.state.models[0].id, (5.0, 5.0)))
    assert exc.value.rule == "R-T1"
    assert game.hash() == before
