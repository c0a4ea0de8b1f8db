"""The simulator against the exact odds: one shot played thousands of times (R-C1, R-S1, R-S2)."""

from __future__ import annotations

import json

import pytest

from skirmish.cli.main import main
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.sim.crosscheck import one_shot
from skirmish.sim.odds_table import odds_table
from skirmish.sim.stats import wilson

Z999 = 3.2905  # 99.9%: a fixed seed makes this deterministic; the margin keeps it robust to engine changes


@pytest.mark.rule("R-C1")
def test_r_c1_simulated_shots_match_the_exact_odds_and_the_odds_table() -> None:
    scenario = find_scenario("open_battle")
    avatar, zuko = find_troupe("team_avatar"), find_troupe("zuko_hunting_party")
    # Sokka throws his boomerang at a Fire Nation soldier 8" away, both in the open south of the stone.
    r = one_shot(
        scenario,
        (avatar, "sokka"),
        (zuko, "fire_soldier"),
        "boomerang",
        ((26.0, 4.0), (26.0, 12.0)),
        trials=2000,
        seed=11,
    )
    assert not r.exact.impossible and 0 < r.exact.wound < r.exact.hit < 1
    for count, p in ((r.hits, r.exact.hit), (r.wounds, r.exact.wound)):
        lo, hi = wilson(count, r.trials, z=Z999)
        assert lo <= p <= hi, (count, r.trials, p)
    assert r.kos == 0 == r.exact.ko  # one damage never takes a 2 HP soldier down
    # The odds table's "open" cell for the same pair is the same exact situation.
    shots, _ = odds_table(avatar, zuko)
    row = next(
        s
        for s in shots
        if s.shooter == "Sokka" and s.weapon == "Boomerang" and s.target == "Fire Nation Soldier"
    )
    assert row.odds[0] == r.exact


def test_odds_table_covers_every_pair_and_cover_only_makes_shots_harder() -> None:
    a, b = find_troupe("team_avatar"), find_troupe("zuko_hunting_party")
    shots, melees = odds_table(a, b)
    assert len(melees) == len(a.models) * len(b.models)
    assert {s.target for s in shots} == {e.profile.title for e in b.models}
    for s in shots:
        open_, light, cover = s.odds
        assert open_.hit >= light.hit >= cover.hit
        assert open_.wound >= light.wound >= cover.wound
    for m in melees:
        open_, covered = m.odds
        assert covered.attacker_hits <= open_.attacker_hits
        assert open_.attacker_hits + open_.defender_hits + open_.tie == pytest.approx(1.0)


def test_odds_table_cli_json_and_bad_troupe(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["odds", "table", "team_avatar", "zuko_hunting_party", "--json"])
    assert exc.value.code in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert {"shooting", "melee", "situations"} <= data.keys()
    assert {"open", "light_cover", "cover"} <= data["shooting"][0].keys()
    with pytest.raises(SystemExit) as exc:
        main(["odds", "table", "team_avatar", "no_such_troupe"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no_such_troupe" in err[0]
