"""Campaigns: the Pursuit played as Boxes in order (the seven Boxes of Aang's Destiny, R-X3).

A campaign file (`skirmish/content/scenarios/campaign/*.toml`, strictly validated) names a base
scenario — a Pursuit — the pool of Fire Nation cards and adversaries with the **range of Boxes**
each is used in (as the source's cards carry), and its chapters (Boxes) in story order. Each Box
plays the cards and adversaries whose range covers it, may override the scenario's other
`special` keys (Tracking, objectives, how many adversaries are active at once...), its turn cap
and the heroes' troupe (Toph joins in Box 2), and grants rewards when won: a hero's stat raised or
an ability learnt, carried into every later Box (the seed's Reward cards join the heroes' decks).

The save (JSON, a strict model: `skirmish schema campaign`) keeps which Box is next, the rewards
carried over and every attempt. Winning a Box opens the next one; losing resets the Box to its
starting configuration (the rewards already earned are kept) to be tried again. It is written
atomically under an exclusive lock, re-read inside the lock, so two runs recording at once both
land (`update_save`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from skirmish.data.base import Name, Strict, Text, Title
from skirmish.data.catalogue import content_root, find_scenario, find_troupe
from skirmish.data.errors import DataError, Problem
from skirmish.data.loader import (
    check_size,
    parse_json,
    parse_toml,
    read_text,
    troupe_armoury,
    validate_model,
)
from skirmish.data.scenario import Scenario, Victory
from skirmish.data.troupe import Troupe
from skirmish.engine.replay import write_atomic
from skirmish.engine.scenarios import PURSUIT_KEYS, parse_config
from skirmish.rules.dice import derive_seed

SAVE_FORMAT: Literal["skirmish-campaign"] = "skirmish-campaign"
SAVE_VERSION: Literal[1] = 1
DEFAULT_CAMPAIGN = "aangs_destiny"
STATS = ("hp", "ap", "move", "ranged", "dodge", "combat", "perception")
OVERRIDABLE = PURSUIT_KEYS - {"campaign", "chapter"}

SpecialValue = float | int | bool | str | list[str] | list[int]


class Reward(Strict):
    """A lasting gain for one hero: `stat` raised by `amount`, or `ability` learnt."""

    hero: Name = Field(description="Profile name of the hero in the heroes' troupe, e.g. `katara`.")
    stat: Literal["hp", "ap", "move", "ranged", "dodge", "combat", "perception"] | None = Field(
        default=None, description="Stat raised."
    )
    amount: int = Field(default=1, ge=1, le=3, description="How much the stat rises.")
    ability: Name | None = Field(
        default=None, description="Ability (from the troupe's armoury) the hero learns."
    )
    text: Text = Field(default="", description="What happened, for the players.")

    @model_validator(mode="after")
    def _one_kind(self) -> Reward:
        if (self.stat is None) == (self.ability is None):
            raise ValueError("a reward raises a `stat` or teaches an `ability` (exactly one)")
        return self

    def describe(self) -> str:
        what = f"+{self.amount} {self.stat}" if self.stat else f"learns {self.ability}"
        return f"{self.hero} {what}" + (f" ({self.text})" if self.text else "")


BoxRange = Annotated[list[Annotated[int, Field(ge=1, le=20)]], Field(min_length=2, max_length=2)]


class PoolCard(Strict):
    """A Fire Nation card and the Boxes it is used in (first, last), as printed on the source's cards."""

    card: Annotated[str, Field(max_length=80)] = Field(description="`name:effect:amount`, as `event_deck`.")
    boxes: BoxRange = Field(description="[first, last] Box this card is used in.")


class PoolAdversary(Strict):
    """An adversary card: the model, how many, the Boxes it is used in, its ability and its reward."""

    model: Name = Field(description="Profile name in the adversaries' troupe.")
    count: int = Field(default=1, ge=1, le=6, description="How many of this card are in the stack.")
    boxes: BoxRange = Field(description="[first, last] Box this adversary is used in.")
    abilities: Annotated[list[Annotated[str, Field(max_length=60)]], Field(max_length=4)] = Field(
        default_factory=list, description="`trigger:effect:amount` each, as `adversary_abilities`."
    )
    reward: Annotated[str, Field(max_length=60)] | None = Field(
        default=None, description="`effect:amount` gained at once when it is defeated."
    )


