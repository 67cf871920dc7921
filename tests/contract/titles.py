"""The titles the contract suite runs over, and what the suite needs of each.

Every test in ``tests/contract`` is parametrized over :func:`contract_titles`. What a test
needs of a title comes through one of two doors:

* the game server's :class:`reelsmith.server.titles.Title`: live rounds (``start``, ``act``,
  ``actions``), the stored record (``record``, ``restore``), the player's view (``view``), the
  settlement (``outcome``) and the carried state (``kept_state``, ``load_state``,
  ``state_key``). Every title has it today; the suite uses it as it is.
* a :class:`TitleAdapter` below, for what today's code gives in a different shape per title:
  the bets a market offers (in the server's JSON form), the numba kernel's trace of a run
  with the live engine's summary of the same draws (kernel parity), the figures stored
  beside a variant's strips re-derived by the exact analysis, what a stored record says the
  round started from, and the features the recorded rounds must cover.

The adapters are thin on purpose. :class:`CatalogueAdapter` is the generic one, for any
catalogue title the server plays: the generic kernel (``analysis/kernel``) traces its rounds,
the composed round (``engine/round``, through ``reelsmith.mechanics``) plays them live, the
generic exact analyzer (``analysis/catalogue_exact.py``) gives its figures, and its bets and
required features are read from its model. A catalogue title joins the suite by being
listed in ``CONTRACT_TITLES`` with it; a title with rules of its own lists its own adapter,
and ``tests/contract/test_registry.py`` fails for a shipped title that is not listed. The
kernel and live summaries name at least ``win`` and ``free_spins`` (the parity test checks
that a run had both).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from reelsmith.engine.bets import BetError
from reelsmith.engine.model import GameModel
from reelsmith.rng import Draw, RandomSource
from reelsmith.server.markets import Market, load_markets
from reelsmith.server.registry import TitleRegistry
from reelsmith.server.titles import Title, title_from_files

FIXTURES = Path(__file__).parent / "fixtures"

#: A round's figures that the kernel and live play must agree on, by name.
Summary = dict[str, int]


@dataclass(frozen=True)
class KernelRound:
    """One round the kernel played: the draws it made, in live play's terms, and its figures."""

    draws: tuple[Draw, ...]
    summary: Summary


class TitleAdapter(Protocol):
    """What the contract suite needs of a title beyond the server's ``Title``."""

    game_id: str

    def bets(self, market: Market) -> list[dict[str, Any]]:
        """A spread of bets the market takes for the title, as the server's request JSON."""
        ...

    def kernel_rounds(
        self, model: GameModel, variant_id: str, seed: int, chunk: int, rounds: int
    ) -> tuple[Any, list[KernelRound]]:
        """``rounds`` rounds of the kernel on chunk ``chunk`` of the seeded run ``seed``: the
        state live play starts from (the title's carried state, None if it has none) and each
        round's draws and figures."""
        ...

    def live_summary(
        self, model: GameModel, variant_id: str, state: Any, source: RandomSource
    ) -> tuple[Summary, Any]:
        """Play one whole round live (the kernel's bet, no gamble) from ``source`` with the
        carried ``state``: the same figures as the kernel gives, and the state it leaves."""
        ...

    def variant_figures(self, model: GameModel, variant_id: str) -> dict[str, float]:
        """The figures stored beside a variant's strips, as the exact analysis derives them."""
        ...

    def live_start(
        self, record: dict[str, Any], market: Market
    ) -> tuple[dict[str, Any], Any, bool]:
        """What a stored record says the round started from, as ``Title.start`` takes it in
        ``market``: the bet (request JSON, in the market's money), the carried state (stored
        JSON, None for none) and whether the player took the gamble."""
        ...

    #: The features the recorded rounds must cover between them.
    required_features: frozenset[str]

    def features(self, record: dict[str, Any], outcome: dict[str, Any]) -> set[str]:
        """The features a stored round shows (read from its record and outcome)."""
        ...


