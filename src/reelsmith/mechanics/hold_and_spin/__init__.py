"""Hold-and-spin (cash collect): coins anywhere on the window start respins in which the coins
stick and only the empty cells spin; the feature pays the values on the grid, jackpot tiers
included, and where the model has them collector coins collect and multiplier coins multiply
the plain values (see :mod:`reelsmith.mechanics.hold_and_spin.rules`)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="hold_and_spin",
    role="spin feature",
    summary="hold-and-spin: coins stick, empty cells respin, the grid's values and jackpots pay",
    tables=frozenset({"hold_and_spin"}),
    declared=lambda raw: "hold_and_spin" in raw,
    part="reelsmith.mechanics.hold_and_spin.live:part",
    problems="reelsmith.mechanics.hold_and_spin.rules:problems",
    server="reelsmith.mechanics.hold_and_spin.server:HoldAndSpinMoney",
    events=("hold_and_spin_start", "hold_and_spin_respin", "hold_and_spin_end"),
    event_schemas="reelsmith.mechanics.hold_and_spin.events:SCHEMAS",
    requires=("paylines", "coins"),
    excludes=(
        ("scatter", "the hold-and-spin's exact analysis counts coins, not a scatter beside them"),
        ("cascade", "the hold-and-spin is not played after a cascade's chain"),
        ("plugin", "a plug-in's win modifier is not composed with the hold-and-spin"),
        ("max_win", "the capped law of a hold-and-spin round is not written yet"),
        ("gamble", "the gamble on a hold-and-spin round's win is not composed yet"),
    ),
    help="reelsmith.mechanics.hold_and_spin.help",
    exact="reelsmith.mechanics.hold_and_spin.exact",
    tuner="reelsmith.analysis.exact_tuning:plan",
    kernel="reelsmith.mechanics.hold_and_spin.kernel",
    jackpots=True,  # its jackpot tiers: a market that forbids jackpots does not offer it
)
