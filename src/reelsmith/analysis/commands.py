"""The math lab's commands: ``analyze``, ``simulate`` and ``tune``.

They live here rather than in ``cli.py`` so that the lab can grow without touching the rest of
the command line; :func:`register` adds them to the ``reelsmith`` app. Each command checks its
input first and fails with one line on stderr naming what is wrong (exit status 2), before
any work is done or any file is written.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import time
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeRemainingColumn

from reelsmith.analysis.volatility import VOLATILITIES
from reelsmith.engine.model import GameModel, ModelError, load_model
from reelsmith.extras import MissingExtraError, require
from reelsmith.games import UnknownGameError, is_path_reference, resolve_title, title_folder

console = Console()
err_console = Console(stderr=True)

GameArg = Annotated[
    str,
    typer.Argument(help="Title id (see `reelsmith titles`) or a title folder / model.toml path."),
]
VariantOpt = Annotated[
    str | None, typer.Option("--variant", help="RTP variant id, e.g. 96.00 (default: the model's).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]

#: Tuning targets outside this range are refused: the strips cannot sensibly reach them.
TARGET_RTP_RANGE = (Decimal("85.00"), Decimal("99.00"))


class LabInputError(ValueError):
    """Bad command-line input; the message names the option at fault."""


def fail(message: str) -> NoReturn:
    """One line on stderr naming what is wrong, then exit status 2."""
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _not_reached(message: str) -> NoReturn:
    """One line on stderr saying what the tuner could not reach, then exit status 1: the
    input was sound, the search's answer is no."""
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(1)


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def _title(game: str, variant: str | None, folder: Path | None = None) -> GameModel:
    """The title named by ``game`` (a shipped id or a path), or the model in ``folder``; a
    model that does not load, a variant it lacks or mechanics that do not compose
    (:func:`reelsmith.mechanics.composition`, the same refusal as every face's) end the command
    by name."""
    from reelsmith.mechanics import composition

    try:
        model = resolve_title(game) if folder is None else load_model(folder)
        model.variant(variant)
        composition(model)
        return model
    except (UnknownGameError, ModelError) as exc:
        fail(str(exc))


def _exact_title(game: str, variant: str | None, folder: Path | None = None) -> GameModel:
    """The title as :func:`_title` finds it, refused by name when the exact analysis cannot
    enumerate its paylines (more than :data:`~reelsmith.analysis.enumeration.MAX_LINES`)."""
    from reelsmith.analysis.enumeration import MAX_LINES

    model = _title(game, variant, folder)
    if "paylines" in model.raw and model.line_count > MAX_LINES:
        fail(
            f"{model.source or model.id}: {model.line_count} paylines: the exact analysis takes "
            f"at most {MAX_LINES}"
        )
    return model


def _simulation(game: str, variant: str | None) -> tuple[GameModel, Callable[..., Any]]:
    """The title as :func:`_title` finds it, and the simulation entry point of its round
    (:func:`reelsmith.mechanics.round_face`)."""
    from reelsmith.mechanics import round_face
    from reelsmith.mechanics.base import face

    model = _title(game, variant)
    try:
        return model, face(round_face(model, "simulate"))
    except ModelError as exc:
        fail(str(exc))


def _folder(game: str) -> Path | None:
    """The folder of a title given by path (None for a shipped title's id)."""
    return title_folder(game).resolve() if is_path_reference(game) else None


def parse_count(text: str, option: str) -> int:
    """A whole number such as ``1000000``, ``1_000_000`` or ``1,000,000``."""
    cleaned = text.strip().replace("_", "").replace(",", "")
    if not re.fullmatch(r"[+-]?\d+", cleaned):
        raise LabInputError(f"{option} must be a whole number, got {text!r}")
    return int(cleaned)


def parse_target_rtp(text: str) -> Decimal:
    """A return to player in percent with at most two decimals, e.g. ``95.50``."""
    try:
        value = Decimal(text.strip().rstrip("%"))
    except InvalidOperation:
        raise LabInputError(
            f"--target-rtp must be a percentage such as 95.50, got {text!r}"
        ) from None
    if not value.is_finite():
        raise LabInputError(f"--target-rtp must be a percentage such as 95.50, got {text!r}")
    if value != value.quantize(Decimal("0.01")):
        raise LabInputError(f"--target-rtp takes at most two decimals, got {text!r}")
    low, high = TARGET_RTP_RANGE
    if not low <= value <= high:
        raise LabInputError(f"--target-rtp must be between {low} and {high} percent, got {text}")
    return value.quantize(Decimal("0.01"))


