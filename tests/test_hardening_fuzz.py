"""Issue 11, item 8: hypothesis mangles troupe and scenario files; nothing but a clean refusal comes out.

Two kinds of property, as python-chess fuzzes FEN and PGN:

* round trip: a loaded file dumped back to TOML and loaded again is the same model (shipped files,
  and hypothesis variations of them that stay valid);
* mangling: text-level damage (cut, inserted, duplicated, bytes flipped, bombs) and value-level
  damage (any leaf replaced by an extreme, NaN, a string, a table) either loads or raises
  `DataError` naming the file — never another exception, never a hang.

The default run takes a few seconds; `pytest -m fuzz` runs the same properties much longer, and
also plays a turn with every mangled troupe the loader accepted.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.data.catalogue import content_root, find_scenario, find_troupe
from skirmish.data.errors import DataError
from skirmish.data.loader import load_scenario_data, load_toml_file, load_troupe_data, parse_toml
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe

TROUPE_FILES = sorted((content_root() / "troupes").glob("*.toml"))
SCENARIO_FILES = sorted((content_root() / "scenarios").glob("*.toml"))
FILES = TROUPE_FILES + SCENARIO_FILES
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- a small TOML writer
def _key(k: str) -> str:
    return k if k and all(c.isascii() and (c.isalnum() or c in "_-") for c in k) else _value(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        # TOML's escapes are JSON's except surrogate pairs: write other characters as they are.
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items() if x is not None) + " }"
    raise TypeError(type(v))


def to_toml(data: dict[str, Any]) -> str:
    """Top-level scalars, then `[table]`s and `[[arrays of tables]]` one level deep, the rest inline."""
    out: list[str] = []
    tables: list[str] = []
    for k, v in data.items():
        if v is None:
            continue
        if isinstance(v, dict):
            tables.append(f"\n[{_key(k)}]")
            tables.extend(f"{_key(kk)} = {_value(vv)}" for kk, vv in v.items() if vv is not None)
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for item in v:
                tables.append(f"\n[[{_key(k)}]]")
                tables.extend(f"{_key(kk)} = {_value(vv)}" for kk, vv in item.items() if vv is not None)
        else:
            out.append(f"{_key(k)} = {_value(v)}")
    return "\n".join(out + tables) + "\n"


def _load_text(text: str, name: str) -> Troupe | Scenario:
    data = parse_toml(text, name)
    if "models" in data:
        return load_troupe_data(data, name)
    return load_scenario_data(data, name)


# ---------------------------------------------------------------- round trips
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_shipped_files_round_trip_through_toml(path: Path) -> None:
    model = load_toml_file(path)
    again = _load_text(to_toml(model.model_dump(mode="json")), str(path))
    assert again == model


@st.composite
def _troupe_variation(draw: Any) -> dict[str, Any]:
    """A shipped troupe with its profiles' figures and titles redrawn within the format's bounds."""
    data = find_troupe(draw(st.sampled_from([p.stem for p in TROUPE_FILES]))).model_dump(mode="json")
    for entry in data["models"]:
        prof = entry["profile"]
        prof["move"] = draw(st.floats(0, 24, allow_nan=False).map(lambda x: round(x, 3)))
        prof["hp"] = draw(st.integers(1, 30))
        prof["dodge"] = draw(st.integers(-5, 10))
        title = draw(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20))
        prof["title"] = title.strip() or "x"
    return data


@QUICK
@given(data=_troupe_variation())
def test_valid_troupe_variations_round_trip(data: dict[str, Any]) -> None:
    model = load_troupe_data(data, "variation.toml")
    assert _load_text(to_toml(model.model_dump(mode="json")), "again.toml") == model


# ---------------------------------------------------------------- mangling
_NASTY = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, -1, 1, 2**63, -(2**63), 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.booleans(),
    st.lists(st.integers(), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.just([[[]]]),
)


def _leaves(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, (*path, i))] or [path]
    return [path]


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


def _mangle_value(draw: Any) -> tuple[str, dict[str, Any]]:
    path = draw(st.sampled_from(FILES))
    data = parse_toml(path.read_text(encoding="utf-8"), str(path))
    leaves = _leaves(data)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(leaves))
        if where:
            _set(data, where, draw(_NASTY))
    return path.name, data


def _check_value_mangled(name_data: tuple[str, dict[str, Any]], play: bool = False) -> None:
    name, data = name_data
    started = time.process_time()
    try:
        text = to_toml(data)
    except TypeError:
        return  # a value TOML cannot hold
    try:
        model = _load_text(text, name)
    except DataError as exc:
        assert exc.problems and all(p.file == name for p in exc.problems), exc.problems
    else:
        assert _load_text(to_toml(model.model_dump(mode="json")), name) == model
        if play and isinstance(model, Troupe):
            _one_turn(model)
    assert time.process_time() - started < 5


def _one_turn(troupe: Troupe) -> None:
    """A troupe the loader accepts plays a turn without any exception but a clean deployment refusal."""
    from skirmish.bots.runner import play_out, seat_bots
    from skirmish.engine.game import Game

    scenario = find_scenario("open_battle").model_copy(update={"turns": 1})
    try:
        game = Game(scenario, [troupe, find_troupe("team_avatar")], seed=1, record_log=False)
    except ValueError as exc:  # the troupe does not fit its deployment zone: reported as bad input
        assert "deployment zone" in str(exc)
        return
    play_out(game, seat_bots(game, ["random", "random"]))


@st.composite
def _value_mangled(draw: Any) -> tuple[str, dict[str, Any]]:
    return _mangle_value(draw)


@QUICK
@given(_value_mangled())
def test_value_mangled_files_load_or_are_refused_naming_the_file(
    name_data: tuple[str, dict[str, Any]],
) -> None:
    _check_value_mangled(name_data)


_BOMBS = [
    "a" + ".a" * 30_000 + " = 1\n",
    "x = " + "[" * 10_000 + "\n",
    "[" + "a." * 5_000 + "a]\n",
    'x = """' + "y" * 1000 + "\n",
    "\x00\x01\x02",
]


