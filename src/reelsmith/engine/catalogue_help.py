"""The rules a player reads for a catalogue title, written from its model's own values and, on
the server, from the player's market.

Every sentence is derived from the tables the engine pays from (the line rule and its wild,
the scatter, the free spins, the gamble, the bet options), so the page cannot say one thing
while the game does another; a test plays the rules it states. The sentences are messages of
the catalogues in :mod:`reelsmith.help` (``help/<language>.toml``), written in the words of the
help pages in ``shared/seeds/`` with the title's names and figures filled in.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from types import ModuleType
from typing import Any

from reelsmith.engine.catalogue import (
    RETRIGGER_NONE,
    RETRIGGER_PER_SYMBOL,
    RETRIGGER_TABLE,
    FreeSpins,
    mechanics,
)
from reelsmith.engine.model import GameModel
from reelsmith.help import HelpError, Phrases, Terms, play_rules, settled_rules
from reelsmith.mechanics import each_face
from reelsmith.mechanics import window_help as evaluator_window_help
from reelsmith.mechanics.coins.live import bet_options


def window_help(model: GameModel) -> ModuleType | None:
    """The sentences of the model's evaluator where it pays the whole window rather than
    paylines (ways, or anywhere by count), a bet being its cost times a multiplier; None for
    paylines."""
    found: ModuleType | None = evaluator_window_help(model)
    return found


def pays_by_ways(model: GameModel) -> bool:
    """Whether the model pays the whole window (ways or anywhere) rather than by paylines."""
    return window_help(model) is not None


def _counts(table: Any, low: int, high: int) -> list[tuple[int, int]]:
    """``(count, value)`` for the counts from ``low`` on whose value differs from the next."""
    out = []
    for count in range(low, high + 1):
        out.append((count, int(table[min(count, len(table) - 1)])))
    # a count above the table's last entry pays as that entry: list it as "N or more"
    while len(out) > 1 and out[-1][1] == out[-2][1]:
        out.pop()
    return out


def _spins_text(p: Phrases, table: Any, low: int, high: int, symbol: str, key: str) -> str:
    entries = [(c, v) for c, v in _counts(table, low, high) if v > 0]
    parts = [p(f"free_spins.{key}", count=c, symbol=symbol, spins=v) for c, v in entries]
    if entries and entries[-1][0] < high:
        c, v = entries[-1]
        parts[-1] = p(f"free_spins.{key}_or_more", count=c, symbol=symbol, spins=v)
    return "; ".join(parts) + "."


def _wild_example(p: Phrases, model: GameModel) -> list[str]:
    """The higher-pay rule worked on the paytable: one wild short of a full line and a regular
    symbol whose full line pays less than the wilds' own combination (none when the paytable
    has no such pair)."""
    wild = model.wild
    run = model.reels - 1
    wild_pay = int(model.line_pays[wild, run])
    candidates = [
        (int(model.line_pays[s.index, model.reels]) * model.wild_multiplier, -s.index, s.index)
        for s in model.symbols
        if model.substitutable[s.index]
        and 0 < int(model.line_pays[s.index, model.reels]) * model.wild_multiplier < wild_pay
    ]
    chosen = examples_of(model).substitute
    if chosen is not None:
        candidates = [c for c in candidates if c[2] == chosen]
    if not candidates:
        return []
    pay, _, index = max(candidates)
    names = {"wild": p.symbol_at(wild), "symbol": p.symbol_at(index)}
    return [
        p("substitute.example_shown", wilds_words=p.spell(run), reels=model.reels, **names),
        p("substitute.example_symbol", wilds_words=p.spell(run), reels=model.reels, **names),
        p("substitute.example_symbol_pays", reels=model.reels, pay=pay, **names),
        p("substitute.example_wild", wilds_words=p.spell(run), wilds=run, pay=wild_pay, **names),
        p("substitute.example_paid", wilds=run, **names),
    ]


@dataclass(frozen=True)
class LineWin:
    symbol: int
    count: int
    payline: int


@dataclass(frozen=True)
class Example:
    """A worked example: a bet and what the screen shows; the page computes the pays."""

    section: str
    coin_size: Decimal
    coins_per_line: int
    lines: int
    scatter: int  # scatter symbols shown (0: none)
    line_wins: tuple[LineWin, ...]


@dataclass(frozen=True)
class Examples:
    substitute: int | None  # the symbol of the higher-pay example (None: chosen from the paytable)
    examples: tuple[Example, ...]


#: The page's sections (lists of sentences) a worked example may follow.
EXAMPLE_SECTIONS = ("general", "substitute", "scatter", "payouts")


def _symbol_index(model: GameModel, symbol_id: Any, where: str) -> int:
    for s in model.symbols:
        if s.id == symbol_id:
            return s.index
    known = ", ".join(s.id for s in model.symbols)
    raise HelpError(f"{where}: unknown symbol {symbol_id!r}; the symbols are {known}")


def examples_of(model: GameModel) -> Examples:
    """The title's worked examples (``examples.toml`` beside its model), checked."""
    path = model.source.parent / "examples.toml" if model.source is not None else None
    if path is None or not path.exists():
        return Examples(None, ())
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        substitute = raw.get("substitute", {}).get("symbol")
        out = []
        for n, item in enumerate(raw.get("examples", []), start=1):
            where = f"{path}: examples[{n}]"
            wins = tuple(
                LineWin(
                    _symbol_index(model, w["symbol"], where), int(w["count"]), int(w["payline"])
                )
                for w in item.get("line_wins", [])
            )
            if wins and pays_by_ways(model):
                raise HelpError(f"{where}: a ways or pay-anywhere game's example has no line wins")
            for w in wins:
                if not 1 <= w.payline <= model.line_count or not 1 <= w.count <= model.reels:
                    raise HelpError(f"{where}: a line win's payline or count is out of range")
            if item["section"] not in EXAMPLE_SECTIONS:
                raise HelpError(
                    f"{where}: section {item['section']!r} takes no worked example; "
                    f"the sections that do are {', '.join(EXAMPLE_SECTIONS)}"
                )
            out.append(
                Example(
                    section=str(item["section"]),
                    coin_size=Decimal(str(item["coin_size"])),
                    coins_per_line=int(item["coins_per_line"]),
                    lines=int(item["lines"]),
                    scatter=int(item.get("scatter", 0)),
                    line_wins=wins,
                )
            )
    except (KeyError, TypeError, ValueError, ArithmeticError, tomllib.TOMLDecodeError) as exc:
        if isinstance(exc, HelpError):
            raise
        raise HelpError(f"{path}: not a table of worked examples ({exc!r})") from None
    symbol = None if substitute is None else _symbol_index(model, substitute, f"{path}: substitute")
    return Examples(symbol, tuple(out))


