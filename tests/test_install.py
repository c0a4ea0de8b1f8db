"""What a user expects of an installed program (issue 10): a version, choices that say what they
accept, content found wherever the package is installed (and an error when none is), the user's
own folder, machine-readable output, shipped schemas, and replays that are strict and
tamper-evident (issue 11, item 3).

Games here are one or two turns of the Avatar Duel so the module runs in seconds.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from helpers_cli import run

import skirmish
from skirmish.cli.data_cmds import SCHEMA_KINDS, schema_text
from skirmish.cli.main import main
from skirmish.data.catalogue import content_root, resolve, shipped
from skirmish.data.userdirs import data_dir, default_campaign_save, default_output
from skirmish.engine.replay import digest_problems, load_replay, load_replay_text, verify_problems

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
SCHEMA_PYDANTIC = (2, 14)
"""The pydantic the shipped schema files are generated with (older ones word a few keys differently)."""
DUEL = ["play", "avatar_duel", "--headless", "--bots", "--turns", "2", "--seed", "3"]


def one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str], *fragments: str) -> str:
    code, _, err = run(argv, capsys)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and "Traceback" not in err, err
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def duel_replay(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A real version-2 replay (with its digest) written by `skirmish play --replay`."""
    path = tmp_path_factory.mktemp("duel") / "duel.json"
    with pytest.raises(SystemExit) as exc:
        main([*DUEL, "--replay", str(path)])
    assert exc.value.code in (0, None)
    return json.loads(path.read_text(encoding="utf-8"))


def write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ------------------------------------------------------------------ version, metadata, completion
def test_version_prints_the_one_version_source(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"skirmish {skirmish.__version__} (skirmish-four-kingdoms)"


def test_pyproject_reads_the_version_from_the_package_and_is_honest() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    assert project["dynamic"] == ["version"] and "version" not in project
    assert meta["tool"]["setuptools"]["dynamic"]["version"]["attr"] == "skirmish.__version__"
    assert project["name"] == skirmish.DISTRIBUTION != "skirmish"  # `skirmish` on PyPI is another project
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    deps = " ".join(project["dependencies"])
    assert "networkx" not in deps  # nothing imports it
    # typer 0.13 with today's click and pymunk 6.9 crash; pydantic 2.8.2 breaks `campaign play`
    assert "typer>=0.16" in deps and "pymunk>=7" in deps and "pydantic>=2.9" in deps
    test_extra = " ".join(project["optional-dependencies"]["test"])
    assert "dask[distributed]" in test_extra and "matplotlib" in test_extra and "ruff" not in test_extra
    assert {"ruff", "mypy", "types-shapely"} <= {
        d.split(">")[0] for d in project["optional-dependencies"]["lint"]
    }
    addopts = meta["tool"]["pytest"]["ini_options"].get("addopts", "")
    assert "-n" not in addopts.split()  # xdist is CI's choice, never required by a bare `pytest`


def test_shell_completion_is_offered(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--help"], capsys)
    assert code == 0 and "--install-completion" in out and "--version" in out


# ------------------------------------------------------------------ choices as Enums
@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["list", "kinds"], ("KIND kinds", "unknown kind", "troupes, scenarios")),
        (["schema", "foo"], ("KIND foo", "troupe, scenario, replay, campaign")),
        (["play", "--headless", "--bots", "genius"], ("--bots genius", "unknown policy")),
        (["test-troupes", "team_avatar", "avatar_kyoshi", "--executor", "cloud"], ("--executor cloud",)),
        (
            ["test-troupes", "team_avatar", "avatar_kyoshi", "--bots=x"],
            ("--bots x", "heuristic, guess, random"),
        ),
    ],
)
def test_a_bad_choice_exits_2_naming_the_flag_and_the_choices(
    argv: list[str], fragments: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    one_line_exit_2(argv, capsys, *fragments)


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["play", "--help"], "heuristic|guess|random"),
        (["test-troupes", "--help"], "local|dask"),
        (["list", "--help"], "troupes|scenarios|folders"),
    ],
)
def test_help_shows_the_choices(argv: list[str], shown: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(argv, capsys)
    assert code == 0 and shown in out


def test_bots_alone_still_means_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*DUEL[:3], "--bots", "--turns", "1", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["turns"] >= 1


# ------------------------------------------------------------------ content and the user's folder
def test_shipped_content_is_found_inside_the_package() -> None:
    assert content_root() == Path(skirmish.__file__).parent / "content"
    assert len(shipped("troupes")) >= 18 and len(shipped("scenarios")) >= 8


def test_list_with_no_content_is_an_error_not_an_empty_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SKIRMISH_CONTENT", str(tmp_path / "nothing"))
    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path / "data"))
    code, out, err = run(["list", "troupes"], capsys)
    assert code == 1 and out == ""
    assert "no troupes found" in err and str(tmp_path / "nothing" / "troupes") in err
    assert len(err.strip().splitlines()) == 1


