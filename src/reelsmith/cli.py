"""The ``reelsmith`` command line."""

from __future__ import annotations

import json
import re
import sys
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

from reelsmith.engine.bets import BetError, parse_decimal
from reelsmith.engine.model import GameModel, ModelError, model_document
from reelsmith.engine.screen import GridError, parse_grid
from reelsmith.games import UnknownGameError, resolve_title

if TYPE_CHECKING:
    from reelsmith.terminal.evaluation import Grid, GridEvaluator

app = typer.Typer(
    help="reelsmith: slot titles to the letter of their rules, and the mathematics to prove them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)


def _version(value: bool) -> None:
    if value:
        from reelsmith import __version__

        console.print(f"reelsmith {__version__}", markup=False, highlight=False)
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """reelsmith: slot titles to the letter of their rules, and the mathematics to prove them."""


GameArg = Annotated[
    str,
    typer.Argument(help="Title id (see `reelsmith titles`) or a title folder / model.toml path."),
]
VariantOpt = Annotated[
    str | None, typer.Option("--variant", help="RTP variant id, e.g. 96.00 (default: the model's).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def make_url_password(url: str) -> str | None:
    """The password a database URL carries, if any (None for one that cannot be parsed)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).password
    except Exception:
        return None


def fail(message: str) -> NoReturn:
    """One line on stderr naming what is wrong, then a non-zero exit."""
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _load(game: str, variant: str | None = None) -> GameModel:
    """The title ``game`` names (an id or a path), its mechanics composed
    (:func:`reelsmith.mechanics.composition`); a title that does not load, a variant it lacks
    or mechanics that do not compose end the command by name."""
    from reelsmith.mechanics import composition

    try:
        model = resolve_title(game)
        model.variant(variant)
        composition(model)
        return model
    except (UnknownGameError, ModelError) as exc:
        fail(str(exc))


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


LangOpt = Annotated[
    str, typer.Option("--lang", help="The page's language: en or de (a tag such as de-AT works).")
]
MarketOpt = Annotated[
    str | None,
    typer.Option(
        "--market",
        help="Render the page a player of this market reads (its bets, limits and features), "
        "as the server serves it: default, gb, jp, ...",
    ),
]


@app.command()
def rules(
    game: GameArg,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
    market: MarketOpt = None,
) -> None:
    """Paytable, paylines, features and bet options, as a player reads them."""
    from reelsmith.help import LanguageError, language_of
    from reelsmith.rules_page import render_rules, rules_document

    model = _load(game, variant)
    try:
        language = language_of(lang)
    except LanguageError as exc:
        fail(f"--lang: {exc}")
    if market is None:
        try:
            document = rules_document(model, variant, language=language)
        except ModelError as exc:
            fail(str(exc))
    elif variant is not None:
        fail(f"--variant with --market: the market decides the variant {model.id} plays")
    else:
        document = _market_rules(model, market, language)
    if as_json:
        _print_json(document)
    else:
        console.print(render_rules(document))


def _market_rules(model: Any, market_id: str, language: str) -> dict[str, Any]:
    """The rules page the server serves a player of ``market_id``, with its default settings
    (the period after which an incomplete round is resolved)."""
    from reelsmith.server.markets import MarketError, load_markets, shipped_models
    from reelsmith.server.registry import TitleError, title_for
    from reelsmith.server.settings import Settings

    try:
        markets = load_markets(models={**shipped_models(), model.id: model})
        if market_id not in markets:
            known = ", ".join(sorted(markets))
            fail(f"--market: no market {market_id!r}; the markets are {known}")
        title = title_for(model)
        return title.rules(markets[market_id], language, Settings().resolve_after_seconds)
    except (MarketError, TitleError) as exc:
        fail(f"--market {market_id}: {exc}")


@app.command()
def model(game: GameArg, variant: VariantOpt = None, as_json: JsonOpt = False) -> None:
    """The complete model of a title, reel strips included."""
    loaded = _load(game, variant)
    document = model_document(loaded, variant)
    if as_json:
        _print_json(document)
        return
    from rich.table import Table

    v = document["variant"]
    console.print(f"[bold]{loaded.name}[/] variant {v['id']}: {v['description']}")
    for name, strips in v["reel_sets"].items():
        # a weighted reel set shows each reel's total weight and a stop of weight w as "id*w"
        weights = v.get("stop_weights", {}).get(name)
        table = Table(title=f"reel set {name}", title_justify="left")
        table.add_column("reel")
        table.add_column("stops", justify="right")
        if weights is not None:
            table.add_column("total weight", justify="right")
        table.add_column("strip")
        for reel, strip in enumerate(strips, start=1):
            if weights is None:
                table.add_row(str(reel), str(len(strip)), " ".join(strip))
                continue
            w = weights[reel - 1]
            shown = " ".join(s if x == 1 else f"{s}*{x}" for s, x in zip(strip, w, strict=True))
            table.add_row(str(reel), str(len(strip)), str(sum(w)), shown)
        console.print(table)
    console.print("figures: " + ", ".join(f"{k} = {val}" for k, val in v["figures"].items()))
    console.print("(use --json for the complete model)")


@app.command()
def evaluate(
    game: GameArg,
    grid: Annotated[
        list[str] | None,
        typer.Option(
            "--grid",
            help="Rows top to bottom separated by '/', cells left to right by ','. Repeatable.",
        ),
    ] = None,
    grids: Annotated[
        Path | None, typer.Option("--grids", help="A file with one grid per line.")
    ] = None,
    lines: Annotated[
        int | None, typer.Option("--lines", help="Coin-bet titles: paylines enabled (first N).")
    ] = None,
    coins_per_line: Annotated[
        int | None, typer.Option("--coins-per-line", help="Coin-bet titles: coins per line.")
    ] = None,
    coin_size: Annotated[
        str | None, typer.Option("--coin-size", help="Coin-bet titles: coin size.")
    ] = None,
    bet: Annotated[
        str | None, typer.Option("--bet", help="Ladder titles: the bet size, e.g. 1.00.")
    ] = None,
    level: Annotated[
        int, typer.Option("--level", help="Ladder titles: free-spins level (0 = main game).")
    ] = 0,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Evaluate screens: line wins, scatter win, total, free-spins or hold-and-spin trigger."""
    loaded = _load(game, variant)
    texts: list[tuple[str, str]] = [(f"--grid {i + 1}", g) for i, g in enumerate(grid or [])]
    if grids is not None:
        try:
            content = grids.read_text(encoding="utf-8")
        except OSError as exc:
            fail(f"--grids {grids}: {exc.strerror or exc}")
        for number, line in enumerate(content.splitlines(), start=1):
            if line.strip() and not line.lstrip().startswith("#"):
                texts.append((f"{grids}:{number}", line))
    if not texts:
        fail("give at least one --grid or a --grids file")

    from reelsmith.terminal.evaluation import EvaluateOptionError, EvaluateOptions, grid_evaluator

    options = EvaluateOptions(lines, coins_per_line, coin_size, bet, level)
    try:
        evaluator = grid_evaluator(loaded, options)
    except EvaluateOptionError as exc:
        fail(str(exc))

    # Parse everything first: a bad grid anywhere stops the batch before any output.
    parsed = []
    for where, text in texts:
        try:
            g = parse_grid(loaded, text)
            evaluator.check(loaded, g)
        except GridError as exc:
            fail(f"{where}: {exc}")
        parsed.append((text, g))

    from reelsmith.engine.errors import RuleError

    for text, g in parsed:
        try:
            result = evaluator.evaluate(g)
        except RuleError as exc:
            fail(str(exc))
        if as_json:
            _print_json(result)
        else:
            _print_evaluation(loaded, text, g, evaluator, result)


def _print_evaluation(
    loaded: GameModel, text: str, g: Grid, evaluator: GridEvaluator, result: dict[str, Any]
) -> None:
    from reelsmith.engine.screen import to_screen
    from reelsmith.terminal.screen import screen_table

    names = {s.id: s.name for s in loaded.symbols}
    console.print(screen_table(to_screen(loaded, g), names, {}, (), title=text))
    console.print(evaluator.describe)
    for win in result["line_wins"]:
        console.print(
            f"  payline {win['line']}: {win['count']} x {names[win['symbol']]} "
            f"= {win['coins']:,} {evaluator.unit}"
        )
    for win in result.get("way_wins", []):
        console.print(
            f"  {win['count']} x {names[win['symbol']]}, {win['ways']:,} "
            f"{'way' if win['ways'] == 1 else 'ways'} = {win['coins']:,} {evaluator.unit}"
        )
    for win in result.get("count_wins", []):
        console.print(
            f"  {win['count']} x {names[win['symbol']]} on the screen "
            f"= {win['coins']:,} {evaluator.unit}"
        )
    if result.get("scatter_win"):
        s = result["scatter_win"]
        scatter = loaded.symbols[loaded.scatter].name if loaded.scatter >= 0 else "scatter"
        console.print(f"  scatter: {s['count']} x {scatter} = {s['coins']:,} coins")
    total = evaluator.total(result)
    hold = result.get("hold_and_spin")
    console.print(
        f"  total {total}"
        + ("   [bold green]free spins triggered[/]" if result.get("free_spins_triggered") else "")
        + (
            f"   [bold green]hold-and-spin triggered: {hold['coins']} x {names[hold['symbol']]}[/]"
            if hold is not None and hold["triggered"]
            else ""
        )
    )
    if "plugin" in result:  # a plug-in's draw is not part of the screen: the law it leads to
        outcomes = ", ".join(
            f"{w['total_coins']:,} coins ({100 * w['probability']:.2f}%)"
            for w in result["plugin"]["wins"]
        )
        console.print(f"  after the {result['plugin']['name']}: {outcomes}")


TitlesDirOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--titles",
        help="Also the titles in DIR (a title folder with model.toml, or a folder of them), "
        "as `reelsmith serve --titles DIR` serves them; repeatable.",
        metavar="DIR",
    ),
]


def _registry(dirs: list[Path] | None) -> Any:
    """The titles in the registry's order: the shipped ones, then those in ``dirs``."""
    from reelsmith.server.registry import TitleError, TitleRegistry

    try:
        return TitleRegistry.load(dirs or ())
    except TitleError as exc:
        fail(str(exc))


def _title_listing(registry: Any) -> list[dict[str, Any]]:
    from reelsmith.mechanics import features

    listing = []
    for game_id, title in registry.items():
        model = title.model
        listing.append(
            {
                "id": game_id,
                "name": model.name,
                "mechanics": features(model),
                "variants": list(model.variants),
                "default_variant": model.default_variant,
            }
        )
    return listing


def _titles_text(listing: list[dict[str, Any]]) -> str:
    """The listing as aligned columns: id, name, mechanics and variants (* the default)."""
    rows = [("id", "name", "mechanics", "variants")]
    for row in listing:
        variants = " ".join(f"{v}*" if v == row["default_variant"] else v for v in row["variants"])
        rows.append((row["id"], row["name"], ",".join(row["mechanics"]), variants))
    widths = [max(len(row[column]) for row in rows) for column in range(3)] + [0]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


@app.command()
def titles(extra: TitlesDirOpt = None, as_json: JsonOpt = False) -> None:
    """The titles reelsmith plays, in the registry's order (shipped titles first): id, name,
    the mechanics it plays (how it pays and its features) and RTP variants (* the default)."""
    listing = _title_listing(_registry(extra))
    if as_json:
        _print_json(listing)
    else:
        console.print(_titles_text(listing), markup=False, highlight=False, soft_wrap=True)


@app.command()
def play(
    game: Annotated[
        str | None,
        typer.Argument(
            help="Title id or a title folder / model.toml path. Without one, the titles are "
            "listed (as `reelsmith titles` lists them) and the command exits with status 2.",
            show_default=False,
        ),
    ] = None,
    balance: Annotated[
        str, typer.Option("--balance", help="Starting play-money credits.")
    ] = "1000.00",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed a reproducible session (default: OS CSPRNG).")
    ] = None,
    variant: VariantOpt = None,
) -> None:
    """Play a title in the terminal with play money."""
    from reelsmith.rng import SeededSource, SystemSource

    if game is None:
        listing = _titles_text(_title_listing(_registry(None)))
        err_console.print(listing, markup=False, highlight=False, soft_wrap=True)
        fail("name the title to play: one of the ids above, or a title folder's path")
    loaded = _load(game, variant)
    try:  # the game's heading states the RTP, as the rules page does: a variant must state one
        loaded.variant(variant).rtp_percent()
    except ModelError as exc:
        fail(str(exc))
    try:
        start = parse_decimal(balance, "balance")
    except BetError as exc:
        fail(str(exc))
    if start < 0 or start != start.quantize(Decimal("0.01")):
        fail(f"balance must be a non-negative amount with at most 2 decimals, got {balance}")
    rng = SeededSource(seed) if seed is not None else SystemSource()

    def read(prompt: str) -> str:
        # A prompt is plain text: "[c]ollect" is the key to type, not console markup.
        console.print(f"{prompt} > ", end="", markup=False, highlight=False)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    from reelsmith.compiled import compiling, phase_cached
    from reelsmith.terminal.game import TerminalGame
    from reelsmith.terminal.warm import live_phase, play_throwaway_session

    if not phase_cached(live_phase(loaded)):  # compiled before the first spin, announced
        with compiling(f"the live engine of {loaded.id}", live_phase(loaded), err_console):
            play_throwaway_session(loaded, variant)
    TerminalGame(loaded, console, rng, start, read, variant=variant).run()