def _accepted(title: Title, market: Market, candidates: Iterable[dict[str, Any]]) -> list[Any]:
    """The candidate bets the title's own bet parser accepts in ``market``."""
    taken = []
    for raw in candidates:
        try:
            title.parse_bet(market, raw)
        except BetError:
            continue
        taken.append(raw)
    return taken


# ---------------------------------------------------------------------------------------
# Sultan Spins
# ---------------------------------------------------------------------------------------


class SultanAdapter:
    game_id = "sultan-spins"

    def bets(self, market: Market) -> list[dict[str, Any]]:
        ladder = market.game(self.game_id).bets
        candidates = [{"bet": str(amount)} for amount in ladder]
        return _accepted(server_title(self.game_id), market, candidates)

    def kernel_rounds(
        self, model: GameModel, variant_id: str, seed: int, chunk: int, rounds: int
    ) -> tuple[Any, list[KernelRound]]:
        from reelsmith.analysis import kernel as k
        from reelsmith.analysis.simulation import chunk_stream
        from reelsmith.engine.ladder_state import BetState
        from tests import ladder_rounds as rules

        game = k.KernelGame.build(model, variant_id)
        pot_names = [j.name for j in rules.ladder_rules(model).jackpots]
        purposes = ["reel_stop", "gem_reveal", *(f"jackpot_trigger_{n}" for n in pot_names)]
        rng = chunk_stream(seed, chunk)
        start = game.start_state(rng, "stationary")
        pots, triggers, meter = (a.copy() for a in start)
        results, logs, _stats, _floats = game.trace(rng, rounds, state=start)
        state = BetState(
            tuple(int(p) for p in pots),
            tuple(int(t) for t in triggers),
            int(meter[0]),
            (rules.RULES_VERSION,) * len(triggers),  # the kernel draws under the current rules
        )
        names = [
            "win",
            "base_line",
            "free_line",
            "jackpot_bets",
            "bonus",
            "free_spins",
            "meter",
            *(f"pot_{n}" for n in pot_names),
            *(f"trigger_{n}" for n in pot_names),
        ]
        assert len(names) == k.ladder_round_fields(model.reels)
        played = [
            KernelRound(
                tuple(Draw(purposes[kind], int(b), int(v)) for kind, b, v in log),
                {name: int(x) for name, x in zip(names, result, strict=True)},
            )
            for result, log in zip(results, logs, strict=True)
        ]
        return state, played

    def live_summary(
        self, model: GameModel, variant_id: str, state: Any, source: RandomSource
    ) -> tuple[Summary, Any]:
        from decimal import Decimal

        from reelsmith.engine import round as core
        from reelsmith.mechanics import composition
        from reelsmith.mechanics.levels.server import LevelBet
        from reelsmith.mechanics.pots.live import CARRIED, CARRIED_BEFORE
        from tests import ladder_rounds as rules

        comp = composition(model)
        level = rules.ladder_rules(model).bets.default
        live = core.start_round(
            comp,
            LevelBet(level, Decimal(level)),
            core.Stake(model.line_count, 1),
            source,
            variant=variant_id,
            parts={CARRIED_BEFORE: state},
        )
        live = core.finish(comp, live, source)
        assert live.phase == core.COMPLETE, live.phase
        pot_names = [j.name for j in rules.ladder_rules(model).jackpots]
        carried = live.part(CARRIED)
        base, free = live.spins[0], live.spins[1:]
        return {
            "win": live.win_coins,
            "base_line": base.win_coins - base.fixed_coins,
            "free_line": sum(s.win_coins - s.fixed_coins for s in free),
            "jackpot_bets": sum(s.fixed_coins for s in live.spins) // model.line_count,
            "bonus": base.parts["ladder"].bonus,
            "free_spins": len(free),
            "meter": carried.meter,
            **{f"pot_{n}": p for n, p in zip(pot_names, carried.pots, strict=True)},
            **{f"trigger_{n}": t for n, t in zip(pot_names, carried.triggers, strict=True)},
        }, carried

    def variant_figures(self, model: GameModel, variant_id: str) -> dict[str, float]:
        from reelsmith.analysis.analyzer import variant_figures

        return variant_figures(model, variant_id)

    def live_start(
        self, record: dict[str, Any], market: Market
    ) -> tuple[dict[str, Any], Any, bool]:
        return record["bet"], record["state_before"], True  # a bet level reads the same anywhere

    required_features = frozenset(
        {
            "no_win",
            "line_win",
            "gem_reveal",
            "wild_reel",
            "pot_win",
            "meter_spot",
            "free_spins",
            "level_2",
            "level_3",
            "level_4",
            "new_bet_size",
            "carried_state",
            "open_free_spins",
        }
    )

    def features(self, record: dict[str, Any], outcome: dict[str, Any]) -> set[str]:
        view = outcome["view"]
        spins = view["spins"]
        gems = [g for s in spins for g in s["gems"]]
        found = set()
        if view["phase"] == "complete" and view["win_coins"] == 0:
            found.add("no_win")
        if any(s["line_wins"] for s in spins):
            found.add("line_win")
        if any(g["reveal"] not in ("jackpot", "wild_reel") for g in gems):
            found.add("gem_reveal")
        if any(g["reveal"] == "wild_reel" for g in gems):
            found.add("wild_reel")
        if any(g["reveal"] == "jackpot" for g in gems):
            found.add("pot_win")
        before = record["state_before"]
        if len(spins) == 1 and spins[0]["meter_after"] > (before["meter"] if before else 0):
            found.add("meter_spot")
        if len(spins) > 1:
            found.add("free_spins")
        for level in range(2, 6):
            if any(s["level"] == level for s in spins):
                found.add(f"level_{level}")
        found.add("new_bet_size" if before is None else "carried_state")
        if view["phase"] == "free_spins":
            found.add("open_free_spins")
        return found


