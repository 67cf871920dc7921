"""A round composed from the mechanics a model declares: the engine's one round.

The core names no mechanic. A model's mechanics arrive as a :class:`Composition`: an ordered
tuple of *parts* (:class:`Part`), one per mechanic the model declares, each implementing the
hooks of its role. The registry (:mod:`reelsmith.mechanics`) builds the composition from the
model; live play, the terminal, the server and the tests all play rounds through the functions
here, so the round's flow is written once.

A spin
------
One screen of a reel set (:func:`play_spin`), in this order, which is also the order of its
draws:

1. the *window*: the window part draws the reel stops and shows the screen as it landed;
2. *window modifiers* (in declaration order) may change the screen the wins are read on and
   pay fixed amounts of their own (a gem raises a pot, reveals a symbol or wins the pot);
3. *evaluators* pay the screen (paylines, ways, a scatter), each its own part of the win;
4. *win modifiers* map the evaluators' total to a new win (a plug-in's multiplier);
5. the spin's win is that total plus the modifiers' fixed amounts.

A *spin modifier* that reads several screens (the cascade, :meth:`Part.chain`) takes over
steps 3 and 4: it has each screen of its chain paid as they say and returns the whole win.

What the spin's reel set, pay tables and line multiplier are comes from the round's *spin
feature* (free spins, the ladder) through :meth:`Part.spin_setup`; the base spin's are the
model's.

A round
-------
:func:`start_round` plays the base spin (on the reel set a mode's part may name,
:meth:`Part.base_setup`; a part's :meth:`Part.begin` may instead start the spin feature
directly, a bought feature, and no base spin is played); every part then sees it
(:meth:`Part.after_spin`): a spin feature may start its spins (the round's phase becomes the
feature's), a carried meter may move. Each action (:func:`act`) goes to the part that offers it:
``free_spin`` to the spin feature, ``gamble <choice>`` and ``collect`` to the gamble. When no
spins remain the round's win is the spins' total and the *closing* parts (the gamble) decide
whether the round waits for the player or completes (:meth:`Part.close`). A malfunction inside
a step voids the round (:mod:`reelsmith.engine.rounds`): no pay, the bet returned, every part
back to how the round found it (:meth:`Part.void`).

Each part keeps its own state of the round in ``Round.parts[name]`` and its own record of a
spin in ``Spin.parts[name]``; both are immutable values, replaced step by step. The round's
JSON (:func:`round_json`) is the core's fields and every part's contribution.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.engine.errors import RuleError
from reelsmith.engine.model import GameModel, Variant
from reelsmith.engine.rounds import guarded_step, replaced
from reelsmith.engine.screen import Screen, to_screen
from reelsmith.rng import Draw, RandomSource, RecordingSource, ReplaySource

#: The phases every round may be in; a feature that waits for the player adds its own (the
#: free spins' ``"free_spins"``, the gamble's ``"gamble"``).
COMPLETE = "complete"
VOIDED = "voided"
FINISHED = frozenset({COMPLETE, VOIDED})


@dataclass(frozen=True, slots=True)
class Stake:
    """What the evaluators read of a bet: the paylines played (a ways game: its cost), the
    coins on each and the coins the spin costs in all."""

    lines: int
    coins_per_line: int

    @property
    def total_coins(self) -> int:
        return self.lines * self.coins_per_line


@dataclass(frozen=True)
class SpinSetup:
    """How one spin is played: its kind, its reel set, the pay tables of its evaluators and the
    multiplier on its line wins (the spin feature's, e.g. a ladder level's)."""

    kind: str  # "base" or "free"
    reel_set: str
    line_pays: npt.NDArray[np.int64]
    scatter_pays: npt.NDArray[np.int64]
    line_multiplier: int = 1


@dataclass(frozen=True)
class Spin:
    """One screen of the round, as every part recorded it."""

    kind: str
    stops: tuple[int, ...]
    landed: Screen  # as the reels stopped
    screen: Screen  # what the wins were read on (after the window modifiers)
    win_coins: int
    #: Per part, its record of this spin (a value with ``to_json``), in composition order.
    parts: Mapping[str, Any] = field(default_factory=dict)
    #: The screen as landed, as symbol indices (for the parts that count symbols on it).
    grid: Any = field(default=None, compare=False, repr=False)
    #: What the window modifiers paid of ``win_coins`` (a pot won): never multiplied.
    fixed_coins: int = 0
    #: Every screen the spin's wins were read on, in order, where a spin modifier read more
    #: than one (a cascade's); empty: the one screen.
    screens: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @property
    def grids(self) -> tuple[Any, ...]:
        """Every screen the spin read, as symbol indices (the landed one alone, but for a
        cascade's chain)."""
        return self.screens or (self.grid,)

    def with_record(self, name: str, record: Any, first: bool = False) -> Spin:
        """The spin with ``name``'s record added (or replaced); ``first`` puts it before the
        others (its fields then yield to theirs in the JSON)."""
        parts = {name: record, **self.parts} if first else {**self.parts, name: record}
        return replaced(self, parts=parts)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind,
            "stops": list(self.stops),
            "screen": [list(row) for row in self.screen],
        }
        for part in self.parts.values():
            out.update(part.to_json())
        out["win_coins"] = self.win_coins
        return out


