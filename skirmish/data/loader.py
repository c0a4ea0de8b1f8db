"""Reading TOML data files strictly: every problem reported, nothing half-loaded.

A file is read whole (size-capped, UTF-8 checked), parsed, validated by its pydantic model, then
cross-checked (names in the armoury, polygons that are real shapes). Any problem raises
`DataError` listing all problems found, each naming the file and the dotted field path.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

import shapely
from pydantic import BaseModel, ValidationError

from skirmish.data.armoury import Armoury
from skirmish.data.base import FIELD_ERROR
from skirmish.data.errors import DataError, Problem
from skirmish.data.limits import MAX_JSON_NESTING, MAX_MODELS_PER_GAME, check_json_text, check_toml_text
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe

MAX_FILE_BYTES = 1_000_000
"""No troupe or scenario comes near this; a larger file is refused before it is parsed."""

M = TypeVar("M", bound=BaseModel)
Kind = Literal["troupe", "scenario"]


_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_regular(st: os.stat_result) -> str | None:
    """What a non-regular file is (`a FIFO (named pipe)`), or None for a regular file."""
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISDIR(st.st_mode):
        return "a directory"
    return next((what for test, what in _KINDS if test(st.st_mode)), "not a regular file")


def read_text(path: Path, limit: int = MAX_FILE_BYTES, what: str = "data files") -> str:
    """The file's text, or `DataError` if it is missing, not a regular file, too large or not UTF-8 text.

    Only regular files are read: a FIFO, device or socket (also behind a symlink) could block
    `open()` forever or stream without end, so it is refused from `stat` before anything is
    opened. The file is then opened without blocking and checked again on the open descriptor
    (it may have been swapped in between), and at most `limit + 1` bytes are read. A leading
    UTF-8 byte-order mark (Windows editors add one) is dropped, since TOML and JSON parsers reject it.
    """
    name = str(path)

    def refuse(message: str) -> DataError:
        return DataError([Problem(name, "", message)])

    def check(st: os.stat_result) -> None:
        kind = _not_regular(st)
        if kind == "a directory":
            raise refuse("is a directory, not a file")
        if kind is not None:
            raise refuse(f"is {kind}, not a regular file; save it to a file and give that")
        if st.st_size > limit:
            raise refuse(f"is {st.st_size:,} bytes; {what} are at most {limit:,} bytes")

    try:
        check(os.stat(path))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise refuse(f"cannot read the file ({exc.strerror or exc})") from None
    try:
        with open(fd, "rb", closefd=True) as fh:
            check(os.fstat(fh.fileno()))
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise refuse(f"cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise refuse(f"is more than {limit:,} bytes; {what} are at most {limit:,} bytes")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        # Windows editors save "Unicode" as UTF-16 with this byte-order mark: text, but not UTF-8.
        raise refuse("is UTF-16 (or UTF-32) text, not UTF-8; save it as UTF-8")
    if b"\x00" in raw:
        raise refuse("is binary, not a text file")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise refuse(f"is not UTF-8 text (byte {exc.start})") from None


def check_size(text: str, name: str, limit: int = MAX_FILE_BYTES, what: str = "data files") -> None:
    """`read_text`'s size limit, with its words, for a text already read under a larger one (`validate`
    reads every file under the replays' limit before it knows what the file is)."""
    if len(text) * 4 <= limit:  # UTF-8 takes at most four bytes a character
        return
    size = len(text.encode("utf-8"))
    if size > limit:
        raise DataError([Problem(name, "", f"is {size:,} bytes; {what} are at most {limit:,} bytes")])


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """The TOML text as a dict, or `DataError`: too many keys, too deep, or not valid TOML.

    The key count and nesting are checked by a linear pre-scan first: `tomllib` takes quadratic
    time and memory in a dotted key's depth, so it must never see such a file.
    """
    check_toml_text(text, name)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError([Problem(name, "", f"is not valid TOML: {exc}")]) from None
    except ValueError:  # Python's int() limit on a literal of thousands of digits
        raise DataError([Problem(name, "", TOO_LONG_NUMBER)]) from None
    except RecursionError:
        # Belt and braces: the pre-scan already bounds nesting far below Python's recursion limit.
        raise DataError([Problem(name, "", "is nested too deeply to be a data file")]) from None


