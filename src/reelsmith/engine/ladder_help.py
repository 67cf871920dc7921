"""The rules a player reads for a title with the free-spins ladder and local pots, written from
the model's own values (its grid, paylines or ways, pots, levels, meter, reveal weights and bet
levels) and, on the server, from the player's market. On ways, the evaluator's own sentences
(:mod:`reelsmith.mechanics.ways.help`) say how a screen pays in place of the paylines'.

The sentences are the messages of the title's own ``messages.<language>.toml`` (the ``ladder.*``
keys, and ``pots.<name>`` for each pot's name), in the words of the title's help page; this
module decides only which sentences a page has, in which order, and the figures they carry.
"""

from __future__ import annotations

from typing import Any

from reelsmith.engine.ladder import WILD_REEL, ladder_rules
from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases, Terms, play_rules, settled_rules
from reelsmith.mechanics import window_help


def feature_rules(
    model: GameModel, variant_id: str | None, p: Phrases, terms: Terms | None = None
) -> dict[str, Any]:
    rules = ladder_rules(model)
    variant = model.variant(variant_id)
    reveal = rules.gem_reveal(variant)
    first = rules.jackpots[0]
    total = sum(reveal.weights)
    names = {s.id: p.symbol(s.id) for s in model.symbols}
    names[WILD_REEL] = p("ladder.wild_reel")
    levels = [
        {"level": n, "free_spins": rules.spins_per_level, "multiplier": f"{m}x"}
        for n, m in enumerate(rules.multipliers, start=1)
    ]
    pot = {j.name: p(f"pots.{j.name}") for j in rules.jackpots}
    top = max(range(len(model.symbols)), key=lambda s: (int(model.line_pays[s, model.reels]), -s))
    if terms is None:
        # no market: the model's bet levels, in stake units (each market prices a stake unit)
        bets = [p.number(n, 0) for n in rules.bets.levels]
    else:
        bets = [terms.money(b) for b in terms.bets_minor]
    bets_text = [p("ladder.bets.sizes", sizes=", ".join(bets))]
    if terms is None:
        bets_text.append(p("ladder.bets.market_may_offer_fewer"))
    # an evaluator that pays the whole window (ways) says how it pays in place of the
    # paylines' sentences, in the help catalogues' words; the title's own messages say the rest
    window = window_help(model)
    if window is None:
        how = [
            p("ladder.general.highest"),
            p("ladder.general.consecutive"),
            p("ladder.general.added"),
        ]
        wild = [p("ladder.wild.own_row")]
        ways = {}
    else:
        how = window.general(p, model)
        wild = window.substitute(p, model)
        ways = {"ways": window.most_ways(model)}
    return {
        "general": [
            p(
                "ladder.general.machine",
                name=p.name(),
                reels=model.reels,
                rows=model.rows,
                lines=rules.lines,
                **ways,
            ),
            p("ladder.general.paytable"),
            *how,
            p("ladder.general.line_bets", lines=rules.lines),
            p("ladder.general.locked"),
            p("ladder.general.free_spins_bet"),
            p("ladder.general.rtp", rtp=p.number(variant.rtp_percent(), 2)),
            p("ladder.general.malfunction"),
            p("ladder.general.malfunction_state"),
            p("ladder.general.lowered"),
            p("ladder.general.lowered_market"),
            p(
                "ladder.general.top_line",
                count=model.reels,
                symbol=p.symbol_at(top),
                coins=int(model.line_pays[top, model.reels]),
            ),
            p("max_win.uncapped"),
            p(
                "ladder.general.largest_pot",
                pot=pot[rules.jackpots[-1].name],
                bets=rules.jackpots[-1].last_trigger,
            ),
            *settled_rules(p, terms),
        ],
        "wild": [
            p("ladder.wild.substitutes"),
            p("ladder.wild.not_bonus_or_gem"),
            *wild,
        ],
        "jackpots": {
            "text": [
                p("ladder.jackpots.above_each_reel"),
                p("ladder.jackpots.colours"),
                p("ladder.jackpots.independent"),
                p("ladder.jackpots.kept"),
                p("ladder.jackpots.reveal"),
                p("ladder.jackpots.jackpot_spin"),
                p("ladder.jackpots.never_multiplied"),
                p("ladder.jackpots.before_a_point"),
                *(
                    p("ladder.jackpots.must_be_won_before", pot=pot[j.name], cap=str(j.cap))
                    for j in rules.jackpots
                ),
                p("ladder.jackpots.trigger_point"),
                p("ladder.jackpots.latest", pot=pot[first.name], bets=first.last_trigger),
                p("ladder.jackpots.in_free_spins"),
            ],
            "pots": [
                {
                    "id": j.name,  # the pot's colour, for the client's art (not a column)
                    "pot": pot[j.name],
                    "reel": j.reel + 1,
                    # written as the pot sentences above write them (the seed's "1250x
                    # bet"), not with the locale's thousands separator
                    "seed": p("ladder.x_bet", times=str(j.seed)),
                    "must_be_won_before": p("ladder.x_bet", times=str(j.cap)),
                    "largest_award": p("ladder.x_bet", times=str(j.last_trigger)),
                }
                for j in rules.jackpots
            ],
            "gem_reveals": [
                {
                    "reveal": names[outcome],
                    "weight": weight,
                    "probability": round(weight / total, 6),
                }
                for outcome, weight in zip(reveal.outcomes, reveal.weights, strict=True)
            ],
        },
        "free_spins": {
            "text": [
                p("ladder.free_spins.trigger", count=rules.trigger_count),
                p("ladder.free_spins.unlock", spots=rules.spots),
                p("ladder.free_spins.levels", levels=rules.levels),
                *(
                    p("ladder.free_spins.level", level=n, spins=rules.spins_per_level, multiplier=m)
                    for n, m in enumerate(rules.multipliers, start=1)
                ),
                p("ladder.free_spins.includes_jackpots"),
                p("ladder.free_spins.next_level"),
                p("ladder.free_spins.carried"),
                p(
                    "ladder.free_spins.main_game",
                    count=rules.main_game_bonus_per_spot,
                    spots=rules.spots,
                ),
                p("ladder.free_spins.meter"),
                p("ladder.free_spins.full_meter", levels=rules.levels),
            ],
            "levels": levels,
            # the reel set the free spins play (the rules document's ``reel_symbols``)
            "reel_set": rules.free_reel_set,
        },
        "bets": {
            "text": bets_text,
            "ladder": [str(n) for n in rules.bets.levels],
            "default": str(rules.bets.default),
        },
        "play": play_rules(p, terms, "play.start_bet"),
    }