def _worked(p: Phrases, model: GameModel, ex: Example, terms: Terms | None) -> list[str]:
    """A worked example in the help page's words, every amount computed from the paytable;
    where the market's credit is not one unit of its money (a credit is 100 yen), the credits
    won are given in its money too."""
    total = ex.coins_per_line * ex.lines
    coin = p.number(ex.coin_size, 2)
    text = [
        p("example.bet", coin=coin, cpl=ex.coins_per_line, lines=ex.lines, total=total),
    ]
    scatter = p.symbol_at(model.scatter) if ex.scatter else ""
    scatter_x = int(model.scatter_pays[ex.scatter]) if ex.scatter else 0
    scatter_coins = total * scatter_x
    lines = []
    for w in ex.line_wins:
        pay = int(model.line_pays[w.symbol, w.count])
        lines.append((w, pay, pay * ex.coins_per_line))
    if ex.scatter and len(lines) == 1:
        w = lines[0][0]
        text.append(
            p(
                "example.scatter_and_line",
                scatter_words=p.spell(ex.scatter),
                scatter=scatter,
                reels_words=p.spell(model.reels),
                words=p.spell(w.count),
                symbol=p.symbol_at(w.symbol),
                reels=p.join([str(r) for r in range(1, w.count + 1)]),
            )
        )
    if ex.scatter:
        text += [
            p(
                "example.scatter",
                scatter_words=p.spell(ex.scatter),
                scatter=scatter,
                reels_words=p.spell(model.reels),
                count=ex.scatter,
                times=scatter_x,
            ),
            p("example.scatter_payout", total=total, times=scatter_x, coins=scatter_coins),
        ]
    for w, pay, coins in lines:
        text.append(
            p(
                "example.line",
                words=p.spell(w.count),
                count=w.count,
                symbol=p.symbol_at(w.symbol),
                reels=p.join([str(r) for r in range(1, w.count + 1)]),
                payline=w.payline,
                pay=pay,
            )
        )
        if len(lines) > 1:
            text.append(
                p(
                    "example.line_paid",
                    pay=pay,
                    cpl=ex.coins_per_line,
                    coins=coins,
                    payline=w.payline,
                )
            )
    won = scatter_coins + sum(coins for _, _, coins in lines)
    if ex.scatter and len(lines) == 1:
        _, pay, coins = lines[0]
        text += [
            p("example.regular_payout", pay=pay, cpl=ex.coins_per_line, coins=coins),
            p("example.total_scatter_and_line", scatter=scatter_coins, line=coins, total=won),
        ]
    elif len(lines) == 1:
        _, pay, coins = lines[0]
        text.append(p("example.total_one_line", pay=pay, cpl=ex.coins_per_line, coins=coins))
    elif lines:
        parts = " + ".join(
            p("example.for_payline", coins=coins, payline=w.payline) for w, _, coins in lines
        )
        text.append(p("example.total_lines", parts=parts, total=won))
    credits = ex.coin_size * won
    text.append(p("example.credits", coins=won, coin=coin, credits=credits.normalize()))
    if terms is not None and terms.credit_value != 1:
        text.append(
            p(
                "example.money",
                credit=terms.money(terms.to_minor(terms.credit_value)),
                credits=credits.normalize(),
                money=terms.money(terms.to_minor(credits * terms.credit_value)),
            )
        )
    return text