TOO_LONG_NUMBER = "holds a whole number of thousands of digits, too long to be read"
"""Python refuses to convert an integer literal of more than 4,300 digits (a `ValueError` that is no
decoding error): the one message for it in TOML and JSON files alike."""


class RefusedJSON(ValueError):
    """Valid JSON syntax that a Skirmish file never holds: a duplicate key, NaN or Infinity."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(why)
        self.field, self.why = field, why

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.field, self.why), self.__dict__)


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`object_pairs_hook`: a key given twice is refused (json's default keeps the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RefusedJSON(key, "is given twice (duplicate key)")
        out[key] = value
    return out


def no_json_constant(word: str) -> Any:
    """`parse_constant`: NaN, Infinity and -Infinity are not JSON numbers."""
    raise RefusedJSON("", f"holds {word}, which is not a JSON number")


def parse_json(text: str, name: str, max_nesting: int = MAX_JSON_NESTING) -> Any:
    """JSON text (replays, saves) parsed after a bounded-nesting pre-scan; `DataError` naming the file.

    As strict as the TOML files: NaN and Infinity (JSON has neither; Python's parser accepts them by
    default) and a key given twice (Python keeps the last one silently) are refused, naming the key.
    """
    check_json_text(text, name, max_nesting=max_nesting)
    return loads_strict(text, name)


def loads_strict(
    text: str, name: str, *, invalid: str = "is not valid JSON", nested: str = "is nested too deeply"
) -> Any:
    """`json.loads` as strictly as the TOML files are read (a leading BOM dropped; NaN, Infinity and
    duplicate keys refused, naming the key), every failure a `DataError` naming the file: the one
    reader of saves and replays, which word `invalid` and `nested` for what they expect."""
    try:
        return json.loads(
            text.removeprefix("\ufeff"), object_pairs_hook=no_duplicate_keys, parse_constant=no_json_constant
        )
    except RefusedJSON as exc:
        raise DataError([Problem(name, exc.field, exc.why)]) from None
    except json.JSONDecodeError as exc:
        kind = toml_kind(text)
        if kind is not None:  # `replay open_battle.toml`, `campaign --file team_avatar.toml`
            raise DataError(
                [Problem(name, "", f"is {kind} file (TOML), not JSON (a replay or a save)")]
            ) from None
        raise DataError(
            # json words one message `Unterminated string starting at`: no second "at".
            [
                Problem(
                    name,
                    "",
                    f"{invalid}: {exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}",
                )
            ]
        ) from None
    except ValueError:  # an integer literal of thousands of digits (Python's int() limit)
        raise DataError([Problem(name, "", TOO_LONG_NUMBER)]) from None
    except RecursionError:
        raise DataError([Problem(name, "", nested)]) from None


class Sniffed(NamedTuple):
    """What a text is at a glance (`sniff_json`): JSON or not, and the object it holds if it is one."""

    is_json: bool
    obj: dict[str, Any] | None

    @property
    def format(self) -> object:
        """The object's `format` (a replay's, a save's), or None."""
        return None if self.obj is None else self.obj.get("format")


def sniff_json(text: str) -> Sniffed:
    """Whether `text` is JSON, and the object it holds if it is a JSON object: read leniently (a key
    given twice, NaN), only to tell which kind of file it is; the reader of that kind then reads it
    strictly (`parse_json`) and says what is wrong. No TOML file parses as JSON, and one fails at its
    first key or table header, so sniffing a TOML file costs nothing."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return Sniffed(False, None)
    return Sniffed(True, value if isinstance(value, dict) else None)


def toml_kind(text: str) -> str | None:
    """`"a troupe"`, `"a scenario"` or `"a campaign"` if `text` is such a TOML file, else None: how a
    JSON reader names the data file it was given by mistake (the TOML readers name JSON likewise)."""
    if len(text) > MAX_FILE_BYTES:
        return None
    try:
        check_toml_text(text, "")
        data = tomllib.loads(text)
    except (DataError, tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None
    if "chapters" in data and "models" not in data:
        return "a campaign"
    kind = detect_kind(data)
    return None if kind is None else f"a {kind}"


def field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


_UNION_TAG = re.compile(r"^(float|int|bool|str|constrained-str|list\[.+\])$")
"""How pydantic names the member of a union (`special`'s and `params`' values) in an error's location."""