def test_user_troupes_are_listed_after_shipped_ones_and_never_shadow_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path))
    mine = tmp_path / "troupes"
    mine.mkdir()
    text = (content_root() / "troupes" / "team_avatar.toml").read_text(encoding="utf-8")
    (mine / "my_team.toml").write_text(text.replace('name = "team_avatar"', 'name = "my_team"'))
    (mine / "team_avatar.toml").write_text("this would shadow a shipped name")
    (mine / "broken.toml").write_text('name = "broken"\n')
    code, out, err = run(["list", "troupes", "--json"], capsys)
    assert code == 0, err
    items = json.loads(out)["items"]
    assert [i["name"] for i in items][-1] == "my_team" and items[-1]["source"] == "user"
    assert sum(i["name"] == "team_avatar" for i in items) == 1
    assert {"name", "title", "description", "file", "source"} == set(items[0])
    assert "broken.toml" in err  # skipped, and said so
    assert resolve("troupes", "my_team") == mine / "my_team.toml"
    assert resolve("troupes", "team_avatar") == content_root() / "troupes" / "team_avatar.toml"


def test_list_folders_names_every_default_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path))
    code, out, _ = run(["list", "folders", "--json"], capsys)
    assert code == 0
    paths = {i["name"]: i["path"] for i in json.loads(out)["items"]}
    assert paths["saves"] == str(tmp_path / "saves") and paths["campaign_save"] == str(
        tmp_path / "campaign.json"
    )
    assert paths["user_troupes"] == str(tmp_path / "troupes")


def test_default_outputs_go_to_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path / "d"))
    assert data_dir() == tmp_path / "d"
    assert default_output("replays", "r.json") == tmp_path / "d" / "replays" / "r.json"
    assert (tmp_path / "d" / "replays").is_dir()
    assert default_campaign_save() == tmp_path / "d" / "campaign.json"
    from skirmish.cli.campaign_cmd import default_save_path

    monkeypatch.delenv("SKIRMISH_CAMPAIGN_SAVE", raising=False)
    assert default_save_path() == str(tmp_path / "d" / "campaign.json")
    with pytest.raises(ValueError, match="unknown output kind"):
        default_output("elsewhere", "x")


def test_a_data_folder_that_cannot_be_made_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SKIRMISH_DATA", str(blocker / "data"))
    monkeypatch.delenv("SKIRMISH_CAMPAIGN_SAVE", raising=False)
    one_line_exit_2(["campaign", "status"], capsys, str(blocker / "data"), "cannot make the data folder")


# ------------------------------------------------------------------ JSON outputs
def test_play_headless_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "r.json"
    code, out, err = run([*DUEL, "--json", "--replay", str(out_file)], capsys)
    assert code == 0, err
    data = json.loads(out)
    keys = {"scenario", "title", "seed", "over", "draw", "winners", "reason", "turns", "battle_points"}
    keys |= {"battle_points_per_turn", "kos", "models_left", "actions", "final_hash", "replay", "screenshot"}
    assert keys == set(data)
    assert data["seed"] == 3 and data["replay"] == str(out_file) and data["screenshot"] is None
    assert f"Replay written to {out_file}" in err  # stdout carries only the JSON
    assert load_replay(out_file).final_hash == data["final_hash"]


def test_json_needs_a_headless_game_or_verify(capsys: pytest.CaptureFixture[str]) -> None:
    # Without a display (the tests' SDL dummy driver) `play` falls back to a headless game: JSON it is.
    code, out, err = run(["play", "avatar_duel", "--turns", "1", "--json"], capsys)
    assert code == 0 and "no display found" in err and json.loads(out)["turns"] == 1
    one_line_exit_2(["replay", str(GOLDEN / "open_battle_random_s7_t3.json"), "--json"], capsys, "--verify")


