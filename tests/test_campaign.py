"""The campaign (issue 5 item 6; R-X3): the Pursuit's chapters in order, a save file, rewards carried
over, a win opening the next chapter and a loss resetting it; `skirmish campaign` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_cli import run
from helpers_engine import advance_to, keep_only, m, place

from skirmish.data.errors import DataError
from skirmish.engine import campaign as cp
from skirmish.engine.core.actions import Decline, EndStep, Shoot, UseAbility
from skirmish.engine.game import Game
from skirmish.engine.scenarios import parse_config

CAMP = cp.load_campaign()


def test_r_x3_shipped_campaign_is_seven_valid_pursuit_boxes_in_order() -> None:
    assert CAMP.name == "aangs_destiny" and [c.name for c in CAMP.chapters] == [
        f"box_{i}" for i in range(1, 8)
    ]
    base = cp.find_scenario(CAMP.scenario)
    for i in range(len(CAMP.chapters)):
        sc = cp.chapter_scenario(CAMP, i)
        assert sc.special["chapter"] == i + 1 and sc.special["campaign"] == "aangs_destiny"
        cfg = parse_config(sc)
        assert cfg.objectives
    # Box 1, built from the card and adversary pools, is the_pursuit as shipped
    assert cp.chapter_scenario(CAMP, 0).special == {**base.special, "campaign": "aangs_destiny", "chapter": 1}
    late = parse_config(cp.chapter_scenario(CAMP, 6))
    assert late.active_adversaries == 1 and "azula" in late.stack and "combustion_man" in late.stack


def test_r_x3_box_ranges_decide_which_cards_and_adversaries_each_box_uses() -> None:
    def stack(box: int) -> set[str]:
        return set(parse_config(cp.chapter_scenario(CAMP, box - 1)).stack)

    def cards(box: int) -> set[str]:
        return {c.name for c in parse_config(cp.chapter_scenario(CAMP, box - 1)).deck}

    assert "admiral_zhao" not in stack(1) and "admiral_zhao" in stack(2) and "admiral_zhao" not in stack(5)
    assert "fire_nation_ship" in stack(3) and "fire_nation_ship" not in stack(4)  # range [1, 3]
    assert "zhaos_fleet" in cards(2) and "zhaos_fleet" not in cards(1)
    assert "quiet_waters" in cards(2) and "quiet_waters" not in cards(3)  # range [1, 2]
    assert "fire_nation_reinforcements" in cards(5)  # reinforcements only after Box 1
    assert not any(c.effect == "reinforce" for c in parse_config(cp.chapter_scenario(CAMP, 0)).deck)


def test_r_x3_toph_and_earthbending_join_in_box_2() -> None:
    for box, toph in ((1, False), (2, True), (7, True)):
        _, troupes = cp.box_setup(CAMP, box - 1, cp.rewards_before(CAMP, box - 1))
        heroes = {e.profile.name: e.profile for e in troupes[0].models}
        assert ("toph" in heroes) is toph
        if toph:
            assert "earth" in heroes["toph"].elements
    _, troupes = cp.box_setup(CAMP, 6, cp.rewards_before(CAMP, 6))  # every earlier reward carried
    heroes = {e.profile.name: e.profile for e in troupes[0].models}
    assert heroes["appa"].hp == 6 + 2 and "octopus_form" in heroes["katara"].abilities


def _won_chapter_one() -> Game:
    """Chapter 1 won through the engine: the last objective and the last adversary, dice forced."""
    scenario, troupes = cp.chapter_setup(CAMP, cp.new_save(CAMP))
    g = Game(scenario, troupes, seed=3)
    keep_only(g, ["p0.katara"], sentinels=[])
    st = g.state.extra["pursuit"]
    st["objective"] = st["revealed"] = 3
    st["stack"] = []  # every other adversary already defeated
    for x in g.state.models:
        x.removed = x.removed or x.player == 1
    ship = m(g, "p1.fire_nation_ship")
    ship.removed = False
    ship.hp = 1
    place(g, {"p0.katara": (24.0, 34.0), ship.id: (24.0, 41.0)})
    advance_to(g, "shooting", 0, turn=1)
    g.dice.force(6, 1, 1, 1, 1)
    g.apply(Shoot("p0.katara", ship.id, "water_lash"))
    while not g.over:
        g.apply(EndStep() if g.state.pending is None else Decline())
    return g


def test_r_x3_campaign_win_opens_the_next_chapter_and_carries_its_rewards() -> None:
    g = _won_chapter_one()
    assert cp.heroes_won(g.scenario, g.state.winning_team)
    save = cp.record(CAMP, cp.new_save(CAMP), won=True, seed=3, reason=g.state.result_reason, turns=g.turn)
    assert save.chapter == 1 and save.attempts == 0
    assert [r.describe().split(" (")[0] for r in save.rewards] == ["appa +1 hp", "aang learns air_scooter"]
    scenario, troupes = cp.chapter_setup(CAMP, save)
    assert scenario.special["chapter"] == 2 and "toph" in scenario.special["hero_order"]  # type: ignore[operator]
    heroes = {e.profile.name: e.profile for e in troupes[0].models}
    assert heroes["appa"].hp == 7 and "air_scooter" in heroes["aang"].abilities
    game = Game(scenario, troupes, seed=1)
    advance_to(game, "movement", 0, turn=1)
    assert UseAbility("p0.aang", "air_scooter") in game.legal_actions()
    assert m(game, "p0.appa").profile.hp == 7


def test_r_x3_campaign_loss_resets_the_chapter_and_keeps_the_rewards() -> None:
    save = cp.record(CAMP, cp.new_save(CAMP), won=True, seed=1, reason="won", turns=5)
    lost = cp.record(CAMP, save, won=False, seed=2, reason="Tracking reached 12", turns=6)
    assert lost.chapter == 1 and lost.attempts == 1 and lost.rewards == save.rewards
    assert [(p.chapter, p.attempt, p.won) for p in lost.history] == [("box_1", 1, True), ("box_2", 1, False)]
    assert cp.chapter_seed(lost) != cp.chapter_seed(save)  # a new attempt plays new dice
    assert cp.chapter_setup(CAMP, lost)[0] == cp.chapter_setup(CAMP, save)[0]  # same starting configuration


def test_r_x3_campaign_cli_play_records_a_loss_and_status_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "camp.json"
    code, out, err = run(["campaign", "status", "--file", str(save)], capsys)
    assert code == 0 and "chapter 1 of 7: The Boy in the Iceberg" in out and "not started" in out
    assert not save.exists()
    code, out, err = run(["campaign", "play", "--file", str(save), "--headless", "--seed", "2"], capsys)
    assert code == 0, err
    assert "Result: fire_nation" in out and "Chapter 1 lost" in out
    data = json.loads(save.read_text())
    assert data["format"] == "skirmish-campaign" and data["chapter"] == 0 and data["attempts"] == 1
    assert data["history"][0]["seed"] == 2 and data["history"][0]["won"] is False
    code, out, _ = run(["campaign", "--file", str(save)], capsys)
    assert code == 0 and "(lost 1 time)" in out and "Games: 1 played, 0 won" in out
    code, out, _ = run(["campaign", "reset", "--file", str(save)], capsys)
    assert code == 0 and json.loads(save.read_text())["history"] == []


def test_r_x3_campaign_cli_play_is_reproducible_and_writes_a_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outs = []
    for k in (1, 2):
        code, out, err = run(
            [
                "campaign",
                "play",
                "--file",
                str(tmp_path / f"s{k}.json"),
                "--bots",
                "--replay",
                str(tmp_path / f"r{k}.json"),
            ],
            capsys,
        )
        assert code == 0, err
        outs.append(out)
    assert outs[0].replace("s1.json", "X").replace("r1.json", "Y") == outs[1].replace("s2.json", "X").replace(
        "r2.json", "Y"
    )
    code, _, err = run(["replay", str(tmp_path / "r1.json"), "--verify"], capsys)
    assert code == 0, err


def test_r_x3_campaign_complete_status_and_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "done.json"
    cp.write_save(save, cp.new_save(CAMP).model_copy(update={"chapter": 7}))
    code, out, _ = run(["campaign", "status", "--file", str(save)], capsys)
    assert code == 0 and "Complete: all 7 chapters won" in out
    code, _, err = run(["campaign", "play", "--file", str(save), "--headless"], capsys)
    assert code == 2 and "every chapter is won" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "is not valid JSON"),
        ("[1, 2]", "a campaign save is a JSON object"),
        (
            '{"format": "skirmish-campaign", "version": 1, "campaign": "aangs_destiny", "chapter": -1}',
            "chapter",
        ),
        (
            '{"format": "skirmish-campaign", "version": 1, "campaign": "aangs_destiny", "chapter": 9}',
            "beyond",
        ),
        (
            '{"format": "skirmish-campaign", "version": 1, "campaign": "aangs_destiny", "history": '
            + "[" * 80
            + "]" * 80
            + "}",
            "nested",
        ),
        ('{"format": "skirmish-campaign", "version": 1, "campaign": "other_tale"}', "not `aangs_destiny`"),
        (
            '{"format": "skirmish-campaign", "version": 1, "campaign": "aangs_destiny", "cheat": true}',
            "cheat",
        ),
    ],
)
def test_r_x3_damaged_save_is_refused_with_exit_2(
    text: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "bad.json"
    save.write_text(text)
    code, _, err = run(["campaign", "status", "--file", str(save)], capsys)
    assert code == 2 and fragment in err and str(save) in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["campaign", "fly"], "choose one of status, play, reset"),
        (["campaign", "play", "--bots=genius"], "--bots genius: unknown policy"),
        (["campaign", "play", "--seed", "-3"], "--seed -3"),
        (["campaign", "status", "--file", "/no/such/folder/save.json"], "--file"),
        (
            ["campaign", "status", "--campaign", "no_such_campaign"],
            "no campaign of that name (known: aangs_destiny)",
        ),
    ],
)
def test_r_x3_campaign_bad_arguments_exit_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2 and fragment in err and "Traceback" not in err


REWARD = '[[chapters]]\nname = "a"\ntitle = "A"\n[[chapters.rewards]]\n'
BASE = """name = "mini"
title = "Mini"
scenario = "the_pursuit"
"""


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("", "chapters"),
        ('[[chapters]]\nname = "a"\ntitle = "A"\nspeed = 3\n', "chapters[0].speed"),
        (
            '[[chapters]]\nname = "a"\ntitle = "A"\n[chapters.special]\nturns = 3\n',
            "chapters[0].special.turns",
        ),
        (
            '[[chapters]]\nname = "a"\ntitle = "A"\n[chapters.special]\nobjectives = ["x:reach:mars"]\n',
            "chapters[0].special.objectives[0]",
        ),
        (
            '[[chapters]]\nname = "a"\ntitle = "A"\n[chapters.special]\ntracking_length = "long"\n',
            "chapters[0].special.tracking_length",
        ),
        (
            '[[chapters]]\nname = "a"\ntitle = "A"\n[[chapters.rewards]]\nhero = "momo"\nstat = "hp"\n',
            "chapters[0].rewards[0].hero",
        ),
        (
            '[[chapters]]\nname = "a"\ntitle = "A"\n[[chapters.rewards]]\nhero = "aang"\nability = "fly"\n',
            "chapters[0].rewards[0].ability",
        ),
        (
            REWARD + 'hero = "aang"\nstat = "hp"\nability = "air_blast"\n',
            "chapters[0].rewards[0]",
        ),
        (
            '[[chapters]]\nname = "a"\ntitle = "A"\n[[chapters]]\nname = "a"\ntitle = "B"\n',
            "chapters[1].name",
        ),
    ],
)
def test_r_x3_campaign_file_is_validated_strictly(
    body: str, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mini.toml"
    path.write_text(BASE + body)
    with pytest.raises(DataError) as info:
        cp.load_campaign(str(path))
    assert any(p.field.startswith(field) and p.file == str(path) for p in info.value.problems), (
        info.value.problems
    )
    code, _, err = run(
        ["campaign", "status", "--campaign", str(path), "--file", str(tmp_path / "s.json")], capsys
    )
    assert code == 2 and field in err and "Traceback" not in err


def test_r_x3_campaign_base_scenario_must_be_a_pursuit(tmp_path: Path) -> None:
    path = tmp_path / "wrong.toml"
    path.write_text(BASE.replace("the_pursuit", "open_battle") + '[[chapters]]\nname = "a"\ntitle = "A"\n')
    with pytest.raises(DataError, match="not a Pursuit"):
        cp.load_campaign(str(path))


# ----------------------------------------------------------------- the save: strict, locked, reported
_RECORDER = """
import sys
from skirmish.engine import campaign as cp
camp = cp.load_campaign()
for k in range(int(sys.argv[2])):
    cp.update_save(sys.argv[1], camp, lambda s: cp.record(camp, s, won=False, seed=k, reason="lost", turns=3))