class Chapter(Strict):
    """One chapter (a Box): a variant of the base scenario."""

    name: Name = Field(description="Identifier, e.g. `box_1`.")
    title: Title = Field(description="Shown to players.")
    description: Text = Field(default="", description="The story of this chapter.")
    turns: int | None = Field(default=None, ge=1, le=50, description="Turn cap (default: the scenario's).")
    heroes: Name | None = Field(default=None, description="The heroes' troupe (default: the scenario's).")
    special: dict[str, SpecialValue] = Field(
        default_factory=dict, description="Overrides of the scenario's Pursuit `special` keys."
    )
    rewards: Annotated[list[Reward], Field(max_length=8)] = Field(
        default_factory=list, description="Gains kept for every later chapter when this one is won."
    )


class Campaign(Strict):
    """A campaign file."""

    name: Name = Field(description="Identifier, e.g. `aangs_destiny`.")
    title: Title
    description: Text = ""
    scenario: Name = Field(description="The base scenario (a Pursuit), by shipped name.")
    cards: Annotated[list[PoolCard], Field(max_length=200)] = Field(
        default_factory=list, description="Every Fire Nation card with its Box range (none: the scenario's)."
    )
    adversaries: Annotated[list[PoolAdversary], Field(max_length=60)] = Field(
        default_factory=list, description="Every adversary card with its Box range (none: the scenario's)."
    )
    chapters: Annotated[list[Chapter], Field(min_length=1, max_length=20)]


class Played(Strict):
    """One game of the campaign, for the record (every attempt, won or lost)."""

    chapter: Name = Field(description="The Box played, e.g. `box_1`.")
    attempt: int = Field(ge=1, le=1_000_000, description="Which attempt at that Box this was.")
    seed: int = Field(ge=0, description="The game's seed (replay it with `skirmish play`).")
    won: bool
    reason: Annotated[str, Field(max_length=300)] = Field(description="Why the game ended.")
    turns: int = Field(ge=0, le=1000)


class CampaignSave(Strict):
    """The save file: where the campaign stands (`skirmish schema campaign`)."""

    format: Literal["skirmish-campaign"] = SAVE_FORMAT
    version: Literal[1] = SAVE_VERSION
    campaign: Name
    chapter: int = Field(
        default=0, ge=0, le=20, description="Index of the next Box; = number of Boxes when done."
    )
    attempts: int = Field(default=0, ge=0, le=1_000_000, description="Games lost at the current Box.")
    revision: int = Field(default=0, ge=0, description="Writes so far (each recorded game adds one).")
    rewards: Annotated[list[Reward], Field(max_length=200)] = Field(default_factory=list)
    history: Annotated[list[Played], Field(max_length=10_000)] = Field(default_factory=list)