_KIND_WORDS = {
    "float": "a number",
    "int": "a whole number",
    "bool": "true or false",
    "str": "a string",
    "constrained-str": "a string",
    "list[constrained-str]": "a list of strings",
    "list[str]": "a list of strings",
    "list[int]": "a list of whole numbers",
}


def _fold_unions(errors: list[Any]) -> list[Any]:
    """One error per value that fits no member of a union, in place of one per member.

    Pydantic reports a value of `special` that is none of number, bool, string or list as six
    errors, each located under a member's tag (`special.turns.float`, `special.turns.list[int][0]`);
    a problem is one line naming the field, so they fold into one saying which kinds fit. For a list,
    the list member with the fewest complaints says what is wrong inside it.
    """
    out: list[Any] = []
    groups: dict[tuple[Any, ...], list[tuple[str, Any]]] = {}
    for err in errors:
        loc = tuple(err["loc"])
        cut = next(
            (i for i, part in enumerate(loc) if i and isinstance(part, str) and _UNION_TAG.match(part)), None
        )
        if cut is None:
            out.append(err)
            continue
        prefix = loc[:cut]
        if prefix not in groups:
            groups[prefix] = []
            out.append({"type": "union_fold", "loc": prefix})
        groups[prefix].append((str(loc[cut]), err))
    for err in out:
        if err["type"] != "union_fold":
            continue
        members = groups[err["loc"]]
        tags = list(dict.fromkeys(tag for tag, _ in members))
        kinds = list(dict.fromkeys(_KIND_WORDS.get(tag, tag) for tag in tags))
        msg = "must be " + ", ".join(kinds[:-1]) + (" or " if len(kinds) > 1 else "") + kinds[-1]
        inner = [
            (tag, e) for tag, e in members if tag.startswith("list[") and len(e["loc"]) > len(err["loc"]) + 1
        ]
        if inner:
            counts = {tag: sum(1 for t, _ in inner if t == tag) for tag, _ in inner}
            best = min(counts, key=lambda t: counts[t])
            first = next(e for tag, e in inner if tag == best)
            at = field_path(tuple(first["loc"])[len(err["loc"]) + 1 :])
            msg += f"; as {_KIND_WORDS.get(best, best)}, {at}: {first['msg']}"
        err["msg"] = msg
    return out


UNKNOWN_KEY = "unknown key (not part of the format)"
"""The message of a key the format lacks (a model can still be built without it: `validate_leniently`)."""


def validation_problems(exc: ValidationError, name: str) -> list[Problem]:
    problems = []
    for err in _fold_unions(list(exc.errors(include_url=False))):
        msg = err["msg"]
        loc = tuple(err["loc"])
        if err["type"] == FIELD_ERROR:
            # A model-level check naming the field inside the model it is about (`models[2].profile.name`).
            ctx = err.get("ctx") or {}
            inner = str(ctx.get("field", ""))
            where = field_path(loc)
            path = where + ("" if not inner else inner if inner.startswith("[") or not where else "." + inner)
            problems.append(Problem(name, path or "(top level)", str(ctx.get("message", msg))))
            continue
        if err["type"] == "extra_forbidden":
            msg = UNKNOWN_KEY
        elif err["type"] == "missing":
            msg = "required field is missing"
        elif err["type"] == "value_error":
            msg = msg.removeprefix("Value error, ")  # a model check's own sentence, without pydantic's tag
        elif isinstance(err.get("input"), float) and not math.isfinite(err["input"]):
            msg = f"must be a finite number, not {err['input']}"
        problems.append(Problem(name, field_path(loc) or "(top level)", msg))
    return problems