def _ordinals(p: Phrases, low: int, high: int) -> str:
    return p.join([p(f"ordinal.{n}") for n in range(low, high + 1)], "or")


def _general(p: Phrases, model: GameModel, variant_id: str, terms: Terms | None) -> list[str]:
    rules = mechanics(model)
    bets = bet_options(model)
    window = window_help(model)
    ways = window is not None
    if window is not None:
        text = [window.machine(p, model, bets.max_total_coins)]
    else:
        text = [
            p(
                "general.machine",
                name=p.name(),
                reels=model.reels,
                lines=model.line_count,
                coins=bets.max_total_coins,
            ),
        ]
    if model.line_count > 1 and not ways:
        text.append(p("general.multiple_paylines"))
    if model.wild >= 0:
        text.append(p("substitute.is_substitute", wild=p.symbol_at(model.wild)))
    if model.scatter >= 0:
        text.append(p("scatter.is_scatter", scatter=p.symbol_at(model.scatter)))
    if rules.free_spins is not None:
        text.append(_trigger(p, model, rules.free_spins))
    if rules.gamble is not None and (terms is None or terms.gamble):
        text.append(p("gamble.any_win"))
    if window is not None:
        text += window.general(p, model)
    else:
        plain = "" if model.scatter >= 0 else "_plain"  # no scatter win to except
        text += [
            p(f"general.highest_per_line{plain}"),
            p(f"general.enabled_only{plain}"),
            p("general.left_to_right"),
        ]
    if model.scatter >= 0:
        text.append(p("general.scatter_anywhere"))
        text.append(p(f"{window.KEYS}.scatter_added" if window else "general.added"))
    text += [p("general.malfunction"), p("general.malfunction_refund")]
    text.append(p("general.rtp", rtp=p.number(model.variant(variant_id).rtp_percent(), 2)))
    text += window.max_win(p, model) if window is not None else _max_win(p, model)
    for _mechanic, general in each_face(model, "general_rules"):
        text = general(p, model, terms, text)  # a limit's own sentences (a cap)
    text += settled_rules(p, terms)
    return text


def _trigger(p: Phrases, model: GameModel, free: FreeSpins) -> str:
    return p("free_spins.trigger", count=p.spell(free.trigger), symbol=p.symbol_at(free.symbol))


