"""The rules a player reads for Sultan Spins, written from the model's own values and, on the
server, from the player's market; the sentences are the messages of ``messages.<language>.toml``
beside this module (the help page's words, ``shared/seeds/sultan-spins.txt``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from reelsmith.engine.ladder import WILD_REEL, ladder_rules
from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases, Terms, play_rules, settled_rules


def feature_rules(
    model: GameModel, variant_id: str | None, p: Phrases, terms: Terms | None = None
) -> dict[str, Any]:
    rules = ladder_rules(model)
    variant = model.variant(variant_id)
    reveal = rules.gem_reveal(variant)
    first = rules.jackpots[0]
    total = sum(reveal.weights)
    names = {s.id: p.symbol(s.id) for s in model.symbols}
    names[WILD_REEL] = p("sultan.wild_reel")
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
    bets_text = [p("sultan.bets.sizes", sizes=", ".join(bets))]
    if terms is None:
        bets_text.append(p("sultan.bets.market_may_offer_fewer"))
    return {
        "general": [
            p(
                "sultan.general.machine",
                name=p.name(),
                reels=model.reels,
                rows=model.rows,
                lines=model.line_count,
            ),
            p("sultan.general.paytable"),
            p("sultan.general.highest"),
            p("sultan.general.consecutive"),
            p("sultan.general.added"),
            p("sultan.general.line_bets", lines=model.line_count),
            p("sultan.general.locked"),
            p("sultan.general.free_spins_bet"),
            p("sultan.general.rtp", rtp=p.number(Decimal(variant.id), 2)),
            p("sultan.general.malfunction"),
            p("sultan.general.malfunction_state"),
            p("sultan.general.lowered"),
            p("sultan.general.lowered_market"),
            p(
                "sultan.general.top_line",
                count=model.reels,
                symbol=p.symbol_at(top),
                coins=int(model.line_pays[top, model.reels]),
            ),
            p("max_win.uncapped"),
            p(
                "sultan.general.largest_pot",
                pot=pot[rules.jackpots[-1].name],
                bets=rules.jackpots[-1].last_trigger,
            ),
            *settled_rules(p, terms),
        ],
        "wild": [
            p("sultan.wild.substitutes"),
            p("sultan.wild.not_bonus_or_gem"),
            p("sultan.wild.own_row"),
        ],
        "jackpots": {
            "text": [
                p("sultan.jackpots.above_each_reel"),
                p("sultan.jackpots.colours"),
                p("sultan.jackpots.independent"),
                p("sultan.jackpots.kept"),
                p("sultan.jackpots.reveal"),
                p("sultan.jackpots.jackpot_spin"),
                p("sultan.jackpots.never_multiplied"),
                p("sultan.jackpots.before_a_point"),
                *(
                    p("sultan.jackpots.must_be_won_before", pot=pot[j.name], cap=str(j.cap))
                    for j in rules.jackpots
                ),
                p("sultan.jackpots.trigger_point"),
                p("sultan.jackpots.latest", pot=pot[first.name], bets=first.last_trigger),
                p("sultan.jackpots.in_free_spins"),
            ],
            "pots": [
                {
                    "id": j.name,  # the pot's colour, for the client's art (not a column)
                    "pot": pot[j.name],
                    "reel": j.reel + 1,
                    # written as the pot sentences above write them (the seed's "1250x
                    # bet"), not with the locale's thousands separator
                    "seed": p("sultan.x_bet", times=str(j.seed)),
                    "must_be_won_before": p("sultan.x_bet", times=str(j.cap)),
                    "largest_award": p("sultan.x_bet", times=str(j.last_trigger)),
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
                p("sultan.free_spins.trigger", count=rules.trigger_count),
                p("sultan.free_spins.unlock", spots=rules.spots),
                p("sultan.free_spins.levels", levels=rules.levels),
                *(
                    p("sultan.free_spins.level", level=n, spins=rules.spins_per_level, multiplier=m)
                    for n, m in enumerate(rules.multipliers, start=1)
                ),
                p("sultan.free_spins.includes_jackpots"),
                p("sultan.free_spins.next_level"),
                p("sultan.free_spins.carried"),
                p(
                    "sultan.free_spins.main_game",
                    count=rules.main_game_bonus_per_spot,
                    spots=rules.spots,
                ),
                p("sultan.free_spins.meter"),
                p("sultan.free_spins.full_meter", levels=rules.levels),
            ],
            "levels": levels,
        },
        "bets": {
            "text": bets_text,
            "ladder": [str(n) for n in rules.bets.levels],
            "default": str(rules.bets.default),
        },
        "play": play_rules(p, terms, "play.start_bet"),
    }