def _strict(model: type[M], data: Any) -> M:
    """`model` from `data`, validated as strict JSON so a string is never coerced into a number or
    a bool (`hp = "3"`, `flying = "yes"` are errors), while enums still accept their string values.
    TOML dates, which JSON lacks, become strings and so fail wherever a number is expected. Raises
    pydantic's `ValidationError`."""
    return model.model_validate_json(json.dumps(data, default=str), strict=True)


def validate_model(model: type[M], data: dict[str, Any], name: str) -> M:
    try:
        return _strict(model, data)
    except ValidationError as exc:
        raise DataError(validation_problems(exc, name)) from None


def validate_leniently(model: type[M], data: dict[str, Any], name: str) -> tuple[M | None, list[Problem]]:
    """Every problem `validate_model` finds, and the model if one can still be built to check further:
    the file's own when it is valid, else the one its data gives with the unknown keys set aside
    (a misspelt key hides nothing else: the next stages, the armoury names, the polygons, the
    building rules, still run on the rest); None when other fields are wrong too."""
    try:
        return _strict(model, data), []
    except ValidationError as exc:
        problems = validation_problems(exc, name)
        unknown = [tuple(e["loc"]) for e in exc.errors() if e["type"] == "extra_forbidden"]
        if len(unknown) != len(exc.errors()):
            return None, problems
    try:
        trimmed = json.loads(json.dumps(data, default=str))
        for loc in unknown:
            node: Any = trimmed
            for part in loc[:-1]:
                node = node[part]
            del node[loc[-1]]
        return _strict(model, trimmed), problems
    except ValidationError as hidden:  # a model check the unknown keys hid: said in this run too
        return None, add_new(problems, validation_problems(hidden, name))
    except (LookupError, TypeError):  # a location inside something other than a table
        return None, problems


def _covered(field: str, reported: set[str]) -> bool:
    """Whether a problem at `field` is one already said: the same field, or one inside a field
    reported as wrong (`models[0].profile.weapons` too long covers `...weapons[3]`)."""
    return any(field == f or field.startswith((f + ".", f + "[")) for f in reported)


def add_new(problems: list[Problem], more: list[Problem]) -> list[Problem]:
    """`problems` followed by those of `more` at a field none of `problems` covers (`_covered`): a
    later stage's check of a field an earlier stage already refused says nothing new."""
    reported = {p.field for p in problems}
    return problems + [p for p in more if not _covered(p.field, reported)]


def detect_kind(data: dict[str, Any]) -> Kind | None:
    """Tell troupes from scenarios by their keys (`models` vs `deployment`/`board`)."""
    if "models" in data:
        return "troupe"
    if "deployment" in data or "board" in data or "sides" in data:
        return "scenario"
    return None


@functools.cache
def standard_armoury() -> Armoury:
    """The rulebook's standard armours, shields, weapons and abilities, shipped with the package."""
    text = resources.files("skirmish.data").joinpath("armoury.toml").read_text(encoding="utf-8")
    return validate_model(
        Armoury, parse_toml(text, "skirmish/data/armoury.toml"), "skirmish/data/armoury.toml"
    )


def troupe_armoury(troupe: Troupe) -> Armoury:
    """The standard armoury plus the troupe's own items."""
    return standard_armoury().merged(troupe.armoury)


def check_troupe_references(troupe: Troupe, name: str) -> list[Problem]:
    """Every armour, shield, weapon and ability a profile names must exist."""
    try:
        arm = troupe_armoury(troupe)
    except ValidationError as exc:
        return [Problem(name, "armoury." + p.field, p.message) for p in validation_problems(exc, name)]
    known = _names(arm)
    uses = [
        (i, e.profile.armour, e.profile.shield, list(e.profile.weapons), list(e.profile.abilities))
        for i, e in enumerate(troupe.models)
    ]
    return _unknown_items(uses, known, name)