def _max_win(p: Phrases, model: GameModel) -> list[str]:
    """The largest combination of the paytable on one payline (a wild's multiplier included),
    and that no win is capped."""
    pays = model.line_pays[:, model.reels]
    candidates = [(int(pays[s.index]), -s.index, s.index, False) for s in model.symbols]
    if model.wild >= 0 and model.wild_multiplier > 1:
        candidates += [
            (int(pays[s.index]) * model.wild_multiplier, -s.index, s.index, True)
            for s in model.symbols
            if model.substitutable[s.index]
        ]
    coins, _, top, with_wild = max(candidates)
    if mechanics(model).plugin is not None:
        # a plug-in changes a spin's win: the paytable's top line is no longer the top win
        return [p("max_win.uncapped")]
    key = "max_win.top_line_wild" if with_wild else "max_win.top_line"
    names = {"symbol": p.symbol_at(top)}
    if with_wild:
        names["wild"] = p.symbol_at(model.wild)
    return [p(key, count=model.reels, coins=coins, **names), p("max_win.uncapped")]


def _substitute(p: Phrases, model: GameModel) -> list[str]:
    wild = p.symbol_at(model.wild)
    others = [p.word(s.id) for s in model.symbols if s.role != "regular" and s.index != model.wild]
    subs = [p.word(s.id) for s in model.symbols if model.substitutable[s.index]]
    regular = [p.word(s.id) for s in model.symbols if s.role == "regular"]
    text = [p("substitute.is_substitute", wild=wild), p("substitute.acts_as_wild", wild=wild)]
    if subs != regular:
        text.append(p("substitute.stands_for", wild=wild, symbols=p.join(subs)))
    elif others:
        text.append(
            p("substitute.stands_for_all_but", wild=wild, symbols=p.join(others), count=len(others))
        )
    if model.scatter >= 0 and not model.substitutable[model.scatter]:
        scatter = p.symbol_at(model.scatter)
        free = mechanics(model).free_spins
        if free is not None and free.symbol == model.scatter:
            text.append(p("substitute.not_scatter_or_trigger", wild=wild, scatter=scatter))
        else:
            text.append(p("substitute.not_scatter", wild=wild, scatter=scatter))
    window = window_help(model)
    if window is not None:
        text += window.substitute(p, model)
    elif model.line_pays[model.wild].any():
        text += [
            p("substitute.own_combinations", wild=wild),
            p("substitute.see_paytable", wild=wild),
            p("substitute.own_left_to_right", wild=wild),
            p("substitute.one_per_line"),
            p("substitute.highest_only"),
        ]
        text += _wild_example(p, model)
        text.append(
            p(
                "substitute.tie_to_wild" if model.ties_to_wild else "substitute.tie_to_symbol",
                wild=wild,
            )
        )
    if model.wild_multiplier > 1:
        text.append(p("substitute.multiplier", wild=wild, multiplier=model.wild_multiplier))
    if model.wild_reels and len(model.wild_reels) < model.reels:
        reels = p.join([str(r + 1) for r in model.wild_reels])
        text.append(p("substitute.on_reels", wild=wild, reels=reels))
    return text


def _scatter_pays(
    p: Phrases, scatter: str, listed: list[tuple[int, int]], most: int, per_coin: bool
) -> str:
    key = "ways.scatter_pay" if per_coin else "scatter.pay"
    parts = [p(key, count=c, scatter=scatter, times=v) for c, v in listed]
    if listed and listed[-1][0] < most:
        c, v = listed[-1]
        parts[-1] = p(f"{key}_or_more", count=c, scatter=scatter, times=v)
    return "; ".join(parts)