@dataclass(frozen=True)
class Round:
    """Everything about one round; immutable, each step returns a new one."""

    game: str
    variant: str
    bet: Any  # the bet part's own value (a coin bet, a bet level)
    stake: Stake
    phase: str
    spins: tuple[Spin, ...] = ()
    #: Per part, its state of the round (immutable values).
    parts: Mapping[str, Any] = field(default_factory=dict)
    win_coins: int = 0  # the win as it stands once the spins are over (a gamble changes it)
    actions: tuple[str, ...] = ()
    draws: tuple[Draw, ...] = ()
    void_reason: str | None = None
    rules_version: int = 1

    @property
    def is_finished(self) -> bool:
        return self.phase in FINISHED

    @property
    def spin_win_coins(self) -> int:
        """The spins' wins, before any gamble."""
        return sum(s.win_coins for s in self.spins)

    @property
    def paid_coins(self) -> int:
        return self.win_coins if self.phase == COMPLETE else 0

    @property
    def refund_coins(self) -> int:
        return self.stake.total_coins if self.phase == VOIDED else 0

    def part(self, name: str) -> Any:
        return self.parts.get(name)

    def with_part(self, name: str, value: Any) -> Round:
        return replaced(self, parts={**self.parts, name: value})


class Part:
    """One mechanic's live step: hooks the core calls, each a no-op here. ``name`` keys the
    part's state in ``Round.parts`` and its records in ``Spin.parts``; ``stage`` orders the
    parts (window, window modifiers, evaluators, win modifiers, spin feature, closers)."""

    name: str = ""
    stage: int = 0

    # -- the round ----------------------------------------------------------------------
    def prepare(self, ctx: Context, round_: Round) -> Round:
        """The round as it is handed to its first step, before any draw: a refusal here
        (a carried state that breaks the rules) raises, and nothing is played."""
        return round_

    def begin(self, ctx: Context, round_: Round, rng: RandomSource) -> Round:
        """The round before its base spin (a carried state read or drawn)."""
        return round_

    def variant(self, ctx: Context, rules_version: int, variant_id: str | None) -> Variant | None:
        """The variant a round under ``rules_version`` plays (None: the model's own)."""
        return None

    def rules_version(self, ctx: Context) -> int | None:
        """The rules version new rounds are played under (None: this part has none)."""
        return None

    # -- a spin ---------------------------------------------------------------------------
    def base_setup(self, ctx: Context, round_: Round) -> SpinSetup | None:
        """The base spin's setup where this part changes it (a mode's own reel set); None:
        the model's."""
        return None

    def spin_setup(self, ctx: Context, round_: Round) -> SpinSetup | None:
        """The next feature spin's setup (the spin feature alone answers)."""
        return None

    def window(
        self, ctx: Context, round_: Round, setup: SpinSetup, rng: RandomSource
    ) -> tuple[tuple[int, ...], npt.NDArray[np.int8]] | None:
        """The stops and the screen as it landed (the window part alone answers)."""
        return None

    def modify_window(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        grid: npt.NDArray[np.int8],
        rng: RandomSource,
    ) -> tuple[Round, npt.NDArray[np.int8], Any, int] | None:
        """A window modifier: ``(round, screen to evaluate, spin record, fixed coins)``."""
        return None

    def evaluate(
        self, ctx: Context, round_: Round, setup: SpinSetup, grid: npt.NDArray[np.int8]
    ) -> tuple[Any, int] | None:
        """An evaluator: ``(spin record, coins)``."""
        return None

    def modify_win(
        self, ctx: Context, round_: Round, setup: SpinSetup, win: int, rng: RandomSource
    ) -> tuple[Any, int] | None:
        """A win modifier: ``(spin record, new win)`` or None where it does not act."""
        return None

    def chain(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        stops: tuple[int, ...],
        grid: npt.NDArray[np.int8],
        read: Callable[[SpinSetup, npt.NDArray[np.int8]], tuple[dict[str, Any], int]],
        rng: RandomSource,
    ) -> tuple[dict[str, Any], int, Any, tuple[Any, ...]]:
        """A spin modifier that reads several screens (a cascade): ``read(setup, grid)`` pays
        one screen by the evaluators (their records, its win); ``rng`` draws what a later
        screen needs (cells refilled one by one); returns the first screen's records, the
        whole spin's win, the modifier's record and every screen read."""
        raise NotImplementedError

    def after_spin(self, ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
        """The round after ``spin`` was added to it (a feature starts, spins are added, a
        meter fills); ``spin`` is ``round_.spins[-1]`` and its records may be replaced."""
        return round_

    # -- the round's end and its actions -----------------------------------------------
    def close(self, ctx: Context, round_: Round) -> Round | None:
        """The spins are over: a closing part may hold the round for an action (None: it
        lets the round complete)."""
        return None

    def actions(self, ctx: Context, round_: Round) -> Sequence[str]:
        return ()

    def act(self, ctx: Context, round_: Round, action: str, rng: RandomSource) -> Round | None:
        """Play ``action`` if it is this part's (None: not its action)."""
        return None

    def finish(self, ctx: Context, round_: Round, rng: RandomSource) -> Round | None:
        """Resolve the part's pending phase for the player (None: nothing pending)."""
        return None

    def void(self, ctx: Context, round_: Round, voided: Round) -> Round:
        """``voided`` (the core's void of ``round_``) with this part's state put back."""
        return voided

    # -- what the round shows ----------------------------------------------------------
    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        """The part's fields of the round's JSON."""
        return {}


class SpinFeature(Part):
    """A spin feature's part: while the round is in the feature's phase, its one action plays
    the feature's next spin (:func:`play_feature_spin`), and resolving the round plays them all.
    A subclass says how its spins are set up and what each spin does to it (``spin_setup``,
    ``after_spin``), and sets the phase back to :data:`SPINNING` when its spins are over."""

    stage = 50
    phase = "free_spins"
    action = "free_spin"

    def start_directly(
        self, ctx: Context, round_: Round, triggers: int, rng: RandomSource
    ) -> tuple[Round, dict[str, Any]]:
        """The round with the feature started as a base spin showing ``triggers`` trigger
        symbols would start it, no base spin played (a bought feature), in the feature's phase;
        and the start's fields for the client (``spins`` awarded, each symbol's ``reveals``).
        A feature that cannot be started so refuses."""
        raise RuleError(f"{self.name} cannot be started directly")

    def actions(self, ctx: Context, round_: Round) -> Sequence[str]:
        return [self.action] if round_.phase == self.phase else []

    def act(self, ctx: Context, round_: Round, action: str, rng: RandomSource) -> Round | None:
        if action != self.action:
            return None
        if round_.phase != self.phase:
            raise RuleError(f"no free spins to play: the round is {round_.phase}")
        return guarded(
            ctx.composition, round_, action, rng, lambda r, rec: play_feature_spin(ctx, r, rec)
        )

    def finish(self, ctx: Context, round_: Round, rng: RandomSource) -> Round | None:
        if round_.phase != self.phase:
            return None
        return self.act(ctx, round_, self.action, rng)


@dataclass(frozen=True, eq=False)
class Composition:
    """A model's parts in stage order, and what the core needs to find among them."""

    model: GameModel
    parts: tuple[Part, ...]

    def __post_init__(self) -> None:
        window = [p for p in self.parts if type(p).window is not Part.window]
        if len(window) != 1:
            raise ValueError(f"{self.model.id}: a round needs exactly one window part")

    def named(self, name: str) -> Part | None:
        for part in self.parts:
            if part.name == name:
                return part
        return None


@dataclass(frozen=True, eq=False)
class Context:
    """A round's composition with the hooks sorted by role once."""

    composition: Composition
    model: GameModel
    window: Part
    modifiers: tuple[Part, ...]
    evaluators: tuple[Part, ...]
    win_modifiers: tuple[Part, ...]
    chains: tuple[Part, ...]
    setup_parts: tuple[Part, ...]
    base_setup_parts: tuple[Part, ...]
    closers: tuple[Part, ...]
    base_setup: SpinSetup

    @classmethod
    def of(cls, composition: Composition) -> Context:
        parts = composition.parts

        def having(hook: str) -> tuple[Part, ...]:
            return tuple(p for p in parts if getattr(type(p), hook) is not getattr(Part, hook))

        model = composition.model
        return cls(
            composition=composition,
            model=model,
            window=having("window")[0],
            modifiers=having("modify_window"),
            evaluators=having("evaluate"),
            win_modifiers=having("modify_win"),
            chains=having("chain"),
            setup_parts=having("spin_setup"),
            base_setup_parts=having("base_setup"),
            closers=having("close"),
            base_setup=SpinSetup("base", "base", model.line_pays, model.scatter_pays),
        )

    def variant(self, variant_id: str | None, rules_version: int) -> Variant:
        for part in self.composition.parts:
            found = part.variant(self, rules_version, variant_id)
            if found is not None:
                return found
        return self.model.variant(variant_id)


_CONTEXTS: dict[int, Context] = {}


def context(composition: Composition) -> Context:
    """The composition's context (made once per composition)."""
    found = _CONTEXTS.get(id(composition))
    if found is None or found.composition is not composition:
        found = Context.of(composition)
        _CONTEXTS[id(composition)] = found
    return found


# ---------------------------------------------------------------------------------------
# One spin
# ---------------------------------------------------------------------------------------


def play_spin(
    ctx: Context, round_: Round, setup: SpinSetup, rng: RandomSource
) -> tuple[Round, Spin]:
    """One screen played as ``setup`` says (see the module's account); the round as its window
    modifiers leave it, and the spin."""
    model = ctx.model
    landed_at = ctx.window.window(ctx, round_, setup, rng)
    assert landed_at is not None
    stops, landed = landed_at
    grid = landed
    records: dict[str, Any] = {}
    fixed = 0
    for part in ctx.modifiers:
        changed = part.modify_window(ctx, round_, setup, grid, rng)
        if changed is None:
            continue
        round_, grid, record, coins = changed
        if record is not None:
            records[part.name] = record
        fixed += coins

    def read(step: SpinSetup, screen: npt.NDArray[np.int8]) -> tuple[dict[str, Any], int]:
        win = 0
        evaluated: dict[str, Any] = {}
        for part in ctx.evaluators:
            found = part.evaluate(ctx, round_, step, screen)
            if found is None:
                continue
            record, coins = found
            evaluated[part.name] = record
            win += coins
        for part in ctx.win_modifiers:
            modified = part.modify_win(ctx, round_, step, win, rng)
            if modified is None:
                continue
            record, win = modified
            evaluated[part.name] = record
        return evaluated, win

    screens: tuple[Any, ...] = ()
    if ctx.chains:
        chain = ctx.chains[0]
        evaluated, win, record, screens = chain.chain(ctx, round_, setup, stops, grid, read, rng)
        evaluated[chain.name] = record
    else:
        evaluated, win = read(setup, grid)
    # records in composition order: the window modifiers' first (a gem's reveal explains the
    # screen the evaluators read), then the evaluators' and win modifiers'
    ordered = {p.name: records[p.name] for p in ctx.composition.parts if p.name in records}
    ordered.update(
        {p.name: evaluated[p.name] for p in ctx.composition.parts if p.name in evaluated}
    )
    spin = Spin(
        kind=setup.kind,
        stops=stops,
        landed=to_screen(model, landed),
        screen=to_screen(model, grid) if grid is not landed else to_screen(model, landed),
        win_coins=win + fixed,
        parts=ordered,
        grid=landed,
        fixed_coins=fixed,
        screens=screens,
    )
    return round_, spin


def _after_spin(ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
    round_ = replaced(round_, spins=(*round_.spins, spin))
    for part in ctx.composition.parts:
        round_ = part.after_spin(ctx, round_, round_.spins[-1], rng)
    return round_


def _close(ctx: Context, round_: Round) -> Round:
    """The spins are over: the win is their total, and a closing part may hold the round."""
    round_ = replaced(round_, win_coins=round_.spin_win_coins)
    for part in ctx.closers:
        held = part.close(ctx, round_)
        if held is not None:
            return held
    return replaced(round_, phase=COMPLETE)


def _void(ctx: Context) -> Callable[[Round, str], Round]:
    def void(round_: Round, reason: str) -> Round:
        voided = replaced(round_, phase=VOIDED, win_coins=0, void_reason=reason)
        for part in ctx.composition.parts:
            voided = part.void(ctx, round_, voided)
        return voided

    return void


# ---------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------


#: The phase a round is in while its base spin is played (a feature's phase replaces it).
SPINNING = "spinning"


def start_round(
    composition: Composition,
    bet: Any,
    stake: Stake,
    rng: RandomSource,
    *,
    variant: str | None = None,
    parts: Mapping[str, Any] | None = None,
    rules_version: int | None = None,
) -> Round:
    """Play the base spin of a new round: ``bet`` as the bet part keeps it, ``stake`` what the
    evaluators read of it, ``parts`` the parts' starting state (round options, a carried
    state), ``rules_version`` the rules an earlier round was played under (None: the rules
    of today)."""
    ctx = context(composition)
    version = rules_version
    if version is None:
        found = [v for p in composition.parts if (v := p.rules_version(ctx)) is not None]
        version = found[0] if found else 1
    chosen = ctx.variant(variant, version)
    empty = Round(
        game=ctx.model.id,
        variant=chosen.id,
        bet=bet,
        stake=stake,
        phase=SPINNING,
        parts=dict(parts or {}),
        rules_version=version,
    )
    for part in composition.parts:
        empty = part.prepare(ctx, empty)

    def step(round_: Round, recorder: RecordingSource) -> Round:
        for part in composition.parts:
            round_ = part.begin(ctx, round_, recorder)
        if round_.phase != SPINNING:
            return round_  # a part started the feature itself (a bought feature): no base spin
        setup = ctx.base_setup
        for part in ctx.base_setup_parts:
            setup = part.base_setup(ctx, round_) or setup
        round_, spin = play_spin(ctx, round_, setup, recorder)
        round_ = _after_spin(ctx, round_, spin, recorder)
        if round_.phase != SPINNING:
            return round_
        return _close(ctx, round_)

    return guarded_step(empty, rng, "spin", step, _void(ctx))


def play_feature_spin(ctx: Context, round_: Round, rng: RandomSource) -> Round:
    """The spin feature's next spin (its part asks for it from :meth:`Part.act`), and the
    round closed when the feature's spins are over (the part sets the phase back to
    :data:`SPINNING`)."""
    setup = None
    for part in ctx.setup_parts:
        setup = part.spin_setup(ctx, round_)
        if setup is not None:
            break
    if setup is None:
        raise RuleError(f"no feature spin to play: the round is {round_.phase}")
    round_, spin = play_spin(ctx, round_, setup, rng)
    round_ = _after_spin(ctx, round_, spin, rng)
    if round_.phase == SPINNING:
        return _close(ctx, round_)
    return round_


def act(composition: Composition, round_: Round, action: str, rng: RandomSource) -> Round:
    """Apply ``action`` (``free_spin``, ``gamble <choice>``, ``collect``, ...) to an open
    round; RuleError when no part offers it now."""
    ctx = context(composition)
    for part in composition.parts:
        plan = part.act(ctx, round_, action, rng)  # a part refuses its action out of phase
        if plan is not None:
            return plan
    if round_.is_finished:
        raise RuleError(f"the round is {round_.phase}: there is nothing left to play")
    offered = ", ".join(actions(composition, round_)) or "none"
    raise RuleError(f"{action!r} is not an action of this round now; the actions are {offered}")


def guarded(
    composition: Composition,
    round_: Round,
    action: str,
    rng: RandomSource,
    run: Callable[[Round, RecordingSource], Round],
) -> Round:
    """Run one player action's ``run`` as a recorded, guarded step (a part's :meth:`Part.act`
    calls this)."""
    return guarded_step(round_, rng, action, run, _void(context(composition)))


def actions(composition: Composition, round_: Round) -> list[str]:
    """The actions the round offers now."""
    ctx = context(composition)
    if round_.is_finished:
        return []
    found: list[str] = []
    for part in composition.parts:
        found.extend(part.actions(ctx, round_))
    return found


def finish(composition: Composition, round_: Round, rng: RandomSource) -> Round:
    """Resolve an incomplete round for the player: each pending phase as its part resolves
    it (the remaining free spins played, a pending gamble collected)."""
    ctx = context(composition)
    while not round_.is_finished:
        for part in composition.parts:
            resolved = part.finish(ctx, round_, rng)
            if resolved is not None:
                round_ = resolved
                break
        else:
            raise RuleError(f"nothing resolves a round in phase {round_.phase!r}")
    return round_


def replay_from(
    composition: Composition,
    bet: Any,
    stake: Stake,
    variant: str,
    actions_: Sequence[str],
    draws: Sequence[Draw],
    *,
    parts: Mapping[str, Any] | None = None,
    rules_version: int | None = None,
) -> Round:
    """Re-run a round from what was recorded of it: its bet, starting parts, variant, rules
    version, actions and draws (every draw used, in order)."""
    if not actions_ or actions_[0] != "spin":
        raise RuleError("a round record starts with its spin")
    source = ReplaySource(draws)
    replayed = start_round(
        composition,
        bet,
        stake,
        source,
        variant=variant,
        parts=parts,
        rules_version=rules_version,
    )
    for action in actions_[1:]:
        if replayed.is_finished:
            raise RuleError(f"the record continues with {action!r} after the round ended")
        replayed = act(composition, replayed, action, source)
    if source.remaining:
        raise RuleError(f"the record has {source.remaining} draws the round did not use")
    return replayed


def round_json(composition: Composition, round_: Round) -> dict[str, object]:
    """The round as JSON: the core's fields and every part's."""
    ctx = context(composition)
    out: dict[str, object] = {
        "game": round_.game,
        "variant": round_.variant,
        "phase": round_.phase,
        "spins": [s.to_json() for s in round_.spins],
        "win_coins": round_.win_coins,
    }
    for part in composition.parts:
        out.update(part.round_json(ctx, round_))
    out["actions"] = list(round_.actions)
    out["draws"] = [[d.purpose, d.bound, d.value] for d in round_.draws]
    out["void_reason"] = round_.void_reason
    return out


def coins_in_units(round_: Round, coins: int, units: int) -> Fraction:
    """``coins`` of the round in units of its bet, when the whole bet is ``units`` units: a
    coin-bet round's units are its coins, a bet-level round's its stake units (the line bet
    a fraction of one)."""
    return Fraction(coins * units, round_.stake.total_coins)
