"""Forced draws for the browser tests, computed from the same reel strips the server spins.

Each function returns the list of draws one request consumes, in the engine's order (see the
brief in the issue): the tests hand them to the page through ``window.reelsmith.forceNext``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from reelsmith.engine.evaluation import ScreenWins, evaluate_screen
from reelsmith.engine.ladder import Jackpot, ladder_rules
from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.engine.round import Round
from reelsmith.engine.screen import window
from reelsmith.games import TITLE_FOLDERS, load_game
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules

TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"
AURORA = "aurora-fox"
TSAR_VARIANT = "96.00"  # the default market's variants (server/markets/default.toml)
SULTAN_VARIANT = "94.00"
AURORA_VARIANT = "96.00"
LANTERNS = "lucky-lanterns"  # a hold-and-spin title; tested where its folder is in games/
VARIANTS = {TSAR: TSAR_VARIANT, SULTAN: SULTAN_VARIANT, AURORA: AURORA_VARIANT}


@cache
def model(game: str) -> GameModel:
    return load_game(game)


def weighted_draw(outcomes: Sequence[object], weights: Sequence[int], wanted: object) -> int:
    """The draw that makes a weighted choice (``rng.weighted_index``) pick ``wanted``."""
    index = list(outcomes).index(wanted)
    return sum(weights[:index])


def egg_reveal(spins: int) -> int:
    """The draw with which an egg reveals ``spins`` free spins."""
    table = model(TSAR).variant(TSAR_VARIANT).parameters["egg_reveal"]
    return weighted_draw(table["values"], table["weights"], spins)


def gem_reveal(outcome: str) -> int:
    """The draw with which a gem (not hitting its pot) reveals ``outcome``."""
    table = model(SULTAN).variant(SULTAN_VARIANT).parameters["gem_reveal"]
    return weighted_draw(table["outcomes"], table["weights"], outcome)


def reel_set(game: str, name: str) -> ReelSet:
    # a title not listed above is spun on its model's default variant
    return model(game).variant(VARIANTS.get(game)).reel_sets[name]


def _windows(game: str, name: str, reel: int) -> list[list[int]]:
    strips = reel_set(game, name)
    rows = model(game).rows
    return [
        [int(strips.padded[reel, stop + r]) for r in range(rows)]
        for stop in range(int(strips.lengths[reel]))
    ]


def search_stops(
    game: str,
    name: str,
    per_reel: Sequence[Callable[[list[int]], bool]],
    accept: Callable[[npt.NDArray[np.int8]], bool] = lambda _grid: True,
) -> list[int]:
    """The first stops (in a fixed order) whose windows satisfy ``per_reel`` and whose whole
    screen satisfies ``accept``."""
    candidates = [
        [stop for stop, cells in enumerate(_windows(game, name, reel)) if per_reel[reel](cells)]
        for reel in range(model(game).reels)
    ]
    for reel, options in enumerate(candidates):
        if not options:
            raise AssertionError(f"no stop on reel {reel + 1} of {game} {name} fits")
    strips = reel_set(game, name)
    rows = model(game).rows
    for i in range(20_000):
        stops = [
            options[(i * (7 + 3 * r) + r) % len(options)] for r, options in enumerate(candidates)
        ]
        if accept(window(strips, stops, rows)):
            return stops
    raise AssertionError(f"no screen of {game} {name} is accepted")


def tsar_wins(grid: npt.NDArray[np.int8], lines: int = 25, coins_per_line: int = 1) -> ScreenWins:
    return evaluate_screen(model(TSAR), grid, lines, coins_per_line, lines * coins_per_line)


def symbol(game: str, symbol_id: str) -> int:
    return model(game).symbol_index(symbol_id)


# -- Days of the Tsar -------------------------------------------------------------------------


def tsar_spin(
    *,
    eggs: Sequence[int] = (),
    win: bool | None = None,
    max_win_coins: int | None = None,
    free: bool = False,
) -> list[int]:
    """Stops for a Tsar screen with an egg on each reel in ``eggs`` (none elsewhere); ``win``
    True/False asks for a line win or none (at 25 lines x 1 coin); ``max_win_coins`` caps it."""
    egg = symbol(TSAR, "egg")
    per_reel = [
        (lambda cells: egg in cells) if reel in eggs else (lambda cells: egg not in cells)
        for reel in range(5)
    ]

    def accept(grid: npt.NDArray[np.int8]) -> bool:
        wins = tsar_wins(grid)
        if win is not None and bool(wins.line_wins) != win:
            return False
        return max_win_coins is None or wins.total_coins <= max_win_coins

    return search_stops(TSAR, "free_spins" if free else "base", per_reel, accept)


def tsar_win_on_lines(at_least: int) -> list[int]:
    """Stops for a Tsar base screen without eggs that wins on ``at_least`` paylines or more (at
    25 lines x 1 coin): the client cycles through them, one amount at a time."""
    egg = symbol(TSAR, "egg")
    return search_stops(
        TSAR,
        "base",
        [lambda cells: egg not in cells] * 5,
        lambda grid: len(tsar_wins(grid).line_wins) >= at_least,
    )


def tsar_win_coins(stops: Sequence[int], *, free: bool = False) -> int:
    grid = window(reel_set(TSAR, "free_spins" if free else "base"), stops, model(TSAR).rows)
    return tsar_wins(grid).total_coins


def tsar_free_spins_trigger() -> list[int]:
    """A base spin with three eggs, each revealing 3: nine free spins."""
    return [*tsar_spin(eggs=(0, 1, 2)), *[egg_reveal(3)] * 3]


# -- Sultan Spins -----------------------------------------------------------------------------


def pots() -> tuple[Jackpot, ...]:
    return ladder_rules(model(SULTAN)).jackpots


def sultan_triggers(hit_first_gem: Sequence[int] = ()) -> list[int]:
    """The five trigger draws of a bet size never played (seed + 1 + draw): pots in
    ``hit_first_gem`` are won by their next gem; the others only one bet below their cap."""
    return [0 if i in hit_first_gem else pot.trigger_span - 1 for i, pot in enumerate(pots())]


def sultan_spin(
    *, gems: Sequence[int] = (), bonus: Sequence[int] = (), free: bool = False
) -> list[int]:
    """Stops for a Sultan screen with one gem on each reel in ``gems`` and one bonus symbol on
    each reel in ``bonus``, and none elsewhere."""
    gem, bonus_id = symbol(SULTAN, "gem"), symbol(SULTAN, "bonus")

    def fits(reel: int) -> Callable[[list[int]], bool]:
        def check(cells: list[int]) -> bool:
            return (gem in cells) == (reel in gems) and (bonus_id in cells) == (reel in bonus)

        return check

    return search_stops(SULTAN, "free_spins" if free else "base", [fits(r) for r in range(5)])


def sultan_gem_row(stops: Sequence[int], reel: int, *, free: bool = False) -> int:
    grid = window(reel_set(SULTAN, "free_spins" if free else "base"), stops, model(SULTAN).rows)
    rows = np.nonzero(grid[:, reel] == symbol(SULTAN, "gem"))[0]
    return int(rows[0])


def tsar_win_between(low_coins: int, high_coins: int) -> list[int]:
    """Stops for a Tsar base screen without eggs whose win (at 25 lines x 1 coin) is at least
    ``low_coins`` and below ``high_coins``."""
    egg = symbol(TSAR, "egg")
    return search_stops(
        TSAR,
        "base",
        [lambda cells: egg not in cells] * 5,
        lambda grid: low_coins <= tsar_wins(grid).total_coins < high_coins,
    )


# -- Aurora Fox (a catalogue title) -----------------------------------------------------------


def aurora_wins(grid: npt.NDArray[np.int8], free: bool = False) -> ScreenWins:
    """The wins at 20 paylines x 1 coin (free spins: every win doubled)."""
    from reelsmith.engine.catalogue import mechanics

    game = model(AURORA)
    if not free:
        return evaluate_screen(game, grid, 20, 1, 20)
    rules = mechanics(game)
    return evaluate_screen(
        game,
        grid,
        20,
        1,
        20,
        line_pays=rules.free_line_pays,
        scatter_pays=rules.free_scatter_pays,
    )


def aurora_spin(
    *, auroras: Sequence[int] = (), win: bool | None = None, free: bool = False
) -> list[int]:
    """Stops for an Aurora Fox screen with an Aurora on each reel in ``auroras`` (none
    elsewhere); ``win`` True/False asks for a line win or none."""
    aurora = symbol(AURORA, "aurora")
    per_reel = [
        (lambda cells: aurora in cells) if reel in auroras else (lambda cells: aurora not in cells)
        for reel in range(5)
    ]

    def accept(grid: npt.NDArray[np.int8]) -> bool:
        return win is None or bool(aurora_wins(grid, free).line_wins) == win

    return search_stops(AURORA, "free_spins" if free else "base", per_reel, accept)


def aurora_win_coins(stops: Sequence[int], *, free: bool = False) -> int:
    grid = window(reel_set(AURORA, "free_spins" if free else "base"), stops, model(AURORA).rows)
    return aurora_wins(grid, free).total_coins


# -- Lucky Lanterns (a hold-and-spin title) ---------------------------------------------------


def lanterns_present() -> bool:
    """Whether the title is shipped (its folder in games/): its look is tested only then."""
    return LANTERNS in TITLE_FOLDERS


#: The titles every look test plays: Lucky Lanterns where it is shipped.
LOOKED = [TSAR, SULTAN, AURORA, *([LANTERNS] if lanterns_present() else [])]


def lanterns_wins(grid: npt.NDArray[np.int8]) -> ScreenWins:
    return evaluate_screen(model(LANTERNS), grid, 20, 1, 20)


def lanterns_spin(lanterns: int, values: Sequence[str] = ()) -> list[int]:
    """The draws of a Lucky Lanterns base spin showing exactly ``lanterns`` lanterns (six or
    more start the hold-and-spin), then where it starts each lantern's value draw (cell by
    cell, rows top to bottom): ``values`` in turn (labels of the model's table: "5", "mini"),
    the table's first for the rest. The respins' draws are left to chance."""
    game = model(LANTERNS)
    lantern = symbol(LANTERNS, "lantern")
    windows = [_windows(LANTERNS, "base", reel) for reel in range(game.reels)]
    # per reel, the first stop showing each count of lanterns
    by_count: list[dict[int, int]] = []
    for shown in windows:
        first: dict[int, int] = {}
        for stop, cells in enumerate(shown):
            first.setdefault(cells.count(lantern), stop)
        by_count.append(first)

    def choose(reel: int, left: int) -> list[int] | None:
        if reel == game.reels:
            return [] if left == 0 else None
        for count, stop in sorted(by_count[reel].items(), reverse=True):
            if count <= left and (rest := choose(reel + 1, left - count)) is not None:
                return [stop, *rest]
        return None

    stops = choose(0, lanterns)
    if stops is None:
        raise AssertionError(f"no screen of {LANTERNS} shows {lanterns} lanterns")
    rules = hold_and_spin_rules(game)
    if lanterns < rules.trigger:
        return stops
    labels = [v.label for v in rules.values]
    wanted = [*values, *[labels[0]] * (lanterns - len(values))]
    return [*stops, *(weighted_draw(labels, rules.value_weights, label) for label in wanted)]


# -- Crystal Caverns (ways, cascades, free spins and a bought feature) ------------------------

CAVERNS = "crystal-caverns"  # tested where its folder is in games/


def caverns_present() -> bool:
    """Whether the title is shipped (its folder in games/): its look is tested only then."""
    return CAVERNS in TITLE_FOLDERS


def caverns_round(base: Sequence[int], *free: Sequence[int]) -> Round:
    """The engine's own play of a Crystal Caverns round at 20 coins: the base spin on stops
    ``base``, then a free spin on each of ``free`` (so a test knows what the forced screens
    show)."""
    from decimal import Decimal

    from reelsmith.engine import round as core
    from reelsmith.engine.bets import CoinBet
    from reelsmith.mechanics import composition
    from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
    from reelsmith.rng import Draw, ReplaySource

    game = composition(model(CAVERNS))

    def draws(name: str, stops: Sequence[int]) -> ReplaySource:
        lengths = [int(n) for n in reel_set(CAVERNS, name).lengths]
        return ReplaySource([Draw("reel_stop", n, s) for n, s in zip(lengths, stops, strict=True)])

    played = core.start_round(
        game,
        CoinBet(20, 1, Decimal("0.01")),
        core.Stake(20, 1),
        draws("base", base),
        parts={OPTIONS: RoundOptions(False)},
    )
    for stops in free:
        played = core.act(game, played, "free_spin", draws("free_spins", stops))
    return played


def cascades(played: Round) -> int:
    """The cascades the round's last spin played."""
    return len(played.spins[-1].parts["cascade"].fallen)


def caverns_stops(
    accept: Callable[[list[int]], bool], name: str = "base", seed: int = 34
) -> list[int]:
    """The first stops of reel set ``name`` (in a fixed pseudo-random order) ``accept`` takes."""
    import random

    lengths = [int(n) for n in reel_set(CAVERNS, name).lengths]
    order = random.Random(seed)
    for _ in range(200_000):
        stops = [order.randrange(n) for n in lengths]
        if accept(stops):
            return stops
    raise AssertionError(f"no screen of {CAVERNS} {name} is accepted")


@cache
def caverns_chain(at_least: int = 2) -> list[int]:
    """A base spin whose chain falls ``at_least`` times (multipliers x2, x3 ...), no trigger."""
    return caverns_stops(
        lambda s: (r := caverns_round(s)).phase == "complete" and cascades(r) >= at_least
    )


@cache
def caverns_trigger() -> list[int]:
    """A base spin whose Mine Carts start the free spins."""
    return caverns_stops(lambda s: caverns_round(s).phase == "free_spins")


@cache
def caverns_free_chain(at_least: int = 1) -> list[int]:
    """A free spin (after :func:`caverns_trigger`) whose chain falls ``at_least`` times."""
    trigger = caverns_trigger()
    return caverns_stops(lambda s: cascades(caverns_round(trigger, s)) >= at_least, "free_spins")


@cache
def caverns_free_quiet() -> list[int]:
    """A free spin (after :func:`caverns_trigger`) that pays nothing and falls nothing."""
    trigger = caverns_trigger()
    return caverns_stops(
        lambda s: (r := caverns_round(trigger, s)).spins[-1].win_coins == 0 and cascades(r) == 0,
        "free_spins",
    )