def _scatter(p: Phrases, model: GameModel) -> list[str]:
    scatter = p.symbol_at(model.scatter)
    per_reel = int(model.raw.get("scatter", {}).get("max_per_reel", model.rows))
    most = len(model.scatter_reels or range(model.reels)) * per_reel  # most on a screen
    pays = [
        (count, int(model.scatter_pays[min(count, len(model.scatter_pays) - 1)]))
        for count in range(1, most + 1)
    ]
    listed = [(c, v) for c, v in pays if v > 0]
    while len(listed) > 1 and listed[-1][1] == listed[-2][1]:
        listed.pop()
    least = listed[0][0] if listed else most
    window = window_help(model)
    ways = window is not None
    keys = window.KEYS if window is not None else "ways"
    per_coin = model.scatter_pays_per_coin
    text = [
        p("scatter.is_scatter", scatter=scatter),
        p(f"{keys}.scatter_no_way" if ways else "scatter.no_line", scatter=scatter),
        p("scatter.any_position", scatter=scatter),
        p("scatter.anywhere", scatter=scatter, reels=p.spell(model.reels), count=p.spell(least)),
        p(f"{keys}.scatter_per_coin" if per_coin else "scatter.calculated", scatter=scatter),
        p(
            f"{keys}.scatter_pays" if per_coin else "scatter.pays",
            pays=_scatter_pays(p, scatter, listed, most, per_coin),
        ),
    ]
    if model.wild >= 0 and not model.substitutable[model.scatter]:
        text.append(p("scatter.not_substituted", wild=p.symbol_at(model.wild), scatter=scatter))
    if ways:
        text += [p(f"{keys}.scatter_both_paid"), p(f"{keys}.scatter_added")]
    else:
        text += [p("scatter.both_paid"), p("scatter.added"), p("scatter.added_plural")]
    if model.scatter_reels and len(model.scatter_reels) < model.reels:
        reels = p.join([str(r + 1) for r in model.scatter_reels])
        text.append(p("scatter.on_reels", scatter=scatter, reels=reels))
    if not ways:
        text.append(p("scatter.interrupts", scatter=scatter))
    if per_reel == 1 and model.rows > 1:
        text.append(p("scatter.one_per_reel", scatter=scatter))
    return text


def _free_spins(
    p: Phrases, model: GameModel, free: FreeSpins, variant_id: str, gamble: bool
) -> dict[str, Any]:
    symbol = p.symbol_at(free.symbol)
    high = model.reels * model.rows
    text = []
    if free.reveal is not None:
        text.append(p("free_spins.random_number"))
    text.append(_trigger(p, model, free))
    if free.required is not None:
        reels = p.join([str(int(r) + 1) for r in free.required.nonzero()[0]])
        text.append(p("free_spins.required_reels", symbol=symbol, reels=reels))
    if model.wild >= 0 and not model.substitutable[free.symbol]:
        text.append(p("free_spins.not_substituted", wild=p.symbol_at(model.wild), symbol=symbol))
    if free.reveal is None:
        text.append(_spins_text(p, free.spins, free.trigger, high, symbol, "won"))
    else:
        text += [
            p("free_spins.determined", symbol=symbol),
            p("free_spins.reveal", symbol=symbol),
            p("free_spins.numbers"),
        ]
    if free.trigger_multipliers is not None:
        text += _trigger_multipliers(p, free, high, symbol)
    window = window_help(model)
    ways = window is not None
    keys = window.KEYS if window is not None else "ways"
    text.append(p(f"{keys}.free_spins_same_bet" if ways else "free_spins.same_bet"))
    if free.retrigger == RETRIGGER_TABLE:
        text.append(
            p("free_spins.retrigger_table")
            + " "
            + _spins_text(p, free.retrigger_spins, 1, high, symbol, "more")
        )
    elif free.retrigger == RETRIGGER_PER_SYMBOL:
        text.append(p("free_spins.per_symbol", symbol=symbol, count=free.spins_per_symbol))
        text.append(p("free_spins.added_to_remaining", count=free.spins_per_symbol))
    elif free.retrigger == RETRIGGER_NONE:
        text.append(p("free_spins.no_retrigger"))
    if free.max_spins:
        text.append(p("free_spins.max_spins", count=free.max_spins))
    if free.multiplier > 1:
        key = (
            "free_spins.multiplier_all"
            if free.multiply_scatter
            else f"{keys}.free_spins_multiplier"
            if ways
            else "free_spins.multiplier_lines"
        )
        text.append(p(key, multiplier=free.multiplier))
    for ex_symbol, count, multiplier in free.exceptions:
        text.append(
            p(
                "free_spins.exception",
                count=count,
                symbol=p.symbol_at(ex_symbol),
                multiplier=multiplier,
            )
        )
    if model.scatter >= 0:
        scatter = p.symbol_at(model.scatter)
        if free.symbol == model.scatter:
            text.append(p("free_spins.also_scatter", symbol=symbol))
        if not model.scatter_pays_in_free_spins:
            text.append(p("free_spins.scatter_no_pay", scatter=scatter))
        else:
            text.append(p("free_spins.scatter_pays", scatter=scatter))
    if free.reel_set != "base":
        text.append(p("free_spins.own_strips"))
    text += [
        p(f"{keys}.scatter_added" if ways else "free_spins.added_to_lines"),
        p("free_spins.complete"),
    ]
    text.append(p("free_spins.collected_then_gamble" if gamble else "free_spins.collected"))
    # the reel set the free spins play (the rules document's ``reel_symbols`` names its reels')
    section: dict[str, Any] = {"text": text, "reel_set": free.reel_set}
    if free.reveal is not None:
        values, weights = free.reveal_table(model.variant(variant_id))
        total = sum(weights)
        section["reveal_distribution"] = [
            {"spins": v, "weight": w, "probability": round(w / total, 6)}
            for v, w in zip(values, weights, strict=True)
        ]
        mean = sum(v * w for v, w in zip(values, weights, strict=True)) / total
        section["mean_spins_per_symbol"] = round(mean, 4)
    return section