def test_validate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = content_root() / "troupes" / "team_avatar.toml"
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text(encoding="utf-8").replace('name = "team_avatar"', 'name = "x"\nbogus = 1'))
    code, out, err = run(["validate", str(good), str(bad), "--json"], capsys)
    assert code == 2 and "bogus" in err
    data = json.loads(out)
    assert data["ok"] is False
    assert [f["ok"] for f in data["files"]] == [True, False]
    assert data["files"][1]["problems"][0] == {
        "file": str(bad),
        "field": "bogus",
        "message": "unknown key (not part of the format)",
    }


def test_replay_verify_json(duel_replay: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "ok.json", duel_replay)
    code, out, _ = run(["replay", str(path), "--verify", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["digest"] and data["version"] == 2 and data["problems"] == []
    assert set(data) == {"file", "ok", "version", "digest", "actions", "final_hash", "problems"}
    broken = tmp_path / "cut.json"
    broken.write_text(path.read_text(encoding="utf-8")[:100])
    code, out, _ = run(["replay", str(broken), "--verify", "--json"], capsys)
    data = json.loads(out)
    assert code == 2 and not data["ok"] and "not valid JSON" in data["problems"][0]["message"]


# ------------------------------------------------------------------ schemas shipped as files
@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_shipped_schema_files_equal_the_schema_command(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    shipped_file = Path(skirmish.__file__).parent / "data" / "schemas" / f"{kind}.schema.json"
    if shipped_file.read_text(encoding="utf-8") != schema_text(kind):
        import pydantic

        if tuple(int(x) for x in pydantic.VERSION.split(".")[:2]) < SCHEMA_PYDANTIC:
            pytest.skip(
                f"pydantic {pydantic.VERSION} words schemas differently; the files are made with 2.14"
            )
        pytest.fail(f"regenerate: skirmish schema {kind} > skirmish/data/schemas/{kind}.schema.json")
    code, out, _ = run(["schema", kind], capsys)
    assert code == 0 and out == schema_text(kind)


@pytest.mark.parametrize("kind", ["troupes", "scenarios"])
def test_shipped_toml_files_name_their_schema_for_editors(kind: str) -> None:
    for path in shipped(kind):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("#:schema "), path
        target = (path.parent / first.removeprefix("#:schema ").strip()).resolve()
        assert target.name == f"{kind[:-1]}.schema.json" and target.is_file(), path


# ------------------------------------------------------------------ strict replays
@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda d: d["troupes"][0]["models"][0]["profile"].update(hp="3"), "troupes[0].models[0].profile.hp"),
        (lambda d: d.update(version=True), "version"),
        (lambda d: d.update(seed=1.5), "seed"),
        (lambda d: d.update(colour="red"), "colour"),
        (lambda d: d["options"].update(premeasure="yes"), "options.premeasure"),
        (lambda d: d.update(status="paused"), "status"),
        (lambda d: d["digest"]["parts"].update(scenario="zz"), "digest.parts.scenario"),
    ],
    ids=["hp-string", "version-true", "seed-float", "unknown-key", "option-string", "status", "digest-hex"],
)
def test_a_replay_is_as_strict_as_the_toml_files(
    duel_replay: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str], mutate, fragment: str
) -> None:
    data = json.loads(json.dumps(duel_replay))
    mutate(data)
    path = write(tmp_path, "bad.json", data)
    one_line_exit_2(["validate", str(path)], capsys, str(path), fragment)


def test_duplicate_keys_and_nan_are_refused(duel_replay: dict, tmp_path: Path, capsys) -> None:
    text = json.dumps(duel_replay)
    dup = tmp_path / "dup.json"
    dup.write_text(text[:-1] + ', "seed": 4}')
    one_line_exit_2(["replay", str(dup), "--verify"], capsys, "dup.json", "seed", "duplicate key")
    nan = tmp_path / "nan.json"
    nan.write_text(text.replace('"seed": 3', '"seed": NaN'))
    one_line_exit_2(["replay", str(nan), "--verify"], capsys, "nan.json", "NaN")