# ----------------------------------------------------------------- loading
def campaign_path(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix == ".toml" or "/" in name_or_path:
        return p
    return content_root() / "scenarios" / "campaign" / f"{name_or_path}.toml"


def load_campaign(name_or_path: str = DEFAULT_CAMPAIGN) -> Campaign:
    """Read a campaign file and check every chapter builds a valid Pursuit; `DataError` lists all problems."""
    return load_campaign_heroes(name_or_path)[0]


def load_campaign_heroes(name_or_path: str = DEFAULT_CAMPAIGN) -> tuple[Campaign, list[Troupe]]:
    """`load_campaign`, with the heroes' troupes its checks built (each distinct troupe once, in
    chapter order): the troupes a save's rewards must name (`check_save`), not built again for it."""
    path = campaign_path(name_or_path)
    name = str(path)
    if not path.exists() and path.parent == campaign_path(DEFAULT_CAMPAIGN).parent:
        known = ", ".join(sorted(p.stem for p in path.parent.glob("*.toml")))
        raise DataError([Problem(name_or_path, "", f"no campaign of that name (known: {known})")])
    camp = validate_model(Campaign, parse_toml(read_text(path), name), name)
    problems: list[Problem] = []
    try:
        base = find_scenario(camp.scenario)
    except DataError as exc:
        raise DataError([Problem(name, "scenario", str(p)) for p in exc.problems]) from None
    if base.victory is not Victory.pursuit:
        raise DataError(
            [Problem(name, "scenario", f"`{camp.scenario}` is not a Pursuit (victory `pursuit`)")]
        )
    try:
        troupes = [find_troupe(side.troupe) for side in base.sides if side.troupe]
    except DataError as exc:  # a user's own base scenario naming a troupe that is not there
        raise DataError(
            [Problem(name, "scenario", f"`{camp.scenario}`: {p}") for p in exc.problems]
        ) from None
    if len(troupes) != len(base.sides):
        raise DataError([Problem(name, "scenario", "every side of the base scenario needs a default troupe")])
    pools = (("cards", [c.boxes for c in camp.cards]), ("adversaries", [a.boxes for a in camp.adversaries]))
    for key, ranges in pools:
        for j, (lo, hi) in enumerate(ranges):
            if lo > hi:
                problems.append(Problem(name, f"{key}[{j}].boxes", f"Box {lo} is after Box {hi}"))
    seen: set[str] = set()
    heroes: dict[str, Troupe] = {}
    for i, ch in enumerate(camp.chapters):
        where = f"chapters[{i}]"
        if ch.name in seen:
            problems.append(Problem(name, f"{where}.name", f"chapter `{ch.name}` appears twice"))
        seen.add(ch.name)
        for key in sorted(set(ch.special) - OVERRIDABLE):
            problems.append(Problem(name, f"{where}.special.{key}", "not a Pursuit key a chapter may set"))
        try:
            scenario, chapter_troupes = box_troupes(camp, i, base, troupes)
        except DataError as exc:  # the chapter's own `heroes` troupe cannot be found
            problems.extend(
                Problem(name, f"{where}.heroes", f"`{ch.heroes}`: {p.message}") for p in exc.problems
            )
            continue
        try:
            parse_config(scenario, chapter_troupes)
        except DataError as exc:
            problems.extend(Problem(name, f"{where}.{p.field}", p.message) for p in exc.problems)
            continue
        hero = hero_troupe(scenario, chapter_troupes)
        heroes.setdefault(hero.name, hero)
        problems.extend(reward_problems(ch.rewards, [hero], name, f"{where}."))
    if problems:
        raise DataError(problems)
    return camp, list(heroes.values())


def campaign_heroes(camp: Campaign) -> list[Troupe]:
    """The heroes' troupes of every chapter, each distinct troupe once, in chapter order (what
    `load_campaign_heroes` returns, for a campaign that came some other way)."""
    base = find_scenario(camp.scenario)
    troupes = [find_troupe(side.troupe) for side in base.sides if side.troupe]
    heroes: dict[str, Troupe] = {}
    for i in range(len(camp.chapters)):
        hero = hero_troupe(*box_troupes(camp, i, base, troupes))
        heroes.setdefault(hero.name, hero)
    return list(heroes.values())


def reward_problems(rewards: list[Reward], heroes: list[Troupe], name: str, where: str = "") -> list[Problem]:
    """Rewards naming a hero none of the `heroes` troupes has, or an ability no armoury of them holds.

    `with_rewards` applies a reward only to a hero it finds, so without this check a misspelt hero or
    ability in a campaign file or an edited save would be carried silently and never given."""
    problems: list[Problem] = []
    # Each armoury built once (a merged armoury per troupe), not once per reward.
    abilities = (
        [troupe_armoury(t).ability_by_name() for t in heroes]
        if any(r.ability is not None for r in rewards)
        else []
    )
    for j, r in enumerate(rewards):
        if not any(e.profile.name == r.hero for t in heroes for e in t.models):
            which = " or ".join(f"`{t.name}`" for t in heroes)
            problems.append(Problem(name, f"{where}rewards[{j}].hero", f"{which} has no hero `{r.hero}`"))
        if r.ability is not None and not any(r.ability in known for known in abilities):
            problems.append(
                Problem(name, f"{where}rewards[{j}].ability", f"no ability `{r.ability}` in the armoury")
            )
    return problems


def chapter_scenario(camp: Campaign, index: int, base: Scenario | None = None) -> Scenario:
    """The base scenario with chapter `index`'s overrides: its own title, turn limit and special keys."""
    base = base if base is not None else find_scenario(camp.scenario)
    ch = camp.chapters[index]
    special = {**base.special, **box_content(camp, index + 1), **ch.special}
    special.update(campaign=camp.name, chapter=index + 1)
    update: dict[str, Any] = {
        "special": special,
        "title": f"{camp.title}, chapter {index + 1}: {ch.title}"[:120],
        "description": ch.description or base.description,
    }
    if ch.turns is not None:
        update["turns"] = ch.turns
    return base.model_copy(update=update)


def in_box(boxes: list[int], box: int) -> bool:
    return boxes[0] <= box <= boxes[1]


def box_content(camp: Campaign, box: int) -> dict[str, Any]:
    """The Pursuit keys of Box `box` built from the pools: the cards and adversaries whose range
    covers it (the deck, the adversary stack, their abilities and rewards)."""
    out: dict[str, Any] = {}
    if camp.cards:
        out["event_deck"] = [c.card for c in camp.cards if in_box(c.boxes, box)]
    if camp.adversaries:
        advs = [a for a in camp.adversaries if in_box(a.boxes, box)]
        out["adversary_stack"] = [a.model for a in advs for _ in range(a.count)]
        out["adversary_abilities"] = [f"{a.model}:{x}" for a in advs for x in a.abilities]
        out["adversary_rewards"] = [f"{a.model}:{a.reward}" for a in advs if a.reward]
    return out


def hero_side(scenario: Scenario) -> int:
    name = scenario.special.get("hero_side")
    return next(i for i, s in enumerate(scenario.sides) if s.name == name)


def hero_troupe(scenario: Scenario, troupes: list[Troupe]) -> Troupe:
    return troupes[hero_side(scenario)]


def with_rewards(troupe: Troupe, rewards: list[Reward]) -> Troupe:
    """The heroes' troupe with every carried reward applied (stats capped at the profile limits)."""
    caps = {"hp": 30, "ap": 20, "move": 24, "ranged": 10, "dodge": 10, "combat": 10, "perception": 6}
    models = []
    for entry in troupe.models:
        prof = entry.profile
        changes: dict[str, Any] = {}
        for r in rewards:
            if r.hero != prof.name:
                continue
            if r.stat is not None:
                current = changes.get(r.stat, getattr(prof, r.stat))
                changes[r.stat] = min(caps[r.stat], current + r.amount)
            elif r.ability is not None:
                abilities = changes.get("abilities", list(prof.abilities))
                if r.ability not in abilities:
                    changes["abilities"] = [*abilities, r.ability]
        models.append(
            entry.model_copy(update={"profile": prof.model_copy(update=changes)}) if changes else entry
        )
    return troupe.model_copy(update={"models": models})


def chapter_setup(camp: Campaign, save: CampaignSave) -> tuple[Scenario, list[Troupe]]:
    """The scenario and troupes of the save's next chapter, rewards applied."""
    if save.chapter >= len(camp.chapters):
        raise ValueError("the campaign is complete")
    return box_setup(camp, save.chapter, list(save.rewards))


def box_setup(camp: Campaign, index: int, rewards: list[Reward]) -> tuple[Scenario, list[Troupe]]:
    """Box `index`'s scenario and troupes with `rewards` carried into the heroes' troupe."""
    scenario, troupes = box_troupes(camp, index)
    h = hero_side(scenario)
    troupes[h] = with_rewards(troupes[h], rewards)
    return scenario, troupes


def box_troupes(
    camp: Campaign, index: int, base: Scenario | None = None, troupes: list[Troupe] | None = None
) -> tuple[Scenario, list[Troupe]]:
    """Box `index`'s scenario and troupes as the campaign file gives them, before any reward; `base`
    and its default `troupes` are found from the campaign's scenario when not given."""
    scenario = chapter_scenario(camp, index, base)
    if troupes is None:
        troupes = [find_troupe(side.troupe) for side in scenario.sides if side.troupe]
    return scenario, with_chapter_heroes(scenario, troupes, camp.chapters[index])


def with_chapter_heroes(scenario: Scenario, troupes: list[Troupe], ch: Chapter) -> list[Troupe]:
    """`troupes` (a new list) with the chapter's own hero troupe, if it names one, on the heroes' side."""
    out = list(troupes)
    if ch.heroes is not None:
        out[hero_side(scenario)] = find_troupe(ch.heroes)
    return out


def rewards_before(camp: Campaign, index: int) -> list[Reward]:
    """Every reward of the Boxes before `index`: what the heroes carry when they reach it."""
    return [r for ch in camp.chapters[:index] for r in ch.rewards]


def chapter_seed(save: CampaignSave) -> int:
    """A different, reproducible seed for every attempt at every chapter."""
    return derive_seed(0xA4A, save.chapter, save.attempts)


# ----------------------------------------------------------------- the save
def new_save(camp: Campaign) -> CampaignSave:
    return CampaignSave(campaign=camp.name)


def load_save(path: str | Path, camp: Campaign, heroes: list[Troupe] | None = None) -> CampaignSave:
    """The save at `path`, or a fresh one if there is none, checked against `camp` (`check_save`);
    `DataError` naming the field if it is damaged."""
    save = read_save(path)
    return new_save(camp) if save is None else check_save(save, camp, str(Path(path)), heroes)


def read_save(path: str | Path) -> CampaignSave | None:
    """The save at `path` read strictly (`parse_save`), or None if there is no file."""
    p = Path(path)
    if not p.exists():
        return None
    return parse_save(read_text(p), str(p))


def parse_save(text: str, name: str) -> CampaignSave:
    """A save from its JSON text, as strictly as a replay, not yet checked against its campaign.

    Bounded nesting, no NaN, no key given twice (json.loads would keep the last one silently), at
    most `MAX_FILE_BYTES` like every data file. `DataError` naming the file and the field."""
    check_size(text, name)
    data = parse_json(text, name)
    if not isinstance(data, dict):
        raise DataError([Problem(name, "", "a campaign save is a JSON object")])
    return validate_model(CampaignSave, data, name)


def check_save(
    save: CampaignSave, camp: Campaign, name: str, heroes: list[Troupe] | None = None
) -> CampaignSave:
    """`save` if it fits `camp` (its campaign, a chapter it has, rewards for heroes and abilities its
    heroes' troupes have), else `DataError` naming the field. `heroes` are the campaign's heroes'
    troupes (`load_campaign_heroes`), built from `camp` when not given."""
    if save.campaign != camp.name:
        raise DataError([Problem(name, "campaign", f"this save is for `{save.campaign}`, not `{camp.name}`")])
    if save.chapter > len(camp.chapters):
        raise DataError(
            [Problem(name, "chapter", f"{save.chapter} is beyond the {len(camp.chapters)} chapters")]
        )
    if save.rewards:
        troupes = heroes if heroes is not None else campaign_heroes(camp)
        problems = reward_problems(list(save.rewards), troupes, name)
        if problems:
            raise DataError(problems)
    return save


def write_save(path: str | Path, save: CampaignSave) -> None:
    write_atomic(
        path, json.dumps(save.model_dump(mode="json"), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    )


@contextmanager
def save_lock(path: str | Path) -> Iterator[None]:
    """An exclusive lock on `SAVE.lock` beside the save (POSIX `flock`; it is released if the process
    dies), so only one run reads-modifies-writes the save at a time."""
    import fcntl

    lock = Path(f"{path}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def update_save(
    path: str | Path,
    camp: Campaign,
    change: Callable[[CampaignSave], CampaignSave],
    heroes: list[Troupe] | None = None,
) -> CampaignSave:
    """Apply `change` to the save as it is on disk *now* (re-read under the lock) and write it.

    A game is played outside the lock; its result is applied to whatever the save holds by then,
    so a second `campaign play` that finished first is never overwritten: both games are recorded.
    """
    with save_lock(path):
        fresh = load_save(path, camp, heroes)
        new = change(fresh)
        new = new.model_copy(update={"revision": fresh.revision + 1})
        write_save(path, new)
        return new


def is_complete(camp: Campaign, save: CampaignSave) -> bool:
    return save.chapter >= len(camp.chapters)


def record(
    camp: Campaign,
    save: CampaignSave,
    *,
    won: bool,
    seed: int,
    reason: str,
    turns: int,
    chapter: int | None = None,
) -> CampaignSave:
    """The save after a game of Box `chapter` (default: the current one): won opens the next Box,
    lost resets this one. A game of a Box the save has already moved past (another run won it
    meanwhile) is only added to the record."""
    index = save.chapter if chapter is None else chapter
    ch = camp.chapters[index]
    attempt = 1 + sum(1 for p in save.history if p.chapter == ch.name)
    played = Played(chapter=ch.name, attempt=attempt, seed=seed, won=won, reason=reason[:300], turns=turns)
    history = [*save.history, played]
    if index != save.chapter:
        return save.model_copy(update={"history": history})
    if won:
        return save.model_copy(
            update={
                "chapter": save.chapter + 1,
                "attempts": 0,
                "rewards": [*save.rewards, *ch.rewards],
                "history": history,
            }
        )
    return save.model_copy(update={"attempts": save.attempts + 1, "history": history})


def heroes_won(scenario: Scenario, state_winning_team: int | None) -> bool:
    side = scenario.sides[hero_side(scenario)]
    team = side.team if side.team >= 0 else 100 + hero_side(scenario)
    return state_winning_team is not None and state_winning_team == team