def _trigger_multipliers(p: Phrases, free: FreeSpins, high: int, symbol: str) -> list[str]:
    """What each trigger count multiplies the free spins' wins by (counts of equal multiplier
    above the last listed one read "or more")."""
    assert free.trigger_multipliers is not None
    entries = _counts(free.trigger_multipliers, free.trigger, high)
    text = [
        p("free_spins.trigger_multiplier", count=c, symbol=symbol, multiplier=m) for c, m in entries
    ]
    if entries and entries[-1][0] < high:
        c, m = entries[-1]
        text[-1] = p("free_spins.trigger_multiplier_or_more", count=c, symbol=symbol, multiplier=m)
    return text


def _gamble(p: Phrases, model: GameModel, terms: Terms | None) -> dict[str, Any]:
    gamble = mechanics(model).gamble
    assert gamble is not None
    limit_credits = Decimal(gamble.win_limit_credits)
    if terms is not None and terms.gamble_limit is not None:
        limit_credits = terms.gamble_limit  # the market's limit in place of the model's
    if terms is not None:
        limit = terms.money(terms.to_minor(limit_credits))
    else:
        limit = p("gamble.credits", credits=p.number(limit_credits, 2))

    def times(key: str, n: int) -> str:
        return p(f"{key}_{n}") if p.has(f"{key}_{n}") else p(key, multiplier=n)

    return {
        "text": [
            p("gamble.any_win"),
            p("gamble.choose_to_play"),
            p("gamble.choose_card"),
            times("gamble.colour", gamble.colour_multiplier),
            times("gamble.suit", gamble.suit_multiplier),
            p("gamble.button"),
            p("gamble.options"),
            p("gamble.collect_button"),
            p("gamble.fair_deck"),
            p("gamble.wrong"),
            p("gamble.until_limit"),
            p("gamble.limit", count=gamble.max_gambles, words=p.spell(gamble.max_gambles)),
            p("gamble.amount_limit", limit=limit),
            p("gamble.not_offered"),
            p("gamble.collected"),
        ],
        "max_gambles": gamble.max_gambles,
        "win_limit_credits": str(limit_credits),
        "win_limit": limit,
        "colour_multiplier": gamble.colour_multiplier,
        "suit_multiplier": gamble.suit_multiplier,
    }


def _payouts(p: Phrases, model: GameModel) -> list[str]:
    window = window_help(model)
    if window is not None:
        sentences: list[str] = window.payouts(p, model)
        return sentences
    three = min(3, model.reels)
    lows = [
        s for s in model.symbols if s.role == "regular" and int(model.line_pays[s.index, three])
    ]
    text = [
        p("payouts.depend_on_symbols"),
        p("payouts.next_to_each_other"),
        p("payouts.left_to_right"),
        p("payouts.first_reel"),
    ]
    plain = "" if model.scatter >= 0 else "_plain"  # no scatter win to except
    if model.reels > 1:
        text.append(p(f"payouts.not_from_later{plain}", reels=_ordinals(p, 2, model.reels)))
    if lows and model.reels >= 4:
        low = min(lows, key=lambda s: (int(model.line_pays[s.index, three]), s.index))
        name = p.word(low.id)
        first = p.join([str(r) for r in range(1, three + 1)])
        last = p.join([str(r) for r in range(model.reels - three + 1, model.reels + 1)])
        text += [
            p("payouts.example_paid", count=three, words=p.spell(three), symbol=name, reels=first),
            p("payouts.example_not_paid", words=p.spell(three), symbol=name, reels=last),
        ]
    if model.scatter >= 0:
        text.append(p("payouts.both_paid"))
    text += [
        p("payouts.summary"),
        p("payouts.coins_shown"),
        p(f"payouts.per_coin{plain}"),
        p("payouts.regular"),
        p("payouts.credits_depend"),
        p("payouts.credits_amount"),
        p("payouts.credits_won"),
        p("payouts.formula"),
    ]
    if model.scatter >= 0:
        text.append(p("payouts.scatter_and_free_spins_added"))
    return text


