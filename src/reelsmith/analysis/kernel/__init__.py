"""The one simulation kernel of every title: base spin, the catalogue's trigger, reveals, free
spins with retriggers and the cap, and, where the model declares them, the free-spins ladder
with local must-hit-by pots carried from round to round, compiled (numba), for any grid of 3-7
reels and 1-8 rows and any number of paylines.

Same draws, same rules
----------------------
The kernel makes the draws live play makes, in the same order
(:mod:`reelsmith.engine.round`, :mod:`reelsmith.engine.ladder`), and its rules are
the engine's own compiled functions, called here and by live play alike: the line rule
:func:`reelsmith.engine.lines.line_award` (through the line automaton built from it), the
count of a symbol on the reels it counts on :func:`~reelsmith.engine.lines.count_symbol_on`,
the catalogue's trigger and retrigger (:func:`~reelsmith.engine.catalogue.trigger_spins`,
:func:`~reelsmith.engine.catalogue.award_spins`), the plug-in's step, and the ladder's and the
pots' transitions (:mod:`reelsmith.engine.features.ladder_steps`). The gamble is fair and
leaves the return unchanged, so a simulated round ends when its free spins do, as a round
that collects does. The parity tests replay the kernel's recorded draws through live play and
require identical rounds.

Parts
-----
* :mod:`~reelsmith.analysis.kernel.tables`: a reel set's windows, the symbols each shows, the
  line automaton and the prefix entries, stacked for the base and free-spin reel sets;
* :mod:`~reelsmith.analysis.kernel.rounds`: the round loop (one screen routine for every kind,
  the catalogue's and the ladder's blocks after it), the statistics' slots and the bands;
* :mod:`~reelsmith.analysis.kernel.game`: a variant prepared for the loop, played counting,
  recording, or from a ladder player's start state.

Draws come from :mod:`reelsmith.analysis.pcg64` (numpy's PCG64 and ``Generator.integers``).
"""

from reelsmith.analysis.kernel.game import (
    BATCH_ROUNDS,
    STARTS,
    Carried,
    KernelGame,
    LadderPots,
    meter_law,
)
from reelsmith.analysis.kernel.rounds import (
    BAND_EDGES,
    DRAW_PLUGIN,
    DRAW_REEL_STOP,
    DRAW_REVEAL,
    DRAW_TRIGGER,
    F_BASE_WIN_SQ,
    F_WIN_SQ,
    MAX_SLOTS,
    N_BANDS,
    N_FLOAT_STATS,
    N_INT_STATS,
    R_ADDED,
    R_AWARDED,
    R_BASE_LINE,
    R_BASE_SCATTER,
    R_BASE_TRIGGERS,
    R_BONUS,
    R_FREE_LINE,
    R_FREE_SPINS,
    R_FREE_TRIGGERS,
    R_FREE_WIN,
    R_JACKPOT,
    R_METER,
    R_POTS,
    R_WIN,
    ROUND_FIELD_NAMES,
    ROUND_FIELDS,
    S_BANDS,
    S_BASE_HITS,
    S_BASE_LINE,
    S_BASE_PLUGIN,
    S_BASE_SCATTER,
    S_CAP_HITS,
    S_CAPPED,
    S_FREE_SPINS,
    S_FREE_WIN,
    S_MAX_FREE_SPINS,
    S_MAX_WIN,
    S_RETRIGGERS,
    S_ROUND_HITS,
    S_ROUNDS,
    S_TRIGGERS,
    S_WIN,
    WILD_REEL_OUTCOME,
    StatSlots,
    band_edges_in_coins,
    band_labels,
    ladder_round_fields,
    merge_stats,
    play_plugin_rounds,
    play_rounds,
    stat_offsets,
    stationary_state,
)
from reelsmith.analysis.kernel.tables import (
    COUNT_BITS,
    COUNT_MASK,
    E_END,
    E_OPEN,
    E_PAY,
    MAX_DEPTH,
    PAYS_NOTHING,
    PREFIX_LIMIT,
    START,
    LineAutomaton,
    ReelTables,
    StackedTables,
    prefix_depth,
)

__all__ = [
    "BAND_EDGES",
    "BATCH_ROUNDS",
    "COUNT_BITS",
    "COUNT_MASK",
    "DRAW_PLUGIN",
    "DRAW_REEL_STOP",
    "DRAW_REVEAL",
    "DRAW_TRIGGER",
    "E_END",
    "E_OPEN",
    "E_PAY",
    "F_BASE_WIN_SQ",
    "F_WIN_SQ",
    "MAX_DEPTH",
    "MAX_SLOTS",
    "N_BANDS",
    "N_FLOAT_STATS",
    "N_INT_STATS",
    "PAYS_NOTHING",
    "PREFIX_LIMIT",
    "ROUND_FIELDS",
    "ROUND_FIELD_NAMES",
    "R_ADDED",
    "R_AWARDED",
    "R_BASE_LINE",
    "R_BASE_SCATTER",
    "R_BASE_TRIGGERS",
    "R_BONUS",
    "R_FREE_LINE",
    "R_FREE_SPINS",
    "R_FREE_TRIGGERS",
    "R_FREE_WIN",
    "R_JACKPOT",
    "R_METER",
    "R_POTS",
    "R_WIN",
    "START",
    "STARTS",
    "S_BANDS",
    "S_BASE_HITS",
    "S_BASE_LINE",
    "S_BASE_PLUGIN",
    "S_BASE_SCATTER",
    "S_CAPPED",
    "S_CAP_HITS",
    "S_FREE_SPINS",
    "S_FREE_WIN",
    "S_MAX_FREE_SPINS",
    "S_MAX_WIN",
    "S_RETRIGGERS",
    "S_ROUNDS",
    "S_ROUND_HITS",
    "S_TRIGGERS",
    "S_WIN",
    "WILD_REEL_OUTCOME",
    "Carried",
    "KernelGame",
    "LadderPots",
    "LineAutomaton",
    "ReelTables",
    "StackedTables",
    "StatSlots",
    "band_edges_in_coins",
    "band_labels",
    "ladder_round_fields",
    "merge_stats",
    "meter_law",
    "play_plugin_rounds",
    "play_rounds",
    "prefix_depth",
    "stat_offsets",
    "stationary_state",
]