#: The widest ``tune --tolerance``: the distance ``reelsmith validate`` allows between the RTP a
#: variant states (its id) and the exact RTP of its strips, so a tuned variant always passes.
MAX_TUNE_TOLERANCE = Decimal("0.01")


def parse_tolerance(text: str) -> Decimal:
    """``--tolerance``: percentage points above 0 and at most :data:`MAX_TUNE_TOLERANCE`."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or not 0 < value <= MAX_TUNE_TOLERANCE:
        raise LabInputError(
            f"--tolerance must be percentage points above 0 and at most {MAX_TUNE_TOLERANCE} "
            f"(a variant further from the RTP it states fails validate), got {text!r}"
        )
    return value


def check_output_file(path: Path, option: str) -> Path:
    """Refuse a path that cannot be written before any work is done."""
    if path.exists() and path.is_dir():
        raise LabInputError(f"{option} {path}: is a folder, not a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        raise LabInputError(f"{option} {path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise LabInputError(f"{option} {path}: {parent} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise LabInputError(f"{option} {path}: the folder {parent} is not writable")
    return path


def _progress(description: str, counted: bool) -> Progress:
    """A transient progress display on stderr (stdout stays clean for ``--json``), shown on a
    terminal only: written to a file or a pipe it would leave blank lines around the output."""
    if counted:
        columns: tuple[Any, ...] = (
            TextColumn(description),
            BarColumn(),
            TextColumn("{task.completed:,}/{task.total:,}"),
            TimeRemainingColumn(),
        )
    else:
        columns = (SpinnerColumn(), TextColumn(description), TextColumn("{task.completed} steps"))
    return Progress(
        *columns, console=err_console, transient=True, disable=not err_console.is_terminal
    )


def _simulated(
    game: str,
    model: GameModel,
    function: Callable[..., Any],
    rounds: int,
    seed: int,
    variant: str | None,
    workers: int,
    cluster: str | None,
) -> tuple[Any, float]:
    """``rounds`` simulated rounds of ``model`` (compiled first, announced when not cached,
    with a progress bar on a terminal); returns the result and the seconds its preparation
    took."""
    from reelsmith.analysis.warm import prepare_simulation, simulation_phase
    from reelsmith.compiled import compiling

    # compiled before the rounds, and announced when not cached: the rounds' time is their own
    started = time.perf_counter()
    try:
        with compiling("the simulation kernel", simulation_phase(model), err_console):
            prepare_simulation(model, variant)
    except ModelError as exc:  # a model the kernel cannot play (free spins never ending)
        fail(str(exc))
    prepared = time.perf_counter() - started
    with _progress("simulating", counted=True) as progress:
        task = progress.add_task("simulating", total=rounds)

        def advance(done: int) -> None:
            progress.advance(task, done)

        try:
            result = function(
                model.id,
                rounds,
                seed,
                variant_id=model.variant(variant).id,
                folder=_folder(game),
                workers=workers,
                cluster=cluster,
                progress=advance,
            )
        except ModelError as exc:  # a model the kernel cannot play (free spins never ending)
            progress.stop()
            fail(str(exc))
    return result, prepared


#: The rounds and seed ``analyze`` simulates where a full cycle is beyond enumeration.
BEYOND_ROUNDS = 10_000_000
BEYOND_SEED = 2026


def _beyond_enumeration(
    game: str, variant: str | None, reason: str, as_json: bool, report: Path | None
) -> None:
    """``analyze`` of a model whose full cycle is beyond enumeration: it says so on its first
    line, then gives the exact RTP route beside :data:`BEYOND_ROUNDS` seeded simulated rounds
    (every other figure with its interval, never printed as exact)."""
    if report is not None:
        fail(f"--report: the PAR sheet prints exact figures only, and {reason}")
    model, function = _simulation(game, variant)
    if _rtp_is_exact(model, variant):
        line = (
            f"not exact beyond the RTP: {reason}. The exact column below is exact (the RTP "
            f"route); every other figure is simulated ({BEYOND_ROUNDS:,} rounds, seed "
            f"{BEYOND_SEED}), the RTP with its 99% interval."
        )
    else:
        line = (
            f"not exact: {reason}. Every figure below is simulated ({BEYOND_ROUNDS:,} rounds, "
            f"seed {BEYOND_SEED}), the RTP with its 99% interval."
        )
    if not as_json:
        console.print(line, markup=False, highlight=False)
    workers = os.cpu_count() or 1
    result, _prepared = _simulated(
        game, model, function, BEYOND_ROUNDS, BEYOND_SEED, variant, workers, None
    )
    if as_json:
        simulated = result.to_json()
        _print_json(
            {
                "game": model.id,
                "variant": model.variant(variant).id,
                "full_analysis": "beyond enumeration",
                "reason": reason,
                "exact": {"rtp": simulated["exact"]["rtp"]},
                "simulated": simulated,
            }
        )
    else:
        result.render(console)


def _check_enumeration_cluster(model: Any, cluster: str) -> None:
    """``analyze --cluster``: refused by name where the title's exact analysis enumerates no
    full cycle of stop combinations, where Ray is not installed, or where the address is not
    reachable."""
    from reelsmith.analysis.simulation import ClusterError, check_cluster_address
    from reelsmith.mechanics import by_full_cycle

    if not cluster.strip():
        fail("--cluster needs a Ray address, e.g. ray://host:10001 or local")
    drawn = any(s.cells is not None for v in model.variants.values() for s in v.reel_sets.values())
    if not by_full_cycle(model) or drawn:
        fail(
            f"--cluster spreads the enumeration of a full cycle of stop combinations (a cascade "
            f"or a count anywhere on strips); {model.id} is analysed from its reels' laws, "
            "without one: run analyze without --cluster"
        )
    try:
        require("cluster", "--cluster spreads the full cycle over a cluster")
        check_cluster_address(cluster)
    except (MissingExtraError, ClusterError) as exc:
        fail(str(exc))


def _rtp_is_exact(model: Any, variant: str | None) -> bool:
    """Whether the model's RTP route gives its RTP exactly (it may where the full analysis
    is beyond enumeration); False where the route too is beyond it."""
    from reelsmith.analysis.enumeration import BeyondEnumerationError
    from reelsmith.analysis.simulation import rtp_route

    route = rtp_route(model)
    try:
        return route is not None and route(model, model.variant(variant).id) is not None
    except BeyondEnumerationError:
        return False


def analyze(
    game: GameArg,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="Also write the PAR sheet as a self-contained HTML file."),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Spread a full cycle's enumeration (cascades, counts anywhere) over the Ray "
            "cluster at this address ('local' starts one).",
        ),
    ] = None,
) -> None:
    """Exact RTP, hit frequency, volatility and award probabilities from the model alone."""
    from reelsmith.analysis.analysis_report import analysis_report
    from reelsmith.analysis.analyzer import analyze as analyze_model
    from reelsmith.analysis.report import write_text_atomically

    try:
        if report is not None:
            check_output_file(report, "--report")
            require("lab", "--report draws the PAR sheet's plots")
    except (LabInputError, MissingExtraError) as exc:
        fail(str(exc))
    from reelsmith.analysis.enumeration import BeyondEnumerationError
    from reelsmith.analysis.warm import analysis_phase
    from reelsmith.compiled import compiling

    model = _exact_title(game, variant)
    if cluster is not None:
        _check_enumeration_cluster(model, cluster)
    from reelsmith.mechanics.cascade.exact import ENUMERATION_CLUSTER

    spread = ENUMERATION_CLUSTER.set(cluster)
    try:
        with compiling("and running the exact analysis", analysis_phase(model), err_console):
            analysis = analyze_model(model, variant)
        result = analysis_report(analysis)
        from reelsmith.mechanics import each_face

        for _mechanic, add_rows in each_face(model, "lab_rows"):
            result = add_rows(result, model, variant)
    except BeyondEnumerationError as exc:
        _beyond_enumeration(game, variant, str(exc), as_json, report)
        return
    except ModelError as exc:
        fail(str(exc))
    finally:
        ENUMERATION_CLUSTER.reset(spread)
    if report is not None:
        try:
            write_text_atomically(report, result.to_html())
        except OSError as exc:
            fail(f"--report {report}: {exc.strerror or exc}")
    if as_json:
        _print_json(result.to_json())
    else:
        result.render(console)
        if report is not None:
            console.print(f"PAR sheet written to {report}")


def simulate(
    game: GameArg,
    spins: Annotated[
        str, typer.Option("--spins", help="Rounds to play, e.g. 10000000 or 10_000_000.")
    ],
    variant: VariantOpt = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed (default: a random one, printed).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Local worker processes (default: all cores).")
    ] = None,
    as_json: JsonOpt = False,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Run the chunks on a Ray cluster at this address ('local' starts one).",
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            help="Play rounds of this bet mode (\\[modes]) by live play, against its exact RTP.",
        ),
    ] = None,
) -> None:
    """Seeded simulation of whole rounds: RTP with its confidence interval, hit and feature
    frequencies, standard deviation, speed."""
    try:
        rounds = parse_count(spins, "--spins")
        if rounds < 1:
            raise LabInputError(f"--spins must be at least 1, got {rounds}")
        if seed is not None and seed < 0:
            raise LabInputError(f"--seed must be a non-negative integer, got {seed}")
        if workers is not None and workers < 1:
            raise LabInputError(f"--workers must be at least 1, got {workers}")
        if cluster is not None and not cluster.strip():
            raise LabInputError("--cluster needs a Ray address, e.g. ray://host:10001 or local")
    except LabInputError as exc:
        fail(str(exc))
    if mode is not None:
        _simulate_mode(game, variant, mode, rounds, seed, as_json)
        return
    model, function = _simulation(game, variant)
    chosen_seed = secrets.randbits(63) if seed is None else seed
    chosen_workers = workers if workers is not None else (os.cpu_count() or 1)
    if cluster is not None:
        from reelsmith.analysis.simulation import ClusterError, check_cluster_address

        try:
            require("cluster", "--cluster runs the chunks on a cluster")
            check_cluster_address(cluster)
        except (MissingExtraError, ClusterError) as exc:
            fail(str(exc))

    result, prepared = _simulated(
        game, model, function, rounds, chosen_seed, variant, chosen_workers, cluster
    )
    if as_json:
        _print_json({**result.to_json(), "prepare_seconds": round(prepared, 3)})
    else:
        result.render(console)
        console.print(
            f"compiled code and tables ready in {prepared:.2f} s before the rounds (not counted "
            "above)",
            markup=False,
            highlight=False,
        )


def _simulate_mode(
    game: str, variant: str | None, mode: str, rounds: int, seed: int | None, as_json: bool
) -> None:
    """``simulate --mode``: the mode's rounds by live play
    (:func:`reelsmith.mechanics.modes.simulate.simulate_mode`)."""
    from reelsmith.mechanics.modes.rules import modes_of
    from reelsmith.mechanics.modes.simulate import simulate_mode

    model = _title(game, variant)
    try:
        modes_of(model).get(mode)
    except ModelError as exc:
        fail(f"--mode {mode}: {exc}")
    chosen_seed = secrets.randbits(63) if seed is None else seed
    with _progress("simulating", counted=True) as progress:
        task = progress.add_task("simulating", total=rounds)
        try:
            result = simulate_mode(
                model, variant, mode, rounds, chosen_seed, lambda n: progress.advance(task, n)
            )
        except ModelError as exc:
            progress.stop()
            fail(str(exc))
    if as_json:
        _print_json(result.to_json())
    else:
        for line in result.lines():
            console.print(line, markup=False, highlight=False)


def tune(
    game: GameArg,
    target_rtp: Annotated[
        str, typer.Option("--target-rtp", help="Return to player in percent, e.g. 95.50.")
    ],
    volatility: Annotated[
        str | None,
        typer.Option("--volatility", help="Volatility class: low, medium, medium-high or high."),
    ] = None,
    base_variant: Annotated[
        str | None,
        typer.Option("--from", help="Variant to start from (default: the model's default)."),
    ] = None,
    game_dir: Annotated[
        Path | None,
        typer.Option(
            "--game-dir", help="Tune a copy of the title's folder instead of the package's."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing variant file of that RTP.")
    ] = False,
    tolerance: Annotated[
        str | None,
        typer.Option(
            "--tolerance",
            help="How far, in percentage points, the tuned RTP may end from the target "
            f"(default: the tuner's own; at most {MAX_TUNE_TOLERANCE}).",
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            help="Aim this bet mode (an ante) at the target instead of the base game, moving "
            "only its own reel set; rewrites the --from variant (default: the model's default), "
            "whose base game stays exactly as it was.",
            metavar="NAME",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Search reel strips (and reveal weights) for a new RTP variant; writes
    variants/<rtp>.toml with its exact figures beside the strips (with --mode, the mode's reel
    set of the variant it starts from)."""
    from reelsmith.analysis.tuning import tune as tune_variant

    try:
        target = parse_target_rtp(target_rtp)
        if volatility is not None and volatility not in VOLATILITIES:
            raise LabInputError(
                f"--volatility must be one of {', '.join(VOLATILITIES)}, got {volatility!r}"
            )
        if game_dir is not None and not (game_dir / "model.toml").is_file():
            raise LabInputError(f"--game-dir {game_dir}: no model.toml in that folder")
        points = None if tolerance is None else parse_tolerance(tolerance)
    except LabInputError as exc:
        fail(str(exc))
    try:
        folder = game_dir if game_dir is not None else title_folder(game)
    except (UnknownGameError, ModelError) as exc:
        fail(str(exc))
    if game_dir is None and not is_path_reference(game):
        # a shipped title's folder is the installed package: written only when asked
        fail(
            f"tune {game} would write into the installed package ({folder}); tune a copy "
            f"(reelsmith new my_title --from {game}, then reelsmith tune my_title ...) or name "
            "the folder to write to with --game-dir"
        )
    model = _exact_title(game, base_variant, folder)
    from reelsmith.analysis.tuning import written_variant

    written = written_variant(model.variant(base_variant), target, mode)
    target_file = folder / "variants" / f"{written}.toml"
    if target_file.exists() and not force and mode is None:
        # with --mode the variant started from is the one rewritten (its base game as it was)
        fail(f"{target_file} exists already; pass --force to replace it")
    try:
        check_output_file(target_file, "variant file")
    except LabInputError as exc:
        fail(str(exc))
    from reelsmith.analysis.tuning import UntunableError, tuning_plan
    from reelsmith.analysis.warm import analysis_phase, prepare_analysis
    from reelsmith.compiled import compiling, phase_cached

    phase = analysis_phase(model)
    try:
        # the tuner runs the exact analysis at every move: compiled first, visibly, once; a
        # model the moves cannot tune is refused before anything compiles
        with compiling("the exact analysis", phase, err_console):
            cached = phase_cached(phase)
            plan = tuning_plan(
                model, target, volatility=volatility, base_variant=base_variant, mode=mode
            )
            if not cached:
                prepare_analysis(model, base_variant)
    except (UntunableError, ModelError) as exc:
        fail(str(exc))
    except ValueError as exc:  # a class out of the moves' reach: the search's answer
        _not_reached(str(exc))
    with _progress("tuning", counted=False) as progress:
        task = progress.add_task("tuning", total=None)

        def advance(done: int) -> None:
            progress.advance(task, done)

        try:
            result = tune_variant(
                model,
                folder,
                target,
                volatility=volatility,
                base_variant=base_variant,
                progress=advance,
                tolerance=points,
                plan=plan,
                mode=mode,
            )
        except ModelError as exc:  # a model mistake met on the way: refused as above
            progress.stop()
            fail(str(exc))
        except ValueError as exc:
            progress.stop()
            _not_reached(str(exc))
    if as_json:
        _print_json(result.to_json())
    else:
        result.render(console)