def _names(arm: Armoury) -> dict[str, set[str]]:
    """The armoury's item names by kind (`armour`, `shield`, `weapon`, `ability`): what a profile
    may name."""
    return {
        "armour": set(arm.armour_by_name()),
        "shield": set(arm.shield_by_name()),
        "weapon": set(arm.weapon_by_name()),
        "ability": set(arm.ability_by_name()),
    }


Uses = Sequence[tuple[int, object, object, Sequence[object], Sequence[object]]]
"""Per model entry: its index, and the armour, shield, weapons and abilities its profile names."""


def _unknown_items(uses: Uses, known: dict[str, set[str]], name: str) -> list[Problem]:
    """A problem for each name (a string) in `uses` that `known` lacks; anything else is the
    schema's to refuse."""
    problems: list[Problem] = []

    def check(field: str, kind: str, item: object) -> None:
        if isinstance(item, str) and item not in known[kind]:
            problems.append(Problem(name, field, f"no {kind} named `{item}` in the armoury"))

    for i, armour, shield, weapons, abilities in uses:
        base = f"models[{i}].profile"
        if armour is not None:
            check(f"{base}.armour", "armour", armour)
        if shield is not None:
            check(f"{base}.shield", "shield", shield)
        for j, w in enumerate(weapons):
            check(f"{base}.weapons[{j}]", "weapon", w)
        for j, a in enumerate(abilities):
            check(f"{base}.abilities[{j}]", "ability", a)
    return problems


def raw_reference_problems(data: dict[str, Any], name: str) -> list[Problem]:
    """`check_troupe_references` on a troupe file's raw data, for a file whose schema problems leave
    no troupe to check: each name a profile gives as a string must be in the standard armoury or
    named by an item of the file's own `armoury` (valid or not: an item the schema refuses is
    reported there, not again as missing)."""
    known = _names(standard_armoury())
    own = data.get("armoury")
    if isinstance(own, dict):
        for key, kind in (
            ("armour", "armour"),
            ("shields", "shield"),
            ("weapons", "weapon"),
            ("abilities", "ability"),
        ):
            items = own.get(key)
            for item in items if isinstance(items, list) else []:
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    known[kind].add(item["name"])
    models = data.get("models")
    uses: list[tuple[int, object, object, Sequence[object], Sequence[object]]] = []
    for i, entry in enumerate(models if isinstance(models, list) else []):
        profile = entry.get("profile") if isinstance(entry, dict) else None
        if not isinstance(profile, dict):
            continue
        lists = [profile.get(k) for k in ("weapons", "abilities")]
        weapons, abilities = (x if isinstance(x, list) else [] for x in lists)
        uses.append((i, profile.get("armour"), profile.get("shield"), weapons, abilities))
    return _unknown_items(uses, known, name)


def check_scenario_geometry(scenario: Scenario, name: str) -> list[Problem]:
    """Every polygon must be a simple shape with area (a self-crossing outline is refused)."""
    groups: list[tuple[str, Sequence[Any]]] = [
        ("terrain", scenario.terrain),
        ("deployment", scenario.deployment),
        ("scoring.zones", scenario.scoring.zones),
    ]
    outlines = [
        (f"{label}[{i}].polygon", item.polygon) for label, items in groups for i, item in enumerate(items)
    ]
    return _outline_problems(outlines, name)


def _outline_problems(outlines: list[tuple[str, Any]], name: str) -> list[Problem]:
    problems: list[Problem] = []
    for field, polygon in outlines:
        poly = shapely.Polygon(polygon)
        if not poly.is_valid:
            why = shapely.is_valid_reason(poly)
            problems.append(Problem(name, field, f"is not a simple polygon ({why})"))
        elif poly.area <= 1e-6:
            problems.append(Problem(name, field, "has no area"))
    return problems


def _outline(value: object) -> bool:
    """Whether a raw value is an outline the schema takes: 3 to 256 points of two finite numbers."""
    if not isinstance(value, list) or not 3 <= len(value) <= 256:
        return False
    return all(
        isinstance(pt, list)
        and len(pt) == 2
        and all(isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c) for c in pt)
        for pt in value
    )


