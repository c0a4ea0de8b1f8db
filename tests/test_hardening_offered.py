"""Issue 11, item 6: what `legal_actions()` offers, `apply` accepts (design principle 3).

Before the fix an ability with the documented timing `take_cover` was offered in the Taking Cover
step and refused by `apply` (R-M4), so random-bot games with such a troupe failed on every seed.
Here every shipped troupe, and troupes built with every data-defined timing and effect (by hand
for full coverage, and by hypothesis for variety), play short random games; at each decision a
few offered actions are tried on a snapshot and each must be accepted, then the game goes on.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.data.armoury import Timing
from skirmish.data.catalogue import find_scenario, find_troupe, shipped
from skirmish.data.effects import EFFECTS, Param
from skirmish.data.troupe import Troupe
from skirmish.engine.core.actions import UseAbility
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.game import Game
from skirmish.rules.dice import Dice

TIMINGS = [t.value for t in Timing]
SAMPLES = 3
"""Offered actions tried at each decision (all of them when fewer)."""

MAX_DECISIONS = 250


def _value(spec: Param, pick: int) -> Any:
    """A valid value of a parameter: its lower bound, upper bound or middle, by `pick`."""
    if spec.kind == "bool":
        return bool(pick % 2)
    if spec.kind == "choice":
        return spec.choices[pick % len(spec.choices)]
    lo, hi = spec.lo, spec.hi
    value = (lo, hi, (lo + hi) / 2)[pick % 3]
    return int(value) if spec.kind == "int" else float(value)


def _ability(name: str, timing: str, effect: str, pick: int, ap: int) -> dict[str, Any]:
    params = {k: _value(p, pick + i) for i, (k, p) in enumerate(EFFECTS[effect].items())}
    ab: dict[str, Any] = {
        "name": name,
        "title": name.replace("_", " ").title(),
        "ap_cost": ap,
        "timing": timing,
        "effect": effect,
        "params": params,
    }
    if effect not in ("sense", "distraction") and pick % 2 == 0:
        ab["range"] = float(4 + 4 * (pick % 3))
    return ab


def _with_abilities(base: Troupe, abilities: list[dict[str, Any]]) -> Troupe:
    """`base` with `abilities` added to its armoury and dealt out to its models (16 at most each)."""
    data = base.model_dump(mode="json")
    data["armoury"]["abilities"] = [*data["armoury"]["abilities"], *abilities]
    models = data["models"]
    for i, ab in enumerate(abilities):
        prof = models[i % len(models)]["profile"]
        if len(prof["abilities"]) < 16:
            prof["abilities"].append(ab["name"])
    return Troupe.model_validate(data)


def _offered_are_accepted(scenario: Any, troupes: list[Troupe], seed: int) -> set[str]:
    """Play a random game; every sampled offered action must apply. The abilities used are returned."""
    game = Game(scenario, troupes, seed=seed)
    chooser = Dice(seed ^ 0x5EED)
    used: set[str] = set()
    for _ in range(MAX_DECISIONS):
        if game.over:
            break
        offered = game.legal_actions()
        assert offered, "a game that is not over must offer something (at least EndStep)"
        tries = (
            offered
            if len(offered) <= SAMPLES
            else [offered[chooser.roll(len(offered)) - 1] for _ in range(SAMPLES)]
        )
        before = game.hash()
        for action in tries:
            snap = game._snapshot()
            try:
                game.apply(action)
            except IllegalAction as exc:
                pytest.fail(f"offered but refused in step {game.state.step}: {action!r}: {exc}")
            if isinstance(action, UseAbility):
                used.add(action.ability)
            game._restore(snap)
            assert game.hash() == before
        game.apply(offered[chooser.roll(len(offered)) - 1])
    return used


@pytest.fixture(scope="module")
def short_battle() -> Any:
    return find_scenario("open_battle").model_copy(update={"turns": 2})


@pytest.mark.parametrize("path", shipped("troupes"), ids=lambda p: p.stem)
def test_every_shipped_troupe_is_offered_only_what_it_may_do(path: Any, short_battle: Any) -> None:
    troupe = find_troupe(str(path))
    opponent = find_troupe("zuko_hunting_party")
    _offered_are_accepted(short_battle, [troupe, opponent], seed=11)


@pytest.mark.rule("R-M4")
@pytest.mark.parametrize("timing", TIMINGS)
def test_r_m4_every_effect_at_every_timing_is_accepted_when_offered(timing: str, short_battle: Any) -> None:
    """One troupe per timing holding every effect at it (take_cover included: the issue's repro)."""
    abilities = [
        _ability(f"{effect}_{timing}", timing, effect, i, ap=i % 2) for i, effect in enumerate(EFFECTS)
    ]
    troupe = _with_abilities(find_troupe("team_avatar"), abilities)
    opponent = _with_abilities(
        find_troupe("zuko_hunting_party"),
        [_ability(f"foe_{e}", timing, e, i + 1, ap=0) for i, e in enumerate(sorted(EFFECTS))],
    )
    used = _offered_are_accepted(short_battle, [troupe, opponent], seed=3)
    if timing == "take_cover":
        assert used, "take_cover abilities must be offered and accepted in the Taking Cover step"


@pytest.mark.rule("R-M4")
def test_r_m4_a_take_cover_ability_is_accepted_in_the_taking_cover_step(short_battle: Any) -> None:
    troupe = _with_abilities(find_troupe("team_avatar"), [_ability("hunker", "take_cover", "buff", 1, ap=0)])
    game = Game(short_battle, [troupe, find_troupe("zuko_hunting_party")], seed=1)
    for _ in range(400):
        if game.state.step == "take_cover":
            offers = [a for a in game.legal_actions() if isinstance(a, UseAbility) and a.ability == "hunker"]
            if offers:
                game.apply(offers[0])
                assert any("Hunker" in e.text for e in game.log)
                return
        game.apply(game.legal_actions()[-1])  # EndStep: walk the turn
    pytest.fail("the Taking Cover step never offered the ability")


_EFFECT = st.sampled_from(sorted(EFFECTS))
_TIMING = st.sampled_from(TIMINGS)


_SPEC = st.lists(st.tuples(_TIMING, _EFFECT, st.integers(0, 5), st.integers(0, 3)), min_size=1, max_size=6)
_BASE = st.sampled_from(["team_avatar", "kyoshi_warriors", "northern_water_tribe", "air_temple_monks"])


def _generated(spec: list[tuple[str, str, int, int]], base: str, seed: int, battle: Any) -> None:
    abilities = [_ability(f"gen_{i}", t, e, pick, ap) for i, (t, e, pick, ap) in enumerate(spec)]
    troupe = _with_abilities(find_troupe(base), abilities)
    _offered_are_accepted(battle, [troupe, find_troupe("fire_nation_army")], seed=seed)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=_SPEC, base=_BASE, seed=st.integers(0, 2**31))
def test_generated_troupes_are_offered_only_what_they_may_do(
    spec: list[tuple[str, str, int, int]], base: str, seed: int, short_battle: Any
) -> None:
    _generated(spec, base, seed, short_battle)


@pytest.mark.fuzz
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=_SPEC, base=_BASE, seed=st.integers(0, 2**31))
def test_fuzz_generated_troupes_are_offered_only_what_they_may_do(
    spec: list[tuple[str, str, int, int]], base: str, seed: int, short_battle: Any
) -> None:
    _generated(spec, base, seed, short_battle)
