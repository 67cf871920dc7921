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

The adapters are thin on purpose. **They are the interface the catalogue of mechanics must
provide generically**: one kernel that traces any catalogue title's rounds, one live summary
of a round played from those draws, one exact analyzer giving a variant's stored figures, one
description of a title's bets and features. When it does, a title joins the suite by being listed in
``CONTRACT_TITLES`` with the generic adapter; until then a title lists its own here, and
``tests/contract/test_registry.py`` fails for a shipped title that is not listed. The kernel
and live summaries name at least ``win`` and ``free_spins`` (the parity test checks that a
run had both).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from reelsmith.engine.bets import BetError
from reelsmith.engine.model import GameModel
from reelsmith.games import load_game
from reelsmith.rng import Draw, RandomSource
from reelsmith.server.markets import Market, load_markets
from reelsmith.server.titles import TITLES, Title

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

    def live_start(self, record: dict[str, Any]) -> tuple[dict[str, Any], Any, bool]:
        """What a stored record says the round started from, as ``Title.start`` takes it:
        the bet (request JSON), the carried state (stored JSON, None for none) and whether
        the player took the gamble."""
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
# Days of the Tsar
# ---------------------------------------------------------------------------------------


class TsarAdapter:
    game_id = "days-of-the-tsar"

    def bets(self, market: Market) -> list[dict[str, Any]]:
        sizes = market.game(self.game_id).coin_sizes
        candidates = [
            {"lines": lines, "coins_per_line": cpl, "coin_size": str(size)}
            for size in sizes
            for lines in (1, 9, 25)
            for cpl in (1, 2, 20)
        ]
        return _accepted(server_title(self.game_id), market, candidates)

    def kernel_rounds(
        self, model: GameModel, variant_id: str, seed: int, chunk: int, rounds: int
    ) -> tuple[Any, list[KernelRound]]:
        from reelsmith.analysis import kernel as k
        from reelsmith.analysis.simulation import chunk_stream

        game = k.KernelGame.build(model, variant_id)
        results, logs, _, _ = game.trace(chunk_stream(seed, chunk), rounds)
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
        from reelsmith.games.days_of_the_tsar import rules

        bet = rules.tsar_rules(model).bets.default
        options = rules.RoundOptions(gamble_allowed=False)
        live = rules.start_round(model, bet, source, variant=variant_id, options=options)
        live = rules.finish(model, live, source)
        base = live.base_spin
        assert base is not None and live.phase is rules.Phase.COMPLETE, live.phase
        return {
            "win": live.win_coins,
            "base_line": base.wins.line_coins,
            "base_scatter": base.wins.scatter_win.coins if base.wins.scatter_win else 0,
            "base_triggers": base.eggs,
            "awarded": sum(base.reveals),
            "free_spins": len(live.free_spins),
            "free_win": live.free_spins_win_coins,
            "free_triggers": sum(s.eggs for s in live.free_spins),
            "added": sum(s.spins_added for s in live.free_spins),
        }, None

    def variant_figures(self, model: GameModel, variant_id: str) -> dict[str, float]:
        from reelsmith.analysis.catalogue_exact import analyze_full
        from reelsmith.analysis.catalogue_tuning import variant_figures

        return variant_figures(analyze_full(model, variant_id))

    def live_start(self, record: dict[str, Any]) -> tuple[dict[str, Any], Any, bool]:
        return record["bet"], None, bool(record["options"]["gamble_allowed"])

    required_features = frozenset(
        {
            "no_win",
            "line_win",
            "scatter_win",
            "egg_reveals",
            "free_spins",
            "retrigger",
            "gamble_won",
            "gamble_lost",
            "suit_gamble",
            "collect",
            "gamble_declined",
            "gamble_limit",
            "open_free_spins",
            "open_gamble",
            "coins_per_line",
            "fewer_lines",
        }
    )

    def features(self, record: dict[str, Any], outcome: dict[str, Any]) -> set[str]:
        view = outcome["view"]
        spins, gambles = view["spins"], view["gambles"]
        found = set()
        if view["phase"] == "complete" and view["win_coins"] == 0 and not gambles:
            found.add("no_win")
        if any(s["line_wins"] for s in spins):
            found.add("line_win")
        if any(s["scatter_win"] for s in spins):
            found.add("scatter_win")
        if spins and spins[0]["reveals"]:
            found.add("egg_reveals")
        if len(spins) > 1:
            found.add("free_spins")
        if any(s["spins_added"] for s in spins[1:]):
            found.add("retrigger")
        if any(g["won"] for g in gambles):
            found.add("gamble_won")
        if any(not g["won"] for g in gambles):
            found.add("gamble_lost")
        if any(g["choice"] not in ("red", "black") for g in gambles):
            found.add("suit_gamble")
        if "collect" in record["actions"]:
            found.add("collect")
        if not record["options"]["gamble_allowed"] and view["win_coins"] > 0:
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
        if record["bet"]["lines"] < 25:
            found.add("fewer_lines")
        return found