def raw_geometry_problems(data: dict[str, Any], name: str) -> list[Problem]:
    """`check_scenario_geometry` on a scenario file's raw data, for a file whose schema problems
    leave no scenario to check: each outline of the schema's shape is checked (any other is the
    schema's to refuse)."""
    scoring = data.get("scoring")
    groups = [
        ("terrain", data.get("terrain")),
        ("deployment", data.get("deployment")),
        ("scoring.zones", scoring.get("zones") if isinstance(scoring, dict) else None),
    ]
    outlines = [
        (f"{label}[{i}].polygon", item["polygon"])
        for label, items in groups
        for i, item in enumerate(items if isinstance(items, list) else [])
        if isinstance(item, dict) and _outline(item.get("polygon"))
    ]
    return _outline_problems(outlines, name)


def troupe_problems(data: dict[str, Any], name: str) -> tuple[Troupe | None, list[Problem]]:
    """Every problem of a troupe file's data, the schema's and the armoury names' together (one run
    says them all), and the troupe when one can be built to check further (`validate_leniently`)."""
    troupe, problems = validate_leniently(Troupe, data, name)
    refs = check_troupe_references(troupe, name) if troupe is not None else raw_reference_problems(data, name)
    return troupe, add_new(problems, refs)


def scenario_problems(data: dict[str, Any], name: str) -> tuple[Scenario | None, list[Problem]]:
    """Every problem of a scenario file's data, the schema's and the outlines' together, and the
    scenario when one can be built to check further (`validate_leniently`)."""
    scenario, problems = validate_leniently(Scenario, data, name)
    shapes = (
        check_scenario_geometry(scenario, name) if scenario is not None else raw_geometry_problems(data, name)
    )
    return scenario, add_new(problems, shapes)


def load_troupe_data(data: dict[str, Any], name: str) -> Troupe:
    troupe, problems = troupe_problems(data, name)
    if problems or troupe is None:
        raise DataError(problems)
    return troupe


def load_scenario_data(data: dict[str, Any], name: str) -> Scenario:
    scenario, problems = scenario_problems(data, name)
    if problems or scenario is None:
        raise DataError(problems)
    return scenario


def load_toml_file(path: str | Path, expect: Kind | None = None) -> Troupe | Scenario:
    """Load a troupe or scenario file, checked whole; raises `DataError` with every problem."""
    p = Path(path)
    name = str(path)
    text = read_text(p)
    if text.lstrip().startswith("{"):  # no TOML document starts so: a replay or save given by mistake
        what = f"a {expect}" if expect is not None else "a troupe or scenario"
        raise DataError([Problem(name, "", f"is JSON (a replay or a save?), not {what} file (TOML)")])
    data = parse_toml(text, name)
    kind = detect_kind(data)
    if expect is not None and kind != expect:
        raise DataError(
            [
                Problem(
                    name,
                    "",
                    f"is not a {expect} file (it has no `"
                    f"{'models' if expect == 'troupe' else 'deployment'}` table)",
                )
            ]
        )
    if kind == "troupe":
        return load_troupe_data(data, name)
    if kind == "scenario":
        return load_scenario_data(data, name)
    raise DataError([Problem(name, "", "is neither a troupe (no `models`) nor a scenario (no `deployment`)")])


def load_troupe(path: str | Path) -> Troupe:
    result = load_toml_file(path, "troupe")
    assert isinstance(result, Troupe)
    return result


def load_scenario(path: str | Path) -> Scenario:
    result = load_toml_file(path, "scenario")
    assert isinstance(result, Scenario)
    return result


def game_size_problems(troupes: list[Troupe], name: str, field: str = "sides") -> list[Problem]:
    """A game's models, all sides together, must stay within `MAX_MODELS_PER_GAME` (its cost grows
    with the square of the models on the table); `name` and `field` say where the troupes came from."""
    total = sum(t.model_count() for t in troupes)
    if total <= MAX_MODELS_PER_GAME:
        return []
    counts = " + ".join(str(t.model_count()) for t in troupes)
    return [
        Problem(
            name, field, f"{counts} = {total} models in one game; a game has at most {MAX_MODELS_PER_GAME}"
        )
    ]
