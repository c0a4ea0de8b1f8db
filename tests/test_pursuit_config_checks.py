"""The Pursuit's `special` keys (R-X3): each bad value is one problem naming its key, and a bad
Tracking track is not also reported as a track the start does not fit."""

from __future__ import annotations

import pytest

from skirmish.data.catalogue import find_scenario
from skirmish.data.errors import DataError
from skirmish.engine.scenarios import parse_config

SHIPPED = find_scenario("the_pursuit")


def _problems(**special: object) -> list[str]:
    scenario = SHIPPED.model_copy(update={"special": {**SHIPPED.special, **special}})
    with pytest.raises(DataError) as exc:
        parse_config(scenario)
    return [f"{p.field}: {p.message}" for p in exc.value.problems]


def test_r_x3_the_shipped_pursuit_config_reads() -> None:
    cfg = parse_config(SHIPPED)
    assert all(0 <= t <= cfg.tracking_length for t in cfg.events_extra_at)


@pytest.mark.parametrize("at", [-1, 13, 120])
def test_r_x3_an_extra_event_off_the_tracking_track_is_refused(at: int) -> None:
    length = SHIPPED.special["tracking_length"]
    assert _problems(events_extra_at=[2, at]) == [
        f"special.events_extra_at[1]: {at} is not a Tracking value (0 to {length})"
    ]


@pytest.mark.parametrize("bad", ["x", 0, 1000])
def test_r_x3_a_bad_tracking_length_is_one_problem(bad: object) -> None:
    problems = _problems(tracking_length=bad)
    assert len(problems) == 1 and problems[0].startswith("special.tracking_length: ")