# ---------------------------------------------------------------------------------------
# Any catalogue title
# ---------------------------------------------------------------------------------------


class CatalogueAdapter:
    """The contract of a catalogue title, from its model alone.

    What the recorded rounds must show is read from the model: a wild win where it has a wild,
    a scatter win where its scatter pays, free spins and their retriggers, the revealed award
    (the feature is named after the model's reveal table, plural: ``egg_reveals`` for Days of
    the Tsar's ``egg_reveal``), the gamble's outcomes where it has one, the hold-and-spin and a
    jackpot tier won in it where it has one, and the bets its options allow. A round's view is
    read under the names the model's ``[view]`` gives its keys, so a title that renames them
    (Tsar's eggs) is checked like any other."""

    def __init__(self, game_id: str) -> None:
        from reelsmith.engine.catalogue import RETRIGGER_NONE, mechanics
        from reelsmith.mechanics.view.server import view_names

        self.game_id = game_id
        self.model = model(game_id)
        rules = mechanics(self.model)
        options = server_title(game_id).bets.options
        self.max_lines = options.max_lines
        self.max_coins = options.max_coins_per_line
        spin_names, _round_names = view_names(self.model)
        self.spin_keys = {key: name for key, name in spin_names.items() if name is not None}
        required = {"no_win", "line_win"}
        if self.model.scatter >= 0 and self.model.scatter_pays.any():
            required.add("scatter_win")
        free = rules.free_spins
        self.reveal_feature = None
        if free is not None:
            required |= {"free_spins", "open_free_spins"}
            if free.reveal is not None:
                self.reveal_feature = f"{free.reveal}s"
                required.add(self.reveal_feature)
            if free.retrigger != RETRIGGER_NONE:
                required.add("retrigger")
        if rules.gamble is not None:
            required |= {
                "gamble_won",
                "gamble_lost",
                "suit_gamble",
                "collect",
                "gamble_declined",
                "gamble_limit",
                "open_gamble",
            }
        if self.model.wild >= 0:
            required.add("wild_win")
        self.hold_and_spin = "hold_and_spin" in self.model.raw
        if self.hold_and_spin:
            required |= {"hold_and_spin", "hold_and_spin_jackpot"}
        if options.max_coins_per_line > 1:
            required.add("coins_per_line")
        if options.min_lines < options.max_lines:
            required.add("fewer_lines")
        self.required_features = frozenset(required)

    def spin_value(self, spin: dict[str, Any], key: str) -> Any:
        """A screen's ``key`` (the generic engine's name) in the view, under the model's name."""
        return spin[self.spin_keys.get(key, key)]

    def bets(self, market: Market) -> list[dict[str, Any]]:
        sizes = market.game(self.game_id).coin_sizes
        candidates = [
            {"lines": lines, "coins_per_line": cpl, "coin_size": str(size)}
            for size in sizes
            for lines in sorted({self.max_lines, 1, max(1, self.max_lines // 2)}, reverse=True)
            for cpl in sorted({1, 2, self.max_coins})
        ]
        return _accepted(server_title(self.game_id), market, candidates)

    def kernel_rounds(
        self, model: GameModel, variant_id: str, seed: int, chunk: int, rounds: int
    ) -> tuple[Any, list[KernelRound]]:
        from reelsmith.analysis import kernel as k
        from reelsmith.analysis.simulation import chunk_stream

        game = k.KernelGame.build(model, variant_id)
        results, logs, _stats, _floats = game.trace(chunk_stream(seed, chunk), rounds)
        played = [
            KernelRound(
                tuple(game.draws_of(log)),
                {name: int(x) for name, x in zip(k.ROUND_FIELD_NAMES, result, strict=True)},
            )
            for result, log in zip(results, logs, strict=True)
        ]
        return None, played

    def live_summary(
        self, model: GameModel, variant_id: str, state: Any, source: RandomSource
    ) -> tuple[Summary, Any]:
        """The kernel's bet: every payline, one coin each (of the model's smallest size); the
        figures under the kernel's names (``analysis.kernel.ROUND_FIELD_NAMES``)."""
        from decimal import Decimal

        from reelsmith.engine import round as core
        from reelsmith.engine.bets import CoinBet
        from reelsmith.mechanics import composition, evaluation
        from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
        from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules

        # one coin on each of the evaluator's units: every payline, or a ways game's cost
        units = int(evaluation(model).cost(model))
        bet = CoinBet(units, 1, Decimal(str(model.bet["coin_sizes"][0])))
        comp = composition(model)
        options = {OPTIONS: RoundOptions(gamble_allowed=False)}
        stake = core.Stake(bet.lines, bet.coins_per_line)
        played = core.start_round(comp, bet, stake, source, variant=variant_id, parts=options)
        played = core.finish(comp, played, source)
        assert played.phase == core.COMPLETE, played.void_reason
        base, free = played.spins[0], played.spins[1:]

        def award(spin: Any, field: str) -> int:
            found = spin.parts.get("free_spins")
            return int(getattr(found, field)) if found is not None else 0

        hold = base.parts.get("hold_and_spin")
        if self.hold_and_spin:
            # the hold-and-spin kernel's fields: the coins the window shows, the respins it
            # started with, played, its pay, the coins held at its end, the respins that landed
            assert base.grid is not None
            shown = int((base.grid == hold_and_spin_rules(model).symbol).sum())
            return {
                "win": played.win_coins,
                "base_line": base.parts["paylines"].coins,
                "base_scatter": 0,
                "base_triggers": shown,
                "awarded": hold.respins_full if hold is not None else 0,
                "free_spins": len(hold.respins) if hold is not None else 0,
                "free_win": hold.win_coins if hold is not None else 0,
                "free_triggers": len(hold.coins) if hold is not None else 0,
                "added": sum(1 for r in hold.respins if r.landed) if hold is not None else 0,
            }, None
        scatter = base.parts.get("scatter")
        base_scatter = scatter.coins if scatter is not None else 0
        chain = base.parts.get("cascade")
        if chain is not None:  # the kernel sums a chain's screens: the scatter's and the rest
            base_scatter += sum(
                f.records["scatter"].coins for f in chain.fallen if "scatter" in f.records
            )
        return {
            "win": played.win_coins,
            "base_line": base.win_coins - base_scatter,
            "base_scatter": base_scatter,
            "base_triggers": award(base, "triggers"),
            "awarded": award(base, "spins_added"),
            "free_spins": len(free),
            "free_win": sum(s.win_coins for s in free),
            "free_triggers": sum(award(s, "triggers") for s in free),
            "added": sum(award(s, "spins_added") for s in free),
        }, None

    def variant_figures(self, model: GameModel, variant_id: str) -> dict[str, float]:
        from reelsmith.analysis.analyzer import variant_figures

        return variant_figures(model, variant_id)

    def live_start(
        self, record: dict[str, Any], market: Market
    ) -> tuple[dict[str, Any], Any, bool]:
        """The record keeps the engine's bet, its coin size in the model's credits; the
        request names the market's coin (a credit is ``credit_value`` of its money: 100 yen)."""
        from decimal import Decimal

        credit = market.game(self.game_id).credit_value
        size = Decimal(record["bet"]["coin_size"]) * credit
        coin = next(s for s in market.game(self.game_id).coin_sizes if s == size)
        bet = {**record["bet"], "coin_size": str(coin)}
        return bet, None, bool(record["options"]["gamble_allowed"])

    def features(self, record: dict[str, Any], outcome: dict[str, Any]) -> set[str]:
        view = outcome["view"]
        spins, gambles = view["spins"], view["gambles"]
        wild = self.model.symbols[self.model.wild].id if self.model.wild >= 0 else None
        found = set()
        if view["phase"] == "complete" and view["win_coins"] == 0 and not gambles:
            found.add("no_win")
        # a lines title's wins, or a ways title's (its first screen's; a cascade's later
        # screens are a feature of their own)
        wins = [s.get("line_wins", s.get("way_wins", [])) for s in spins]
        if any(wins):
            found.add("line_win")
        if wild is not None and any(
            s["screen"][row][reel] == wild
            for s, spin_wins in zip(spins, wins, strict=True)
            for w in spin_wins
            for row, reel in w["positions"]
        ):
            found.add("wild_win")
        if any(s.get("cascade") for s in spins):
            found.add("cascade")
        if any(s["scatter_win"] for s in spins):
            found.add("scatter_win")
        if self.reveal_feature and spins and self.spin_value(spins[0], "reveals"):
            found.add(self.reveal_feature)
        if len(spins) > 1:
            found.add("free_spins")
        held = [s["hold_and_spin"] for s in spins if s.get("hold_and_spin")]
        if held:
            found.add("hold_and_spin")
        if any(h["jackpots"] for h in held):
            found.add("hold_and_spin_jackpot")
        if any(self.spin_value(s, "spins_added") for s in spins[1:]):
            found.add("retrigger")
        if any(g["won"] for g in gambles):
            found.add("gamble_won")
        if any(not g["won"] for g in gambles):
            found.add("gamble_lost")
        if any(g["choice"] not in ("red", "black") for g in gambles):
            found.add("suit_gamble")
        if "collect" in record["actions"]:
            found.add("collect")
        gamble_title = view["max_gambles"] > 0
        if gamble_title and not record["options"]["gamble_allowed"] and view["win_coins"] > 0:
            found.add("gamble_declined")
        settled = view["phase"] == "complete" and "collect" not in record["actions"]
        if gambles and gambles[-1]["won"] and settled:
            found.add("gamble_limit")  # won up to a limit: collected by itself
        if view["phase"] == "free_spins":
            found.add("open_free_spins")
        if view["phase"] == "gamble":
            found.add("open_gamble")
        if record["bet"]["coins_per_line"] > 1:
            found.add("coins_per_line")
        if record["bet"]["lines"] < self.max_lines:
            found.add("fewer_lines")
        return found


def catalogue(game_id: str) -> Callable[[], TitleAdapter]:
    return lambda: CatalogueAdapter(game_id)


# ---------------------------------------------------------------------------------------
# The registry the suite is parametrized over
# ---------------------------------------------------------------------------------------

#: Every title under contract, by id. A new title is listed here (and nowhere else).
CONTRACT_TITLES: dict[str, Callable[[], TitleAdapter]] = {
    "aurora-fox": catalogue("aurora-fox"),
    "crystal-caverns": catalogue("crystal-caverns"),
    "days-of-the-tsar": catalogue("days-of-the-tsar"),
    "lucky-lanterns": catalogue("lucky-lanterns"),
    "sultan-spins": SultanAdapter,
}


#: Shipped titles not under contract yet, each with what it lacks for the suite. A title
#: leaves this list for ``CONTRACT_TITLES`` when it has what the suite needs; test_registry
#: fails as soon as the game server plays a title listed here.
PENDING_TITLES: dict[str, str] = {}


def contract_titles() -> list[str]:
    """The ids of the titles under contract, in a stable order (the suite's parameters)."""
    return sorted(CONTRACT_TITLES)


@cache
def adapter(game_id: str) -> TitleAdapter:
    try:
        return CONTRACT_TITLES[game_id]()
    except KeyError:
        raise KeyError(f"{game_id!r} is not under contract; listed: {contract_titles()}") from None


@cache
def titles() -> TitleRegistry:
    """The game server's titles (the registry the server plays them through)."""
    return TitleRegistry.load()


def server_title(game_id: str) -> Title:
    """The game server's adapter of the title (the same the server plays it through)."""
    return titles()[game_id]


def kept_files(game_id: str, earlier: str) -> dict[str, str] | None:
    """The model files of an earlier version of the title, kept beside the rounds played on
    it as ``fixtures/before/<title>.<earlier>/``: the files a server keeps of a version it
    served (:meth:`Title.version_files`: ``model.toml`` and ``variants/<id>.toml``), by their
    paths in the title's folder. None when the earlier version kept no files: its rounds were
    played on the files shipped now, under earlier rules the title still reads from a record."""
    folder = FIXTURES / "before" / f"{game_id}.{earlier}"
    if not folder.is_dir():
        return None
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.toml"))
    }


@cache
def version_title(game_id: str, earlier: str = "") -> Title:
    """The title a version's rounds were played on: the one served now (``earlier`` empty,
    or an earlier version that kept no files), else the title its kept files load to, read
    as the server reads a version kept in ``model_versions``
    (:func:`reelsmith.server.titles.title_from_files`)."""
    files = kept_files(game_id, earlier) if earlier else None
    if files is None:
        return server_title(game_id)
    title = title_from_files(files)
    assert title.game_id == game_id, (game_id, earlier, title.game_id)
    return title


def model(game_id: str) -> GameModel:
    return server_title(game_id).model


def variants(game_id: str) -> list[str]:
    return sorted(model(game_id).variants)


@cache
def markets() -> dict[str, Market]:
    return load_markets(models=titles().models())


def market_for(market_id: str, game_id: str, variant: str | None = None) -> Market:
    """A shipped market, playing ``variant`` of the title instead of its own if given (the
    server picks a round's variant from the market)."""
    market = markets()[market_id]
    if variant is None:
        return market
    rules = dataclasses.replace(market.game(game_id), variant=variant)
    return dataclasses.replace(market, games={**market.games, game_id: rules})