@st.composite
def _text_mangled(draw: Any) -> tuple[str, bytes]:
    path = draw(st.sampled_from(FILES))
    raw = bytearray(path.read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["cut", "insert", "flip", "duplicate", "bomb", "truncate"]))
        i = draw(st.integers(0, len(raw)))
        if op == "cut":
            del raw[i : i + draw(st.integers(1, 200))]
        elif op == "insert":
            raw[i:i] = draw(
                st.binary(max_size=20) | st.sampled_from([b"[", b"]", b"{", b'"', b"'''", b"=", b".", b"\n"])
            )
        elif op == "flip" and raw:
            j = min(i, len(raw) - 1)
            raw[j] ^= 1 << draw(st.integers(0, 7))
        elif op == "duplicate":
            raw[i:i] = raw[max(0, i - 300) : i]
        elif op == "bomb":
            raw[i:i] = draw(st.sampled_from(_BOMBS)).encode()
        elif op == "truncate":
            del raw[i:]
    return path.name, bytes(raw)


def _check_text_mangled(tmp: Path, name_raw: tuple[str, bytes]) -> None:
    name, raw = name_raw
    path = tmp / name
    path.write_bytes(raw)
    started = time.process_time()
    try:
        model = load_toml_file(path)
    except DataError as exc:
        assert exc.problems and all(p.file == str(path) for p in exc.problems), exc.problems
    else:
        assert _load_text(to_toml(model.model_dump(mode="json")), name) == model
    assert time.process_time() - started < 2


@QUICK
@given(_text_mangled())
def test_text_mangled_files_load_or_are_refused_naming_the_file(
    tmp_path_factory: pytest.TempPathFactory, name_raw: tuple[str, bytes]
) -> None:
    _check_text_mangled(tmp_path_factory.mktemp("mangled"), name_raw)


# ---------------------------------------------------------------- the long run (pytest -m fuzz)
@pytest.mark.fuzz
@LONG
@given(_text_mangled())
def test_fuzz_text_mangled_files(
    tmp_path_factory: pytest.TempPathFactory, name_raw: tuple[str, bytes]
) -> None:
    _check_text_mangled(tmp_path_factory.mktemp("mangled"), name_raw)


@pytest.mark.fuzz
@LONG
@given(_value_mangled())
def test_fuzz_value_mangled_files_and_play_the_troupes_accepted(
    name_data: tuple[str, dict[str, Any]],
) -> None:
    _check_value_mangled(name_data, play=True)