# ---------------------------------------------------------------------------------------
# Sultan Spins
# ---------------------------------------------------------------------------------------


class SultanAdapter:
    game_id = "sultan-spins"

    def bets(self, market: Market) -> list[dict[str, Any]]:
        ladder = market.game(self.game_id).bets
        candidates = [{"bet": f"{amount:.2f}"} for amount in ladder]
        return _accepted(server_title(self.game_id), market, candidates)

    def kernel_rounds(
        self, model: GameModel, variant_id: str, seed: int, chunk: int, rounds: int
    ) -> tuple[Any, list[KernelRound]]:
        from reelsmith.analysis import sultan_kernel as k
        from reelsmith.analysis.simulation import chunk_stream
        from reelsmith.analysis.sultan_simulation import KernelGame
        from reelsmith.games.sultan_spins import rules
        from reelsmith.games.sultan_spins.state import BetState

        game = KernelGame.build(model, variant_id)
        pot_names = [j.name for j in rules.sultan_rules(model).jackpots]
        purposes = ["reel_stop", "gem_reveal", *(f"jackpot_trigger_{n}" for n in pot_names)]
        (pots, triggers, meter), results, logs = game.trace(
            chunk_stream(seed, chunk), rounds, "stationary"
        )
        state = BetState(
            tuple(int(p) for p in pots),
            tuple(int(t) for t in triggers),
            meter,
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
        assert len(names) == k.ROUND_FIELDS
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
        from reelsmith.games.sultan_spins import rules

        live = rules.start_round(model, "1.00", state, source, variant=variant_id)
        live = rules.finish(model, live, source)
        assert live.phase is rules.Phase.COMPLETE, live.phase
        pot_names = [j.name for j in rules.sultan_rules(model).jackpots]
        return {
            "win": live.win_coins,
            "base_line": live.spins[0].line_coins,
            "free_line": sum(s.line_coins for s in live.free_spins),
            "jackpot_bets": live.jackpot_coins // live.lines,
            "bonus": live.spins[0].bonus,
            "free_spins": len(live.free_spins),
            "meter": live.state.meter,
            **{f"pot_{n}": p for n, p in zip(pot_names, live.state.pots, strict=True)},
            **{f"trigger_{n}": t for n, t in zip(pot_names, live.state.triggers, strict=True)},
        }, live.state

    def variant_figures(self, model: GameModel, variant_id: str) -> dict[str, float]:
        from reelsmith.analysis import sultan_spins

        return sultan_spins.variant_figures(model, variant_id)

    def live_start(self, record: dict[str, Any]) -> tuple[dict[str, Any], Any, bool]:
        return record["bet"], record["state_before"], True

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
# The registry the suite is parametrized over
# ---------------------------------------------------------------------------------------

#: Every title under contract, by id. A new title is listed here (and nowhere else).
CONTRACT_TITLES: dict[str, Callable[[], TitleAdapter]] = {
    "days-of-the-tsar": TsarAdapter,
    "sultan-spins": SultanAdapter,
}


#: Shipped titles not under contract yet, each with what it lacks for the suite. A title
#: leaves this list for ``CONTRACT_TITLES`` when it has what the suite needs; test_registry
#: fails as soon as the game server plays a title listed here.
PENDING_TITLES: dict[str, str] = {
    "aurora-fox": "the game server has no Title for it yet (live rounds, records, views), "
    "which the suite plays through; its kernel, simulation and exact figures are in "
    "tests/catalogue",
}


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
def server_title(game_id: str) -> Title:
    """The game server's adapter of the title (the same class the server plays it through)."""
    return TITLES[game_id]()


def model(game_id: str) -> GameModel:
    return load_game(game_id)


def variants(game_id: str) -> list[str]:
    return sorted(model(game_id).variants)


@cache
def markets() -> dict[str, Market]:
    return load_markets()


def market_for(market_id: str, game_id: str, variant: str | None = None) -> Market:
    """A shipped market, playing ``variant`` of the title instead of its own if given (the
    server picks a round's variant from the market)."""
    market = markets()[market_id]
    if variant is None:
        return market
    rules = dataclasses.replace(market.game(game_id), variant=variant)
    return dataclasses.replace(market, games={**market.games, game_id: rules})