"""


def test_r_x3_two_processes_recording_at_once_lose_no_update(tmp_path: Path) -> None:
    import subprocess
    import sys

    save = tmp_path / "shared.json"
    procs = [
        subprocess.Popen([sys.executable, "-c", _RECORDER, str(save), "25"], stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    data = cp.load_save(save, CAMP)
    assert len(data.history) == 50 and data.attempts == 50 and data.revision == 50
    assert [p.attempt for p in data.history] == list(range(1, 51))


def test_r_x3_a_game_of_a_box_another_run_already_won_is_recorded_without_moving_on() -> None:
    won = cp.record(CAMP, cp.new_save(CAMP), won=True, seed=1, reason="won", turns=9)
    late = cp.record(CAMP, won, won=False, seed=2, reason="lost", turns=4, chapter=0)
    assert late.chapter == 1 and late.attempts == 0
    assert [(p.chapter, p.attempt, p.won) for p in late.history] == [("box_1", 1, True), ("box_1", 2, False)]


def test_r_x3_campaign_status_json_and_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "s.json"
    cp.write_save(save, cp.record(CAMP, cp.new_save(CAMP), won=False, seed=7, reason="lost", turns=4))
    code, out, err = run(["campaign", "status", "--file", str(save), "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["boxes"] == 7 and report["attempts"] == 1 and report["games"] == 1
    assert report["next_box"]["box"] == 1 and report["next_box"]["title"] == "The Boy in the Iceberg"
    assert report["history"][0]["seed"] == 7
    code, out, _ = run(["schema", "campaign"], capsys)
    schema = json.loads(out)
    assert code == 0 and schema["additionalProperties"] is False and "history" in schema["properties"]


def test_r_x3_campaign_test_json_reports_every_box(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["campaign", "test", "--games", "1", "--workers", "1", "--json"], capsys)
    assert code == 0, err
    boxes = json.loads(out)["boxes"]
    assert [b["box"] for b in boxes] == list(range(1, 8))
    for b in boxes:
        assert b["games"] == 1 and 0 <= b["win_rate"] <= 1 and len(b["ci95"]) == 2
    code, _, err = run(["campaign", "status", "--games", "3"], capsys)
    assert code == 2 and "--games" in err
