"""The ``reelsmith`` command line."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from reelsmith.engine.bets import BetError, parse_decimal
from reelsmith.engine.model import ModelError, model_document
from reelsmith.engine.screen import GridError, parse_grid
from reelsmith.games import UnknownGameError, load_game

app = typer.Typer(
    help="reelsmith: slot titles to the letter of their rules, and the mathematics to prove them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="Title id, e.g. days-of-the-tsar.")]
VariantOpt = Annotated[
    str | None, typer.Option("--variant", help="RTP variant id, e.g. 96.00 (default: the model's).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def fail(message: str) -> NoReturn:
    """One line on stderr naming what is wrong, then a non-zero exit."""
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _load(game: str, variant: str | None = None):  # type: ignore[no-untyped-def]
    try:
        model = load_game(game)
        model.variant(variant)
    except (UnknownGameError, ModelError) as exc:
        fail(str(exc))
    return model


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


@app.command()
def rules(game: GameArg, variant: VariantOpt = None, as_json: JsonOpt = False) -> None:
    """Paytable, paylines, features and bet options, as a player reads them."""
    from reelsmith.rules_page import render_rules, rules_document

    model = _load(game, variant)
    document = rules_document(model, variant)
    if as_json:
        _print_json(document)
    else:
        console.print(render_rules(document))


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
        table = Table(title=f"reel set {name}", title_justify="left")
        table.add_column("reel")
        table.add_column("stops", justify="right")
        table.add_column("strip")
        for reel, strip in enumerate(strips, start=1):
            table.add_row(str(reel), str(len(strip)), " ".join(strip))
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
        int | None, typer.Option("--lines", help="Paylines enabled (the first N).")
    ] = None,
    coins_per_line: Annotated[int | None, typer.Option("--coins-per-line")] = None,
    coin_size: Annotated[str | None, typer.Option("--coin-size")] = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Evaluate screens: line wins, scatter win, total, free-spins trigger."""
    from reelsmith.games.days_of_the_tsar import rules as tsar

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

    options = tsar.tsar_rules(loaded).bets
    default = options.default
    try:
        bet = options.validate(
            default.lines if lines is None else lines,
            default.coins_per_line if coins_per_line is None else coins_per_line,
            default.coin_size if coin_size is None else parse_decimal(coin_size, "coin size"),
        )
    except BetError as exc:
        fail(str(exc))

    # Parse everything first: a bad grid anywhere stops the batch before any output.
    parsed = []
    for where, text in texts:
        try:
            g = parse_grid(loaded, text)
            tsar.check_screen(loaded, g)
        except GridError as exc:
            fail(f"{where}: {exc}")
        parsed.append((text, g))

    for text, g in parsed:
        result = tsar.evaluate_grid(loaded, g, bet)
        if as_json:
            _print_json(result)
        else:
            _print_evaluation(loaded, text, g, bet, result)


def _print_evaluation(loaded, text, g, bet, result) -> None:  # type: ignore[no-untyped-def]
    from reelsmith.engine.screen import to_screen
    from reelsmith.terminal.screen import screen_table

    names = {s.id: s.name for s in loaded.symbols}
    console.print(screen_table(to_screen(loaded, g), names, {}, (), title=text))
    console.print(
        f"bet {bet.lines} lines x {bet.coins_per_line} coins x {bet.coin_size} = "
        f"{bet.total_coins} coins"
    )
    for win in result["line_wins"]:
        console.print(
            f"  payline {win['line']}: {win['count']} x {names[win['symbol']]} "
            f"= {win['coins']:,} coins"
        )
    if result["scatter_win"]:
        s = result["scatter_win"]
        console.print(f"  scatter: {s['count']} eggs = {s['coins']:,} coins")
    console.print(
        f"  total {result['total_coins']:,} coins = {result['total_credits']} credits"
        + ("   [bold green]free spins triggered[/]" if result["free_spins_triggered"] else "")
    )


@app.command()
def play(
    game: GameArg = "days-of-the-tsar",
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
    from reelsmith.terminal.days_of_the_tsar import TsarTerminal

    loaded = _load(game, variant)
    try:
        start = parse_decimal(balance, "balance")
    except BetError as exc:
        fail(str(exc))
    if start < 0 or start != start.quantize(Decimal("0.01")):
        fail(f"balance must be a non-negative amount with at most 2 decimals, got {balance}")
    rng = SeededSource(seed) if seed is not None else SystemSource()

    def read(prompt: str) -> str:
        console.print(f"{prompt} > ", end="")
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    TsarTerminal(loaded, console, rng, start, read, variant=variant).run()


def main() -> None:  # pragma: no cover - console-script entry
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