def _bets(p: Phrases, model: GameModel, terms: Terms | None) -> dict[str, Any]:
    bets = bet_options(model)
    sizes = bets.coin_sizes if terms is None else terms.coin_sizes
    if terms is None:
        shown = [p.number(s, 2) for s in sizes]
    else:
        shown = [terms.money(terms.to_minor(s)) for s in sizes]
    window = window_help(model)
    if window is not None:
        text = window.bets(
            p, model, bets.min_coins_per_line, bets.max_coins_per_line, bets.max_total_coins
        )
        text.insert(2, p("bets.coin_sizes", sizes=", ".join(shown)))
    else:
        text = [
            p("bets.lines", low=bets.min_lines, high=bets.max_lines)
            if bets.min_lines < bets.max_lines
            else p("bets.lines_fixed", count=bets.max_lines),
            p("bets.coins_per_line", low=bets.min_coins_per_line, high=bets.max_coins_per_line),
            p("bets.coin_sizes", sizes=", ".join(shown)),
            p("bets.total", coins=bets.max_total_coins),
        ]
    if terms is not None:
        text.append(p("bets.max_stake", amount=terms.money(terms.max_stake_minor)))
        text.append(p(f"{window.KEYS}.lowered" if window is not None else "bets.lowered"))
    return {
        "text": text,
        "lines": {"min": bets.min_lines, "max": bets.max_lines},
        "coins_per_line": {"min": bets.min_coins_per_line, "max": bets.max_coins_per_line},
        "coin_sizes": [str(s) for s in sizes],
        "max_total_coins": bets.max_total_coins,
        "default": {
            "lines": bets.default.lines,
            "coins_per_line": bets.default.coins_per_line,
            "coin_size": str(bets.default.coin_size),
        },
    }


def feature_rules(
    model: GameModel, variant_id: str | None, phrases: Phrases, terms: Terms | None = None
) -> dict[str, Any]:
    rules = mechanics(model)
    variant = model.variant(variant_id)
    gamble = rules.gamble is not None and (terms is None or terms.gamble)
    out: dict[str, Any] = {"general": _general(phrases, model, variant.id, terms)}
    if model.wild >= 0:
        out["substitute"] = _substitute(phrases, model)
    if model.scatter >= 0:
        out["scatter"] = _scatter(phrases, model)
    for mechanic, section in each_face(model, "rules_section"):
        out[mechanic.name] = section(phrases, model, variant.id, terms)
    if rules.free_spins is not None:
        out["free_spins"] = _free_spins(phrases, model, rules.free_spins, variant.id, gamble)
    if rules.plugin is not None:
        # the plug-in's own sentences (in the plug-in's language), under its name
        out[rules.plugin.name.replace(" ", "_")] = rules.plugin.rules()
    if gamble:
        out["gamble"] = _gamble(phrases, model, terms)
    out["payouts"] = _payouts(phrases, model)
    for example in examples_of(model).examples:
        section = out.get(example.section)
        if not isinstance(section, list):
            raise HelpError(
                f"{model.id}: a worked example for {example.section!r}, "
                "a section the page has no list of sentences for"
            )
        section += _worked(phrases, model, example, terms)
    out["bets"] = _bets(phrases, model, terms)
    window = window_help(model)
    start = f"{window.KEYS}.start" if window is not None else "play.start_coins"
    out["play"] = play_rules(phrases, terms, start)
    return out