def test_golden_replays_carry_a_digest_and_version_1_files_still_verify_without_one() -> None:
    """The goldens are written as version 2 (with the digest); a version 1 file — the same game
    without the digest, as files written before the digest existed — still loads and verifies."""
    for path in sorted(GOLDEN.glob("*.json")):
        rep = load_replay(path)
        assert rep.version == 2 and rep.digest is not None
        assert verify_problems(rep) == [], path
        old = json.loads(path.read_text(encoding="utf-8"))
        del old["digest"]
        old["version"] = 1
        rep1 = load_replay_text(json.dumps(old), f"{path.stem}_v1.json")
        assert rep1.version == 1 and rep1.digest is None
        assert verify_problems(rep1) == [], path


# ------------------------------------------------------------------ tamper-evident replays
def test_a_flipped_option_is_named_by_the_digest(duel_replay: dict) -> None:
    data = json.loads(json.dumps(duel_replay))
    data["options"]["models_block_sight"] = not data["options"]["models_block_sight"]
    problems = digest_problems(load_replay_text(json.dumps(data), "flipped.json"))
    assert [(p.field, "options" in p.message) for p in problems] == [("digest.inputs", True)]


def test_an_unread_profile_stat_is_named_by_the_digest(duel_replay: dict, tmp_path: Path, capsys) -> None:
    data = json.loads(json.dumps(duel_replay))
    profile = data["troupes"][1]["models"][0]["profile"]
    profile["title"] = profile["title"] + " the Edited"  # never rolled, never hashed into the state
    rep = load_replay_text(json.dumps(data), "edited.json")
    assert [p.field for p in digest_problems(rep)] == ["digest.inputs"]
    assert "troupes" in digest_problems(rep)[0].message
    path = write(tmp_path, "edited.json", data)
    one_line_exit_2(["replay", str(path), "--verify"], capsys, "edited.json", "digest.inputs", "troupes")


def test_an_edited_result_is_refused(duel_replay: dict, tmp_path: Path, capsys) -> None:
    data = json.loads(json.dumps(duel_replay))
    data["result"]["turns"] = 99
    path = write(tmp_path, "result.json", data)
    code, _, err = run(["replay", str(path), "--verify"], capsys)
    assert code == 2 and "digest.result" in err and "result: turns" in err and "Traceback" not in err


def test_a_version_2_replay_without_its_digest_is_refused(duel_replay: dict, tmp_path, capsys) -> None:
    data = json.loads(json.dumps(duel_replay))
    del data["digest"]
    path = write(tmp_path, "nodigest.json", data)
    one_line_exit_2(["validate", str(path)], capsys, "nodigest.json", "digest", "missing")


def test_the_digest_ignores_layout_but_not_values(duel_replay: dict) -> None:
    text = json.dumps(duel_replay, indent=4, sort_keys=False)
    assert digest_problems(load_replay_text(text, "relaid.json")) == []


def test_the_window_writes_to_the_data_folder_when_no_path_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End-screen replay, F12 picture and quick-save: in the data folder, never the current folder."""
    pygame = pytest.importorskip("pygame")
    from skirmish.bots.runner import play_out, seat_bots
    from skirmish.cli.play_cmds import setup
    from skirmish.engine.game import Game
    from skirmish.ui.app import App
    from skirmish.ui.battle import BattleScene
    from skirmish.ui.endscreen import EndScene

    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    scenario, troupes, options = setup("avatar_duel", [], 1, [])
    game = Game(scenario, troupes, seed=2, options=options, bots=["random", "random"])
    play_out(game, seat_bots(game, ["random", "random"]))
    app = App((1200, 800))
    try:
        end = EndScene(app, game)
        end.save_replay()
        replay = tmp_path / "data" / "replays" / "skirmish-replay-2.json"
        assert load_replay(replay).final_hash == game.hash()
        assert str(replay) in end.message
        battle = BattleScene(app, game, [None, None])
        battle.screenshot()
        assert list((tmp_path / "data" / "screenshots").glob("skirmish-board-2-t*.png"))
        battle.save()
        assert (tmp_path / "data" / "saves" / "skirmish-save.json").is_file()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # nothing in the current folder
    finally:
        pygame.display.quit()