@app.command()
def validate(
    path: Annotated[Path, typer.Argument(help="A title folder (or its model.toml).")],
    markets: Annotated[
        Path | None,
        typer.Option(
            "--markets",
            help="Check that a market in DIR offers the title (default: the shipped markets), "
            "as `reelsmith serve --markets DIR` would.",
            metavar="DIR",
        ),
    ] = None,
    rtp_tolerance: Annotated[
        str,
        typer.Option(
            "--rtp-tolerance",
            help="How far, in percentage points, a variant's stated RTP may lie from the exact "
            "RTP of its strips.",
        ),
    ] = "0.01",
    as_json: JsonOpt = False,
) -> None:
    """Check a model file and its variants: every problem that a command (rules, analyze,
    simulate, tune, play, serve) would refuse it for on a line of its own (exit status 1), and
    warnings for what they take but a designer rarely means."""
    from reelsmith.modelio.validate import check_folder

    try:
        tolerance = parse_decimal(rtp_tolerance, "--rtp-tolerance")
    except BetError as exc:
        fail(str(exc))
    if not tolerance.is_finite() or tolerance < 0:
        fail(f"--rtp-tolerance must be a number of percentage points >= 0, got {rtp_tolerance}")
    if markets is not None and not markets.is_dir():
        fail(f"--markets {markets}: no such folder")
    folder = path.parent if path.name == "model.toml" else path
    found = check_folder(folder, markets, tolerance)
    if as_json:
        _print_json(
            {
                "path": str(folder),
                "valid": not found.problems,
                "problems": found.problems,
                "warnings": found.warnings,
            }
        )
    else:
        for line in [*found.problems, *found.warnings]:
            err_console.print(line, markup=False, highlight=False, soft_wrap=True)
        if not found.problems:
            count = len(found.warnings)
            warned = f" ({count} warning{'s' * (count != 1)})" if count else ""
            console.print(f"{folder}: valid{warned}", markup=False, highlight=False, soft_wrap=True)
    if found.problems:
        raise typer.Exit(1)


