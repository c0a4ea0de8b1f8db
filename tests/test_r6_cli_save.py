"""R-X3 campaign saves: `validate SAVE` and `campaign status|play` read a save once, strictly, and
check its rewards against the heroes' troupes that loading the campaign built (round 6)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.engine import campaign as cp


def won_box_1(tmp_path: Path) -> Path:
    """A save that has won Box 1, so it carries Box 1's rewards (no game played to make it)."""
    camp = cp.load_campaign()
    save = tmp_path / "camp.json"
    cp.write_save(save, cp.record(camp, cp.new_save(camp), won=True, seed=1, reason="won", turns=5))
    assert json.loads(save.read_text())["rewards"]
    return save


def opens_of(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every `os.open` of `path` from now on (read_text opens with os.open)."""
    seen: list[str] = []
    real = os.open

    def counting(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.path.realpath(file) == os.path.realpath(path):
            seen.append(str(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting)
    return seen


def no_rebuilt_heroes(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(camp: cp.Campaign) -> list[object]:
        raise AssertionError("the heroes' troupes were built again for the save")

    monkeypatch.setattr(cp, "campaign_heroes", refuse)


def test_r_x3_validate_reads_a_save_once_and_builds_no_troupes_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = won_box_1(tmp_path)
    opens = opens_of(save, monkeypatch)
    no_rebuilt_heroes(monkeypatch)
    code, out, err = run(["validate", str(save)], capsys)
    assert code == 0 and out == f"{save}: ok\n", err
    assert len(opens) == 1


@pytest.mark.parametrize("action", ["status", "play"])
def test_r_x3_campaign_reads_the_save_once_before_the_game_and_builds_no_troupes_again(
    action: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play` reads the save again under its lock after the game (another run may have recorded a
    game meanwhile): that is its second read, and the only one."""
    save = won_box_1(tmp_path)
    opens = opens_of(save, monkeypatch)
    no_rebuilt_heroes(monkeypatch)
    argv = ["campaign", action, "--file", str(save), "--json"]
    if action == "play":
        argv += ["--headless", "--seed", "2"]
        monkeypatch.setattr(cp, "box_setup", _short_box_setup(cp.box_setup))
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert json.loads(out)["campaign"] == "aangs_destiny"
    assert len(opens) == (2 if action == "play" else 1)


def _short_box_setup(real):  # type: ignore[no-untyped-def]
    """Box 2 cut to one turn, so the test plays a short game."""

    def short(camp, index, rewards):  # type: ignore[no-untyped-def]
        scenario, troupes = real(camp, index, rewards)
        return scenario.model_copy(update={"turns": 1}), troupes

    return short


def test_r_x3_the_heroes_load_campaign_builds_are_the_ones_a_save_was_checked_against() -> None:
    """The reference (every chapter's troupes built afresh, as `load_save` built them before) and
    the troupes loading the campaign keeps are the same troupes, in the same order."""
    camp, heroes = cp.load_campaign_heroes()
    reference: dict[str, object] = {}
    for i in range(len(camp.chapters)):
        scenario, troupes = cp.box_troupes(camp, i)
        hero = cp.hero_troupe(scenario, troupes)
        reference.setdefault(hero.name, hero)
    assert heroes == list(reference.values()) == cp.campaign_heroes(camp)
    assert [t.name for t in heroes] == ["pursuit_heroes", "pursuit_heroes_earth"]


def test_r_x3_a_save_beyond_the_data_file_limit_is_refused_by_validate_and_campaign_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`validate` reads every file under the replays' limit (64 MB); a save is still a data file."""
    save = won_box_1(tmp_path)
    data = json.loads(save.read_text())
    data["history"] = data["history"] * 9000
    save.write_text(json.dumps(data, indent=1))
    size = save.stat().st_size
    assert size > 1_000_000
    for argv in (["validate", str(save)], ["campaign", "status", "--file", str(save)]):
        code, _, err = run(argv, capsys)
        assert code == 2, err
        assert err == f"skirmish: {save}: is {size:,} bytes; data files are at most 1,000,000 bytes\n"


def test_r_x3_validate_a_save_of_a_campaign_it_cannot_find_says_how_to_check_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save names its campaign, not the campaign's file: `validate` finds shipped campaigns only,
    and says which command checks a save of the user's own campaign file."""
    save = won_box_1(tmp_path)
    data = json.loads(save.read_text())
    data["campaign"] = "my_campaign"
    save.write_text(json.dumps(data))
    code, _, err = run(["validate", str(save)], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"skirmish: {save}: campaign: `my_campaign`: no campaign of that name")
    assert "skirmish campaign status --campaign FILE --file" in lines[0]
