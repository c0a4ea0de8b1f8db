"""`skirmish odds shoot|melee` (cli.md): the JSON keys, the table, exit 2 on bad values (R-C1, R-C4)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from skirmish.cli.main import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def test_r_c1_odds_shoot_json_has_exactly_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["odds", "shoot", "--attack", "3", "--dodge", "2", "--armour", "5", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["impossible", "hit", "wound", "ko"]
    assert data["impossible"] is False
    assert data["hit"] == pytest.approx(21 / 36)
    assert data["wound"] == pytest.approx(21 / 36 * 4 / 6)
    assert all(isinstance(data[k], float) for k in ("hit", "wound", "ko"))


def test_r_c1_odds_shoot_impossible_shot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["odds", "shoot", "--attack", "0", "--dodge", "2", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {"impossible": True, "hit": 0.0, "wound": 0.0, "ko": 0.0}
    code, out, _ = _run(["odds", "shoot", "--attack", "-1", "--dodge", "2"], capsys)
    assert code == 0 and "Impossible Shot" in out


def test_r_s2_odds_shoot_flags_reach_the_odds(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "shoot", "--attack", "4", "--dodge", "2", "--armour", "3", "--shield", "3"]
    flags = ["--shield-breaker", "--taking-cover", "--damage", "2", "--hp", "2", "--json"]
    _, out, _ = _run([*argv, *flags], capsys)
    data = json.loads(out)
    assert data["wound"] == pytest.approx(26 / 36 * 2 / 6)
    assert data["ko"] == data["wound"]


def test_r_c1_odds_shoot_table_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["odds", "shoot", "--attack", "3", "--dodge", "3"], capsys)
    assert code == 0
    assert "hit" in out and "41.67%" in out and "{" not in out


def test_r_c4_odds_melee_json_keys_and_sum(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "melee", "--attack", "3", "--defend", "2", "--defender-armour", "4", "--attacker-hp", "2"]
    code, out, _ = _run([*argv, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert list(data) == [
        "attacker_hits",
        "defender_hits",
        "tie",
        "defender_wounded",
        "attacker_wounded",
        "defender_ko",
        "attacker_ko",
    ]
    assert data["attacker_hits"] + data["defender_hits"] + data["tie"] == pytest.approx(1.0)
    assert data["defender_wounded"] == pytest.approx(data["attacker_hits"] / 2)
    assert data["attacker_ko"] == 0.0  # defender's 1 damage cannot take 2 HP


def test_r_c4_odds_melee_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["odds", "melee", "--attack", "1", "--defend", "1"], capsys)
    assert code == 0 and "tie" in out and "16.67%" in out


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["odds", "shoot", "--attack", "3", "--dodge", "2", "--armour", "9"], "--armour"),
        (["odds", "shoot", "--attack", "3", "--dodge", "2", "--shield", "1"], "--shield"),
        (["odds", "shoot", "--attack", "3", "--dodge", "2", "--hp", "0"], "--hp"),
        (["odds", "shoot", "--attack", "3", "--dodge", "2", "--damage", "-1", "--json"], "--damage"),
        (["odds", "melee", "--attack", "3", "--defend", "2", "--defender-armour", "7"], "--defender-armour"),
        (["odds", "melee", "--attack", "3", "--defend", "2", "--attacker-hp", "0"], "--attacker-hp"),
    ],
)
def test_r_s1_bad_values_exit_2_with_one_line_naming_the_flag(
    argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0]
    assert "Traceback" not in err


def test_r_c1_odds_subprocess_json_and_exit_codes() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "skirmish", "odds", "shoot", "--attack", "2", "--dodge", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["hit"] == pytest.approx(15 / 36)
    bad = subprocess.run(
        [sys.executable, "-m", "skirmish", "odds", "shoot", "--attack", "2", "--dodge", "2", "--armour", "9"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and "--armour" in bad.stderr