_TITLE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@app.command()
def new(
    path: Annotated[
        Path,
        typer.Argument(
            help="The title folder to create (it must not exist); its name gives the title's id "
            "and name unless --id and --name do.",
            show_default=False,
        ),
    ],
    start: Annotated[
        str,
        typer.Option("--from", help="The shipped title to start from (see `reelsmith titles`)."),
    ] = "aurora-fox",
    title_id: Annotated[
        str | None, typer.Option("--id", help="The new title's id (default: from the folder name).")
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", help="The name players read (default: from the folder name)."),
    ] = None,
) -> None:
    """Start a title of your own: a copy of a shipped title's model and variants under a new id
    and name, valid as it stands, to edit (docs/model-format.md)."""
    import shutil

    from reelsmith.engine.model import load_model
    from reelsmith.games import TITLE_FOLDERS, game_folder

    if path.exists():
        fail(f"{path} exists already: name a folder that does not exist")
    if not path.parent.is_dir():
        fail(f"{path}: the folder {path.parent} does not exist")
    stem = path.resolve().name
    new_id = (
        title_id if title_id is not None else re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
    )
    if not _TITLE_ID.fullmatch(new_id):
        fail(
            f"the title id {new_id!r} must be lower-case letters and digits in words joined by "
            "'-' (give one with --id)"
        )
    if new_id in TITLE_FOLDERS:
        fail(f"the title id {new_id!r} is a shipped title's: give the new title its own (--id)")
    new_name = name if name is not None else re.sub(r"[_-]+", " ", stem).strip().title()
    if not new_name or '"' in new_name or "\\" in new_name or "\n" in new_name:
        fail(f"--name must be a non-empty name without quotes or backslashes, got {new_name!r}")
    try:
        source = game_folder(start)
    except UnknownGameError as exc:
        fail(f"--from: {exc}")
    original = load_model(source)
    shutil.copytree(source, path, ignore=shutil.ignore_patterns("__pycache__"))
    model_file = path / "model.toml"
    text = model_file.read_text(encoding="utf-8")
    text = re.sub(r'^id = ".*"$', f'id = "{new_id}"', text, count=1, flags=re.M)
    text = re.sub(r'^name = ".*"$', f'name = "{new_name}"', text, count=1, flags=re.M)
    model_file.write_text(text, encoding="utf-8")
    try:
        made = load_model(path)
    except ModelError as exc:  # the shipped title loads, so only the new id or name can fail
        shutil.rmtree(path)
        fail(str(exc))
    console.print(
        f"{path}: the title {made.id} ({made.name}), a copy of {original.name} with its "
        f"variants {', '.join(made.variants)}; edit {model_file} and {path / 'variants'}, "
        f"then check it with: reelsmith validate {path}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


from reelsmith.analysis.commands import register as _register_math_lab  # noqa: E402

_register_math_lab(app)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="SQLAlchemy URL (default: SQLite in ./var)."),
    ] = None,
    config: Annotated[Path | None, typer.Option("--config", help="A TOML settings file.")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Worker processes.")] = 1,
    demo: Annotated[bool, typer.Option("--demo", help="Create a demo player.")] = False,
    dev: Annotated[
        bool,
        typer.Option(
            "--dev",
            help="Dev mode: players choose outcomes (forced draws). Loopback and SQLite only,"
            " unless REELSMITH_DEV_MODE_ANYWHERE=true.",
        ),
    ] = False,
    titles: Annotated[
        list[Path] | None,
        typer.Option(
            "--titles",
            help="Serve the catalogue titles in DIR too (a title folder with model.toml, or a "
            "folder of them); repeatable.",
            metavar="DIR",
        ),
    ] = None,
    markets: Annotated[
        Path | None,
        typer.Option(
            "--markets",
            help="Read the market files from DIR instead of the shipped ones (to offer the "
            "titles added with --titles).",
            metavar="DIR",
        ),
    ] = None,
) -> None:
    """Run the game server (HTTP API, and the web client when present)."""
    import os

    import uvicorn

    from reelsmith.server.settings import Settings, SettingsError

    if not 1 <= port <= 65535:
        fail(f"--port must be 1 to 65535, got {port}")
    if workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    overrides = {
        "database_url": database_url,
        "demo": demo or None,
        "dev_mode": dev or None,
        "titles_dirs": os.pathsep.join(str(p.resolve()) for p in titles) if titles else None,
        "markets_dir": str(markets.resolve()) if markets else None,
    }
    try:
        settings = Settings.load(config, **overrides)
        settings.connect_url()  # an unreadable password file stops the start here
    except SettingsError as exc:
        fail(str(exc))
    from reelsmith.server.markets import MARKETS_DIR, MarketError, load_markets
    from reelsmith.server.registry import TitleError, TitleRegistry

    try:  # a title or market the server cannot serve stops the start here, by name
        served = TitleRegistry.load(settings.title_paths())
        offered = load_markets(
            Path(settings.markets_dir) if settings.markets_dir else MARKETS_DIR, served.models()
        )
    except (TitleError, MarketError) as exc:
        fail(str(exc))
    if settings.dev_mode:
        try:
            settings.check_dev_mode(host)
        except SettingsError as exc:
            fail(str(exc))
        from reelsmith.server.settings import DEV_MODE_BANNER, DEV_MODE_GRANT

        err_console.print(f"WARNING: {DEV_MODE_BANNER}", markup=False, highlight=False)
        os.environ[DEV_MODE_GRANT] = str(os.getpid())  # this process and its workers alone
    for game_id in served.models():
        if not any(game_id in market.games for market in offered.values()):
            err_console.print(
                f"warning: no market offers {game_id}: every spin of it is refused "
                "(game_not_offered); list it in a market file and serve with --markets DIR",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
    if workers > 1 and settings.generated:
        fail(
            "several workers must share their keys: "
            "set REELSMITH_SECRET_KEY and REELSMITH_OPERATOR_API_KEY"
        )
    _check_listen(host, port)
    _compile_live_engine(served, offered)
    from reelsmith.store.db import redact_url

    if database_url and make_url_password(database_url):
        err_console.print(
            "warning: a password in --database-url can be read by any user of this machine"
            " in the process list; set REELSMITH_DATABASE_URL or database_password_file"
            " instead (docs/deployment.md)",
            markup=False,
            highlight=False,
        )
    # Workers are separate processes: hand them the settings through the environment.
    if config is not None:
        os.environ["REELSMITH_CONFIG"] = str(config.resolve())
    os.environ.update(
        {
            "REELSMITH_DATABASE_URL": settings.database_url,
            "REELSMITH_SECRET_KEY": settings.secret_key,
            "REELSMITH_OPERATOR_API_KEY": settings.operator_api_key,
            "REELSMITH_DEMO": str(settings.demo),
            "REELSMITH_DEV_MODE": str(settings.dev_mode),
            "REELSMITH_TITLES_DIRS": settings.titles_dirs,
            "REELSMITH_MARKETS_DIR": settings.markets_dir,
        }
    )
    # One line each, never wrapped at the terminal's width: a URL or a key broken across two
    # lines cannot be copied.
    console.print(
        f"reelsmith serving on http://{host}:{port}/"
        f" (database {redact_url(settings.database_url)})",
        soft_wrap=True,
        markup=False,
        highlight=False,
    )
    os.environ.setdefault("REELSMITH_LOG_JSON", "true")
    if "operator_api_key" in settings.generated:
        console.print(
            f"operator API key for this run: {settings.operator_api_key}",
            soft_wrap=True,
            markup=False,
            highlight=False,
        )
    uvicorn_config: dict[str, Any] = {
        "app": "reelsmith.server.app:serve_app",
        "factory": True,
        "log_level": "info",
        # uvicorn's httptools protocol with limits on heads, bodies, idle time and
        # connections (server.transport; docs/deployment.md)
        "http": "reelsmith.server.transport:LimitedHttpToolsProtocol",
        # the server logs every request itself, as a structured line (uvicorn's access log
        # would be a second, unstructured line per request)
        "access_log": False,
    }
    from reelsmith.server import workers as worker_pool

    if workers > 1 and worker_pool.per_worker_sockets():
        # a listening socket per worker: connections spread evenly (server/workers.py)
        try:
            worker_pool.run(host, port, workers, uvicorn_config)
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        return
    uvicorn.run(host=host, port=port, workers=workers, **uvicorn_config)


def _compile_live_engine(served: Any, offered: Any) -> None:
    """Compile, announced, the live engine's code of each served title whose code is not
    cached yet, before the server says it is serving (its workers then load it from the
    cache as they warm up, and no first spin waits minutes)."""
    from reelsmith.compiled import compiling, phase_cached
    from reelsmith.server.warm import live_phase, play_throwaway_rounds

    for game, title in served.items():
        if phase_cached(live_phase(game)):
            continue
        with compiling(f"the live engine of {game}", live_phase(game), err_console):
            play_throwaway_rounds({game: title}, offered)


def _check_listen(host: str, port: int) -> None:
    """Bind ``host:port`` as the server will (address reuse on, as uvicorn sets it) and let it
    go: a port in use or a host this machine does not have stops the start in one line, before
    the server says it is serving."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        fail(f"--host {host}: {exc.strerror or exc}")
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


audit_app = typer.Typer(help="Audit log and ledger checks.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
def audit_verify(
    database_url: Annotated[
        str | None, typer.Option("--database-url", help="SQLAlchemy URL (default: the server's).")
    ] = None,
    extra: TitlesDirOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check the hash chain of the audit log, the balance of the ledger, and every round's
    payout re-derived from its recorded draws at its own variant and price against what the
    ledger moved for it. Exit status 1 when any check fails."""
    import os

    from reelsmith.server.services.payouts import verify_payouts
    from reelsmith.server.settings import DEFAULT_DATABASE_URL, Settings, SettingsError
    from reelsmith.store import audit as audit_log
    from reelsmith.store.db import Database, redact_text, redact_url
    from reelsmith.wallet import ledger

    registry = _registry(extra)
    url = database_url or os.environ.get("REELSMITH_DATABASE_URL", DEFAULT_DATABASE_URL)
    password_file = os.environ.get("REELSMITH_DATABASE_PASSWORD_FILE", "")
    try:
        connect = Settings(database_url=url, database_password_file=password_file).connect_url()
    except SettingsError as exc:
        fail(str(exc))
    try:
        db = Database(connect)
        with db.read() as connection:
            chain = audit_log.verify(connection)
            books = ledger.verify(connection)
            payouts = verify_payouts(connection, registry)
    except Exception as exc:  # a missing or unreadable database
        fail(f"cannot read {redact_url(url)}: {redact_text(str(exc), connect)}")
    ok = chain.ok and books.ok and payouts.ok
    result = {
        "ok": ok,
        "audit": {"players": chain.players, "entries": chain.entries, "problems": chain.problems},
        "ledger": {
            "transactions": books.transactions,
            "unbalanced_transactions": books.unbalanced_transactions,
            "wallet_mismatches": books.wallet_mismatches,
            "negative_wallets": books.negative_wallets,
        },
        "payouts": payouts.to_json(),
    }
    if as_json:
        _print_json(result)
    else:
        console.print(
            f"audit chain: {chain.entries} entries for {chain.players} players, "
            + ("intact" if chain.ok else f"[red]{len(chain.problems)} problems[/]")
        )
        for problem in chain.problems[:20]:
            console.print(f"  {problem}")
        console.print(
            f"ledger: {books.transactions} transactions, "
            + ("balanced" if books.ok else "[red]NOT balanced[/]")
        )
        console.print(
            f"payouts: {payouts.checked} of {payouts.rounds} rounds re-derived, "
            + (
                "each as the ledger paid it"
                if not payouts.differences
                else f"[red]{len(payouts.differences)} differences[/]"
            )
            + (f", [red]{len(payouts.unchecked)} unchecked[/]" if payouts.unchecked else "")
        )
        for found in [*payouts.differences, *payouts.unchecked][:20]:
            console.print(
                f"  round {found['round_id']} ({found['game']}, player {found['player_id']}): "
                + found.get("problem", found.get("reason", "")),
                markup=False,
                highlight=False,
            )
    if not ok:
        raise typer.Exit(1)


@app.command("operator-sim")
def operator_sim(
    database: Annotated[
        Path, typer.Option("--database", help="The simulator's SQLite file (created if missing).")
    ],
    keys: Annotated[
        Path,
        typer.Option(
            "--keys",
            help="Folder of the RSA key pairs (game_*.pem, operator_*.pem); missing pairs are"
            " generated. Never commit it.",
        ),
    ],
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8100,
    fail_rate: Annotated[
        float, typer.Option("--fail-rate", help="Share of wallet calls given a fault (0 to 1).")
    ] = 0.0,
    faults: Annotated[
        str,
        typer.Option(
            "--faults",
            help="Fault modes drawn from, comma-separated: timeout, error, slow, twice, lose,"
            " truncate, late (not drawn unless named).",
        ),
    ] = "timeout,error,slow,twice,lose,truncate",
    hang_seconds: Annotated[
        float, typer.Option("--hang-seconds", help="How long timeout and lose hold the answer.")
    ] = 2.0,
    slow_seconds: Annotated[
        float,
        typer.Option("--slow-seconds", help="How long slow delays the answer (late, the request)."),
    ] = 0.2,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the fault draws.")] = None,
    fault_calls: Annotated[
        str,
        typer.Option("--fault-calls", help="The calls faulted, comma-separated."),
    ] = "balance,bet,win,rollback",
) -> None:
    """Run the operator (casino) simulator: a Hub88-shaped seamless wallet with its own
    database, signature checks and injectable faults (docs/operator-integration.md)."""
    from reelsmith.wallet import operator_sim as sim
    from reelsmith.wallet.signing import SignatureError

    if not 1 <= port <= 65535:
        fail(f"--port must be 1 to 65535, got {port}")
    chosen = sim.Faults(
        fail_rate=fail_rate,
        modes=tuple(mode.strip() for mode in faults.split(",") if mode.strip()),
        hang_seconds=hang_seconds,
        slow_seconds=slow_seconds,
        seed=seed,
        calls=tuple(call.strip() for call in fault_calls.split(",") if call.strip()),
    )
    try:
        chosen.check()
    except ValueError as exc:
        fail(f"--fail-rate/--faults/--fault-calls: {exc}")
    _check_listen(host, port)
    try:
        sim.serve(host, port, database, keys, chosen)
    except (SignatureError, OSError) as exc:
        fail(str(exc))


@app.command("wallet-keys")
def wallet_keys(
    folder: Annotated[Path, typer.Argument(help="Folder to write the missing key pairs into.")],
) -> None:
    """Write the game's and the operator's RSA key pairs for the seamless wallet's signatures
    into FOLDER (the pairs already there are kept)."""
    from reelsmith.wallet.signing import SignatureError, ensure_keys

    try:
        written = ensure_keys(folder)
    except (SignatureError, OSError) as exc:
        fail(str(exc))
    for path in written:
        console.print(f"wrote {path}", markup=False, highlight=False)
    if not written:
        console.print(f"{folder}: both key pairs exist", markup=False, highlight=False)


def _moment(value: str | None, name: str, default: int) -> int:
    """A period's edge: milliseconds since the epoch, or an ISO 8601 time (UTC if no zone)."""
    if value is None:
        return default
    if value.isdigit():
        return int(value)
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        fail(f"{name} {value!r} is neither milliseconds since 1970 nor an ISO 8601 time")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


@app.command()
def reconcile(
    operator_url: Annotated[
        str | None,
        typer.Option("--operator-url", help="The operator simulator, read at /admin/transactions."),
    ] = None,
    operator_file: Annotated[
        Path | None,
        typer.Option(
            "--operator-file",
            help="The operator's transactions as a JSON file instead: a list, or an object"
            ' with "transactions" (the simulator\'s shape).',
        ),
    ] = None,
    database_url: Annotated[
        str | None, typer.Option("--database-url", help="SQLAlchemy URL (default: the server's).")
    ] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Start of the period (ms or ISO 8601).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="End of the period (ms or ISO 8601; default now).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Compare the game's seamless-wallet calls and ledger with the operator's transactions
    for a period and list every difference. Exit status 1 when there is one."""
    import os
    import time

    import httpx

    from reelsmith.server.settings import DEFAULT_DATABASE_URL, Settings, SettingsError
    from reelsmith.store.db import Database, redact_text, redact_url
    from reelsmith.wallet import reconcile as books

    if (operator_url is None) == (operator_file is None):
        fail("give the operator's transactions by --operator-url or by --operator-file (one)")
    since_ms = _moment(since, "--since", 0)
    until_ms = _moment(until, "--until", int(time.time() * 1000) + 1)
    if until_ms <= since_ms:
        fail(f"--until ({until_ms}) must come after --since ({since_ms})")
    low, high = since_ms - books.EDGE_MS, until_ms + books.EDGE_MS
    try:
        if operator_url is not None:
            response = httpx.get(
                operator_url.rstrip("/") + "/admin/transactions",
                params={"since_ms": max(0, low), "until_ms": high},
                timeout=60,
            )
            response.raise_for_status()
            data = response.json()
        else:
            assert operator_file is not None
            data = json.loads(operator_file.read_text(encoding="utf-8"))
    except (httpx.HTTPError, OSError, ValueError) as exc:
        fail(f"cannot read the operator's transactions: {exc}")
    operator = data.get("transactions") if isinstance(data, dict) else data
    if not isinstance(operator, list) or not all(isinstance(tx, dict) for tx in operator):
        fail("the operator's transactions are not a list of objects")
    required = {"transaction_uuid", "kind", "user", "amount", "status", "created_ms"}
    for tx in operator:
        missing = required - set(tx)
        if missing:
            fail(f"an operator transaction lacks {', '.join(sorted(missing))}: {tx}")
    url = database_url or os.environ.get("REELSMITH_DATABASE_URL", DEFAULT_DATABASE_URL)
    password_file = os.environ.get("REELSMITH_DATABASE_PASSWORD_FILE", "")
    try:
        connect = Settings(database_url=url, database_password_file=password_file).connect_url()
    except SettingsError as exc:
        fail(str(exc))
    try:
        db = Database(connect)
        with db.read() as connection:
            calls = books.game_calls(connection, since_ms, until_ms)
            nearby = [
                str(call["id"])
                for call in [
                    *books.game_calls(connection, low, since_ms),
                    *books.game_calls(connection, until_ms, high),
                ]
            ]
            ledger = books.ledger_rounds(connection, (str(call["round_id"]) for call in calls))
        db.dispose()
    except Exception as exc:  # a missing or unreadable database
        fail(f"cannot read {redact_url(url)}: {redact_text(str(exc), connect)}")
    result = books.reconcile(calls, ledger, operator, since_ms, until_ms, nearby=nearby)
    if as_json:
        _print_json(result.to_json())
    else:
        console.print(
            f"{result.game_calls} game calls, {result.operator_transactions} operator"
            f" transactions: "
            + ("no difference" if result.ok else f"{len(result.differences)} differences"),
            markup=False,
            highlight=False,
        )
        for found in result.differences:
            console.print(
                f"  {found.kind} {found.transaction_uuid} round {found.round_id} user"
                f" {found.user}: {found.detail}",
                markup=False,
                highlight=False,
            )
    if not result.ok:
        raise typer.Exit(1)


report_app = typer.Typer(
    help="The operator's reports: per day, title, market and currency, and the RTP monitor.",
    no_args_is_help=True,
)
app.add_typer(report_app, name="report")

FromOpt = Annotated[str, typer.Option("--from", help="The first day, YYYY-MM-DD (UTC).")]
ToOpt = Annotated[
    str | None, typer.Option("--to", help="The last day, included (default: --from).")
]
ReportDbOpt = Annotated[
    str | None, typer.Option("--database-url", help="SQLAlchemy URL (default: the server's).")
]


def _report(database_url: str | None, start: str, end: str | None, extra: Any) -> Any:
    """The daily report of the server's database for the period (exit 2 naming a bad date or
    an unreadable database)."""
    import os

    from reelsmith.server.services import reports
    from reelsmith.server.settings import DEFAULT_DATABASE_URL, Settings, SettingsError
    from reelsmith.store.db import Database, redact_text, redact_url

    try:
        first, last = reports.period(start, end)
    except reports.ReportError as exc:
        fail(str(exc))
    registry = _registry(extra)
    url = database_url or os.environ.get("REELSMITH_DATABASE_URL", DEFAULT_DATABASE_URL)
    password_file = os.environ.get("REELSMITH_DATABASE_PASSWORD_FILE", "")
    try:
        connect = Settings(database_url=url, database_password_file=password_file).connect_url()
    except SettingsError as exc:
        fail(str(exc))
    try:
        db = Database(connect)
        with db.read() as connection:
            found = reports.daily_report(connection, registry, first, last)
        db.dispose()
    except Exception as exc:  # a missing or unreadable database
        fail(f"cannot read {redact_url(url)}: {redact_text(str(exc), connect)}")
    return found


@report_app.command("daily")
def report_daily(
    start: FromOpt,
    end: ToOpt = None,
    database_url: ReportDbOpt = None,
    extra: TitlesDirOpt = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="The day rows as CSV.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Per day, title, variant, model hash, market and currency: rounds, bets, wins, GGR,
    jackpot contributions and wins, free-round wins, and the realised RTP beside the
    theoretical with its 99% band (docs/operator-guide.md). The text lists a model hash's first
    12 digits; --json and --csv give it whole."""
    found = _report(database_url, start, end, extra)
    if as_csv:
        sys.stdout.write(found.to_csv())
        return
    if as_json:
        _print_json(found.to_json())
        return
    for row in [*found.days, *found.totals]:
        band = (
            "no band"
            if row["in_band"] is None
            else f"band {row['rtp_band_low']:.4f}..{row['rtp_band_high']:.4f}"
            + ("" if row["in_band"] else " OUTSIDE")
        )
        console.print(
            f"{row['day'] or 'period'} {row['game']} {row['variant']}"
            f" model {(row['model_hash'] or 'unrecorded')[:12]} {row['market']}"
            f" {row['currency']}: {row['rounds']} rounds ({row['free_rounds']} free), bets"
            f" {row['bets']['amount']}, wins {row['wins']['amount']}, jackpots"
            f" {row['jackpot_wins']['amount']}, GGR {row['ggr']['amount']}, RTP"
            f" {row['rtp'] if row['rtp'] is not None else '-'} (theory"
            f" {row['rtp_theoretical']}, {band})",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


@report_app.command("monitor")
def report_monitor(
    start: FromOpt,
    end: ToOpt = None,
    database_url: ReportDbOpt = None,
    extra: TitlesDirOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check each title's realised RTP over the period against its 99% band. Exit status 1
    when one lies outside (for an alert)."""
    from reelsmith.server.services import reports

    result = reports.monitor(_report(database_url, start, end, extra))
    if as_json:
        _print_json(result)
    else:
        console.print(
            f"{result['checked']} title{'' if result['checked'] == 1 else 's'} checked from"
            f" {result['from']} to {result['to']}: "
            + ("every realised RTP within its 99% band" if result["ok"] else "some outside"),
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        for row in result["flagged"]:
            console.print(
                f"  {row['game']} {row['variant']} model"
                f" {(row['model_hash'] or 'unrecorded')[:12]} {row['market']}"
                f" {row['currency']}: RTP"
                f" {row['rtp']} over {row['rtp_rounds']} rounds, outside"
                f" {row['rtp_band_low']:.4f}..{row['rtp_band_high']:.4f} (theory"
                f" {row['rtp_theoretical']})",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
    if not result["ok"]:
        raise typer.Exit(1)


def main() -> None:  # pragma: no cover - console-script entry
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