def warm(
    titles: Annotated[
        list[str] | None,
        typer.Argument(
            help="Title ids or title folders (default: every shipped title).", show_default=False
        ),
    ] = None,
) -> None:
    """Compile the lab's kernels for the titles now (simulation and exact analysis) and the
    live engine's code (play, serve), into the cache the next processes load them from: a
    fresh install's first use is then fast."""
    from reelsmith.analysis.enumeration import MAX_LINES
    from reelsmith.analysis.warm import (
        analysis_phase,
        prepare_analysis,
        prepare_simulation,
        simulation_phase,
    )
    from reelsmith.compiled import cache_dir, compiling, shown
    from reelsmith.games import TITLE_FOLDERS
    from reelsmith.terminal.warm import live_phase, play_throwaway_session

    # every title is checked before anything compiles: a bad name costs no minutes
    models = [_title(game, None) for game in (titles or sorted(TITLE_FOLDERS))]
    for model in models:
        started = time.perf_counter()
        try:
            with compiling(
                f"the simulation kernel of {model.id}", simulation_phase(model), err_console
            ):
                prepare_simulation(model)
            if not ("paylines" in model.raw and model.line_count > MAX_LINES):
                with compiling(
                    f"and running the exact analysis of {model.id}",
                    analysis_phase(model),
                    err_console,
                ):
                    prepare_analysis(model)
            with compiling(f"the live engine of {model.id}", live_phase(model), err_console):
                play_throwaway_session(model, None)  # what play and serve run live
        except ModelError as exc:
            fail(str(exc))
        console.print(
            f"{model.id}: ready ({time.perf_counter() - started:.1f} s)",
            markup=False,
            highlight=False,
        )
    folder = cache_dir()
    console.print(
        f"compiled code cached in {shown(folder)}"
        if folder is not None
        else "no writable cache folder: set NUMBA_CACHE_DIR to one, or every process compiles",
        markup=False,
        highlight=False,
    )


def register(app: typer.Typer) -> None:
    """Add the math lab's commands to the ``reelsmith`` command line."""
    app.command("analyze")(analyze)
    app.command("simulate")(simulate)
    app.command("tune")(tune)
    app.command("warm")(warm)
