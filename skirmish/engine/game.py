"""A game of Battles in the Four Kingdoms: the phase machine, validation and application of actions.

`Game.legal_actions()` generates, `Game.apply(action)` validates and applies (design principle 3).
An illegal action raises `IllegalAction` naming the rule, and the state is restored from a snapshot
taken before the action, so a refusal can never leave a half-applied move behind. The rules of
each step live in their own modules (`movement`, `shooting`, `charges`, `melee`, `end_phase`,
`abilities`); this module runs the turn from the table in `phases`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skirmish.battlefield.table import Table
from skirmish.data.armoury import Armoury
from skirmish.data.loader import troupe_armoury
from skirmish.data.options import RuleOptions
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine import rulebook
from skirmish.engine.core.actions import Action, Decline, EndStep
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.flow import StepSpec
from skirmish.engine.core.log import Event
from skirmish.engine.core.names import display_names
from skirmish.engine.core.state import GameState, ModelState, Pending, PlayerState, state_hash
from skirmish.engine.geometry import TableQueries
from skirmish.engine.inputs import resolve_game_inputs
from skirmish.engine.observe import observation
from skirmish.engine.scenarios import rules_for
from skirmish.engine.skips import note_skip
from skirmish.engine.snapshots import Snapshots, _Snapshot
from skirmish.engine.turn_order import TurnOrder, for_options
from skirmish.rules.dice import Dice, NoRolls, WouldRoll


class Game(TableQueries, Snapshots):
    """One game: scenario, troupes, options, seed, the state, the log and the action history."""

    def __init__(
        self,
        scenario: Scenario,
        troupes: Sequence[Troupe],
        *,
        seed: int = 0,
        options: RuleOptions | None = None,
        bots: Sequence[str | None] | None = None,
        dice: Dice | None = None,
        record_log: bool = True,
        transactional: bool = True,
    ) -> None:
        if len(troupes) != len(scenario.sides):
            raise ValueError(
                f"scenario `{scenario.name}` has {len(scenario.sides)} sides; got {len(troupes)} troupes"
            )
        self.scenario = scenario
        self.troupes = list(troupes)
        self.options = options if options is not None else scenario.options
        self.seed = seed
        self.dice = dice if dice is not None else Dice(seed)
        self.record_log = record_log
        self.transactional = transactional
        """With False, `apply` takes no snapshot: no undo, and a refused action may leave the game
        half-changed (validation comes first, so in practice it does not), for callers that stop at
        the first refusal anyway: replay verification and troupe testing."""
        self.base_table = Table.from_scenario(scenario)
        self.table = self.base_table
        self.log: list[Event] = []
        self.history: list[Action] = []
        self._undo: list[_Snapshot] = []
        self.memo: dict[str, Any] = {}
        """Caches the rules keep between calls, keyed by the rule's own name (`Ctx.memo`): the one
        place they live, so no rule stashes state in another object."""
        self._observers: list[Callable[[Event], None]] = []
        self._outbox: list[Event] = []
        self._version = 0
        self._geo_version = -1
        self._geo_pts = None
        self._geo_act = None
        self._rows: list[list[float]] = []
        self._dist_arr: np.ndarray | None = None
        self._cover_version = -1
        self._cover_pts = None
        self._cover_table = None
        self._sight_version = -1
        self._sight: np.ndarray | None = None
        self._sight_store = None
        self._sight_store_version = -1
        self._friend_version = -1
        self._friend_near: dict[tuple[int, float], bool] = {}
        self._gone_act: list[bool] | None = None
        self._placed: list[int] = []
        self._placed_from = -1
        self._by_player = None
        self.state = self._build_state(bots)
        self._by_id: dict[str, ModelState] = {}
        # Teams never change during a game: one lookup list instead of walking the players each time.
        self._player_team = [p.team for p in self.state.players]
        self.rules = rules_for(self)
        # A scenario may play its own turn (the Avatar Duel): its steps, hooks and handlers.
        ext = self.rules.extensions()
        self.book = rulebook.for_scenario(self.rules.turn_steps(), ext)
        self.turn_order: TurnOrder = for_options(self.options)
        self.book.setup(self)
        self._begin_step(self.book.deploy.name)
        self._run_until_input()

    @classmethod
    def from_scenario(
        cls,
        scenario: str | Path | Scenario,
        troupes: Sequence[str | Path | Troupe | None] | None = None,
        *,
        seed: int = 0,
        options: RuleOptions | Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> Game:
        """A game from names or files, as the command line takes them (`Game.from_scenario("open_battle")`).

        Each troupe is a shipped name, a file or a `Troupe`; None (or a shorter list) keeps the
        scenario's default for that side. `options` overrides the scenario's rule options field by
        field. Bad names and files raise `DataError` naming the file and field."""
        sc, trs, opts = resolve_game_inputs(scenario, troupes, options)
        return cls(sc, trs, seed=seed, options=opts, **kwargs)

    def __repr__(self) -> str:
        s = self.state
        where = "over" if s.over else f"turn {s.turn} {s.step}, player {s.active_player} to act"
        return f"<Game {self.scenario.name} seed={self.seed} {where}, {len(self.history)} actions>"

    # ----------------------------------------------------------------- set-up
    def _build_state(self, bots: Sequence[str | None] | None) -> GameState:
        players: list[PlayerState] = []
        models: list[ModelState] = []
        radii: list[float] = []
        for p, (side, troupe) in enumerate(zip(self.scenario.sides, self.troupes, strict=True)):
            team = side.team if side.team >= 0 else 100 + p
            bot = bots[p] if bots is not None and p < len(bots) else side.bot
            players.append(PlayerState(p, side.name, team, troupe, _armoury_of(troupe), bot=bot))
            for entry in troupe.models:
                for k in range(entry.count):
                    suffix = f"_{k + 1}" if entry.count > 1 else ""
                    mid = f"p{p}.{entry.profile.name}{suffix}"
                    models.append(ModelState(mid, len(models), p, entry.profile, hp=entry.profile.hp))
                    radii.append(entry.profile.base / 2)
        for m, label in zip(models, display_names(models, [pl.name for pl in players]), strict=True):
            m.label = label
        n = len(models)
        return GameState(
            models, players, np.zeros((n, 2)), np.asarray(radii, dtype=float), order=list(range(len(players)))
        )

    # ----------------------------------------------------------------- queries
    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def over(self) -> bool:
        return self.state.over

    def hash(self) -> str:
        return state_hash(self.state, self.dice.state)

    def armoury(self, model: ModelState) -> Armoury:
        return self.state.players[model.player].armoury

    def model(self, model_id: str, *, rule: str = "R-P1") -> ModelState:
        # Ids never change; the index is checked against the list, which a restore may replace.
        models = self.state.models
        m = self._by_id.get(model_id)
        if m is None or m.index >= len(models) or models[m.index] is not m:
            self._by_id = {x.id: x for x in models}
            m = self._by_id.get(model_id)
        if m is None:
            raise IllegalAction(rule, f"there is no model `{model_id}`")
        return m

    # ----------------------------------------------------------------- log
    @property
    def logging(self) -> bool:
        """Whether an event would reach anyone (the log or an observer): when not, a rule may skip
        composing its text (replay verification and troupe testing keep no log)."""
        return self.record_log or bool(self._observers)

    def emit(
        self, kind: str, text: str, models: Sequence[str] = (), rolls_from: int | None = None, **data: Any
    ) -> None:
        if not self.record_log and not self._observers:
            return
        rolls = tuple(self.dice.history[rolls_from:]) if rolls_from is not None else ()
        s = self.state
        event = Event(s.turn, s.phase, s.step, kind, text, tuple(models), rolls, data)
        if self.record_log:
            self.log.append(event)
        if self._observers:
            self._outbox.append(event)

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call `callback(event)` with every event of each action that `apply` commits; returns the
        function that unsubscribes it.

        Events reach observers only once the action is accepted (a refused action's events are
        dropped with it), so an observer never sees something the game took back. It works with
        `record_log=False` too. Undo sends no event: observers that mirror the game re-read it."""
        self._observers.append(callback)

        def unsubscribe() -> None:
            if callback in self._observers:
                self._observers.remove(callback)

        return unsubscribe

    def _deliver(self) -> None:
        if not self._outbox:  # no observer, or nothing emitted: the usual case of a batch run
            return
        outbox, self._outbox = self._outbox, []
        for event in outbox:
            for callback in list(self._observers):
                callback(event)

    # ----------------------------------------------------------------- actions
    def legal_actions(self) -> list[Action]:
        """What the player to act may do now: finite candidates (free paths are checked by `apply`)."""
        s = self.state
        if s.over:
            return []
        if s.pending is not None:
            return self.book.pending_candidates(self, s.pending.kind)
        gen = self.book.spec(s.step).generate
        actions = gen(self, s.active_player) if gen else []
        actions.extend(self.book.anytime_candidates(self, s.active_player))
        actions.append(EndStep())
        return actions

    def apply(self, action: Action) -> None:
        """Validate `action` against every rule and apply it, or raise `IllegalAction` leaving no trace."""
        s = self.state
        if s.over:
            raise IllegalAction("R-T4", "the game is over")
        kind = type(action).__name__
        spec = self.book.spec(s.step)
        # `book.allowed(s.step, pending kind)`, with the step's spec already in hand.
        allowed = self.book.pending[s.pending.kind].actions if s.pending is not None else spec.actions
        if kind not in allowed:
            where = f"a pending {s.pending.kind.replace('_', '-')}" if s.pending else f"the {spec.title} step"
            raise IllegalAction(spec.rule, f"{kind} is not allowed during {where}")
        handler: Callable[[Game, Action], None] = self._handler(kind)
        if not self.transactional:
            # Replays and batch runs abandon the game on any refusal, so they skip the snapshot.
            try:
                handler(self, action)
                self.history.append(action)
                self._run_until_input()
            except Exception:
                self._outbox.clear()
                raise
            self._deliver()
            return
        snap = self._snapshot()
        rolls_before = len(self.dice.history)
        try:
            handler(self, action)
            self.history.append(action)
            self._run_until_input()
        except IllegalAction:
            self._restore(snap)
            raise
        except Exception:
            self._restore(snap)
            raise
        if len(self.dice.history) != rolls_before:
            self._undo.clear()  # dice are commit points (design principle 8)
        else:
            self._undo.append(snap)
        self._deliver()

    def refusal(self, action: Action) -> IllegalAction | None:
        """Why `apply(action)` would refuse it now, or None if it would be accepted; nothing changes.

        The same code as `apply` runs (the step's allowed actions, then the handler's checks), on
        the snapshot path, and is always taken back. It stops at the first die: a roll is where an
        action commits, so asking never rolls, never spends forced dice and reveals no outcome."""
        real, observers, undo = self.dice, self._observers, list(self._undo)
        # The geometry of this position, computed before the trial: if the trial moves nothing, it
        # is still true afterwards and the next question does not compute it again. (Sight needs
        # no such care: its pairs are kept by position, so the restore does not forget them.)
        self._refresh_geo()
        transactional, version = self.transactional, self._version
        snap = self._snapshot()
        # One snapshot is enough: this one is always restored, so apply need not take its own.
        self.dice, self._observers, self.transactional = NoRolls(real.seed, state=real.state), [], False
        try:
            self.apply(action)
        except IllegalAction as exc:
            return exc
        except WouldRoll:
            return None
        finally:
            self.dice, self._observers, self.transactional = real, observers, transactional
            self._restore(snap)
            self._undo = undo
            if self._version == version + 1 and self._geo_version == version:
                # Nothing called `moved()` during the trial (only the restore did), so the geometry
                # computed above, from the position before it, still describes the restored one.
                self._version = version
        return None

    def end_step(self, player: int | None = None) -> None:
        """The active player passes this step."""
        s = self.state
        if s.pending is not None:
            raise IllegalAction("R-C3", "answer the pending decision first")
        p = s.active_player
        s.players[p].done = True
        if self.logging:
            self.emit("pass", f"{s.players[p].name} ends {self.book.spec(s.step).title}")

    def fork(self, shared: dict[int, Any] | None = None) -> Game:
        """An independent copy to think on (a bot's look-ahead): no log, no undo stack. `shared`
        maps `id()` of read-only objects (scenario, troupes, tables) to themselves, as
        `copy.deepcopy`'s memo, so the copy keeps them instead of copying them."""
        memo = dict(shared) if shared else {}
        memo[id(self.log)] = []
        memo[id(self._undo)] = []
        fork = copy.deepcopy(self, memo)
        fork.record_log = False
        return fork

    def discard(self) -> None:
        """The caller is done with this game for good: drop the one reference cycle a game forms
        (its scenario rules hold it, `ScenarioRules.game`), so that reference counting frees the
        game and all it holds (history, dice rolls, memos: some 2,500 containers a heuristic
        default game) the moment the caller lets go of it, instead of the cyclic collector finding
        them at a later collection (`sim.games.play_game` calls it: a troupe test's worker spends
        a third of the collector's time on dead games otherwise). The state can still be read; the
        game must not be played or asked rules questions afterwards. A second call does nothing."""
        if hasattr(self.rules, "game"):
            del self.rules.game

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def forget_undo(self) -> None:
        """Drop the undo stack: after the position was set up by hand (`engine.setup`), taking back an
        earlier action would also take back the set-up."""
        self._undo.clear()

    def undo(self) -> bool:
        """Take back the last action if no die was rolled since (design principle 8)."""
        if not self._undo:
            return False
        self._restore(self._undo.pop())
        return True

    # ----------------------------------------------------------------- snapshots
    # ----------------------------------------------------------------- the phase machine
    def _begin_step(self, name: str) -> None:
        s = self.state
        s.step = name
        spec = self.book.spec(name)
        s.phase = spec.phase
        s.active_index = 0
        for p in s.players:
            p.done = False
        if spec.begin is not None:
            spec.begin(self)
        self.rules.on_step(name)

    def _next_step(self) -> None:
        s = self.state
        if s.step == self.book.deploy.name:
            self._start_turn()
            return
        i = self.book.index(s.step)
        if i + 1 < len(self.book.turn):
            self._begin_step(self.book.turn[i + 1].name)
        elif not s.over:
            self._start_turn()

    def _start_turn(self) -> None:
        s = self.state
        s.turn += 1
        first = self.book.turn[0]
        s.step, s.phase = first.name, first.phase
        order = self.turn_order.order(self)
        if order is not None:
            s.order = order
        if self.logging:
            self.emit(
                "turn", f"Turn {s.turn} begins; order: " + ", ".join(s.players[p].name for p in s.order)
            )
        self._begin_step(first.name)

    def _run_until_input(self) -> None:
        s = self.state
        while not s.over:
            if s.pending is not None:
                return
            spec = self.book.spec(s.step)
            if spec.actions:  # `spec.interactive`
                while s.active_index < len(s.order):
                    p = s.order[s.active_index]
                    if not s.players[p].done and self._has_options(p, spec):
                        return
                    if not s.players[p].done:
                        note_skip(self, spec, p)
                    s.players[p].done = True
                    s.active_index += 1
            self._next_step()
            s = self.state

    def _has_options(self, player: int, spec: StepSpec | None = None) -> bool:
        """Whether `player` has anything to do in the current step (`spec`, when the caller has
        it: the current step's): the step's own check, then the abilities usable at any time."""
        check = (spec if spec is not None else self.book.spec(self.state.step)).has_options
        if check is not None and check(self, player):
            return True
        return self.book.anytime_options(self, player)

    def step_title(self, name: str) -> str:
        """The title of a step ("Standard movement"), of this game's turn or another rulebook's."""
        return rulebook.SPECS[name].title

    def _handler(self, kind: str) -> Callable[[Game, Any], None]:
        if kind == "EndStep":
            return _do_end_step
        if kind == "Decline":
            return _do_decline
        return self.book.handlers[kind]

    def after_player_action(self) -> None:
        """Move the turn on when the active player has passed."""
        s = self.state
        if s.pending is None and s.players[s.order[s.active_index]].done:
            s.active_index += 1

    # ----------------------------------------------------------------- what a player may know
    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may know now, for the UI and bots: everything public, and of hidden things
        (the Duel's techniques behind the shield) only that player's own. See `engine.observe`."""
        return observation(self, player)

    # ----------------------------------------------------------------- results
    def finish(self, reason: str) -> None:
        """End the game (R-T4) and decide the winner."""
        s = self.state
        s.over = True
        s.result_reason = reason
        team, why = self.rules.winner()
        s.winning_team = team
        winners = [p.index for p in s.players if p.team == team] if team is not None else []
        s.winner = winners[0] if len(winners) == 1 else (winners[0] if winners else None)
        text = "Draw" if team is None else "Winner: " + ", ".join(s.players[p].name for p in winners)
        self.emit("game_over", f"Game over ({reason}). {text} — {why}")

    def result(self) -> dict[str, Any]:
        s = self.state
        return {
            "over": s.over,
            "turns": s.turn,
            "winner": None if s.winner is None else s.players[s.winner].name,
            "winning_team": s.winning_team,
            "winners": [p.name for p in s.players if s.winning_team is not None and p.team == s.winning_team],
            "reason": s.result_reason,
            "battle_points": {p.name: p.total_points for p in s.players},
            "battle_points_per_turn": {p.name: list(p.battle_points) for p in s.players},
            "kos": {
                p.name: sum(
                    1
                    for m in s.models
                    if m.player != p.index and m.ko and s.extra.get("ko_by", {}).get(m.id) == p.index
                )
                for p in s.players
            },
            "models_left": {
                p.name: sum(1 for m in s.models if m.player == p.index and m.active) for p in s.players
            },
        }


_ARMOURIES: dict[int, tuple[Troupe, Armoury]] = {}
"""Each troupe's merged armoury by the troupe object's id, with the troupe held so its id cannot be
reused while it is here: both are frozen, and troupe testing builds thousands of games from the
same troupes (merging and validating the armoury cost more than setting the table)."""


def _armoury_of(troupe: Troupe) -> Armoury:
    hit = _ARMOURIES.get(id(troupe))
    if hit is not None and hit[0] is troupe:
        return hit[1]
    armoury = troupe_armoury(troupe)
    if len(_ARMOURIES) >= 64:
        _ARMOURIES.clear()
    _ARMOURIES[id(troupe)] = (troupe, armoury)
    return armoury


def _do_end_step(game: Game, action: Action) -> None:
    game.end_step()
    game.after_player_action()


def _do_decline(game: Game, action: Decline) -> None:
    """A pending decision answered No (a counter-charge not made, a reaction not paid for): the
    owner of that kind of decision resolves it."""
    p = game.state.pending
    if p is None:
        raise IllegalAction("R-C3", "there is nothing to decline")
    decline = game.book.pending[p.kind].decline
    assert decline is not None, p.kind
    decline(game, action)


def new_game(scenario: Scenario, troupes: Sequence[Troupe], seed: int = 0, **kwargs: Any) -> Game:
    return Game(scenario, troupes, seed=seed, **kwargs)


__all__ = ["Game", "IllegalAction", "Pending", "new_game"]
