"""What a mechanic package declares: :class:`Mechanic`.

A mechanic is one package under :mod:`reelsmith.mechanics` holding every face of it: the model
tables it reads and their checks, its live step (a :class:`reelsmith.engine.round.Part`), its
rules-page text, the server's view of its money and, where the lab has them, its kernel and
exact parts. The package's ``__init__`` defines ``MECHANIC``, a :class:`Mechanic` naming each
face as ``"module:attribute"``: the registry imports a face on first use, so reading the
registry loads no face (the server does not load the lab, the lab not the server).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from reelsmith.engine.model import GameModel

#: The roles a mechanic plays in a round, in the order the round meets them (the stage of its
#: live part): how the round is staked, the mode of the game it is sold in (an ante, a bought
#: feature), the window the reels show, what changes the window, what pays it, what reads
#: more screens of one spin (a cascade), what changes the pay, the feature whose spins follow
#: the base spin, what limits the round's whole win (a cap), and what may hold the round once
#: its spins are over.
ROLES = (
    "bet",
    "bet mode",
    "window",
    "window modifier",
    "evaluator",
    "spin modifier",
    "win modifier",
    "spin feature",
    "round limit",
    "closing",
    "presentation",
)


def face(reference: str) -> Any:
    """The attribute ``"module:attribute"`` names (the module alone without ``:``), imported
    now."""
    module_name, _, attribute = reference.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


@dataclass(frozen=True)
class Mechanic:
    """One mechanic package, as the registry lists it.

    ``declared(raw)`` says whether a model's tables (``model.toml`` as read) declare it;
    ``tables`` are the top-level keys it reads (a key no mechanic reads is refused);
    ``requires`` the mechanics it cannot play without and ``excludes`` those it cannot be
    combined with (each refusal names the reason). ``part`` builds its live step from the
    model; ``problems`` lists every problem of its tables (one line each; none: sound);
    ``help`` writes its rules-page sections; ``server`` is its face in the server (its money
    in a round's view); ``events`` the event kinds it emits for clients and ``event_schemas``
    the dict of their fields (kind -> ``description``, ``properties`` and, for an event of the
    round rather than of a screen, ``"scope": "round"``: :mod:`reelsmith.engine.events`).
    """

    name: str
    role: str
    summary: str
    tables: frozenset[str]
    declared: Callable[[Mapping[str, Any]], bool]
    part: str | None
    problems: str | None = None
    help: str | None = None
    server: str | None = None
    events: tuple[str, ...] = ()
    event_schemas: str | None = None
    requires: tuple[str, ...] = ()
    excludes: tuple[tuple[str, str], ...] = ()  # (mechanic, why)
    #: The web client's script that draws a title with this mechanic (None: it needs none).
    client: str | None = None
    #: The round's law, for a mechanic whose round the lab analyses whole (a spin feature
    #: with carried state): ``exact`` the module of ``analyze_full`` and ``stored_figures``,
    #: ``simulate`` the function of ``reelsmith simulate``'s report, ``tuner`` the tuning
    #: family's setup; ``help`` the module whose ``feature_rules`` writes the rules page.
    exact: str | None = None
    simulate: str | None = None
    tuner: str | None = None
    #: Whether the lab's round law (``exact``, ``simulate``, ``tuner`` of the round) plays this
    #: mechanic; one it does not is refused by ``analyze``, ``simulate`` and ``tune`` by name,
    #: never analysed as if it were absent.
    in_lab: bool = True
    #: Whether the simulation kernel plays this mechanic (``reelsmith simulate`` and the
    #: parity tests); one it does not is refused by name.
    in_kernel: bool = True
    #: The mechanic's own simulation kernel, for a mechanic that plays a spin whole (a chain
    #: of screens, a window counted anywhere): ``"module"`` with ``build(model, variant_id)``
    #: (the tables, with ``args()``, ``total_bet`` and, where its draws are not only reel stops,
    #: ``draw_purposes``: the purpose of each kind of draw its trace records) and
    #: ``play_chain_rounds`` (the rounds, counted as the round loop counts them). None: the
    #: round loop plays it.
    kernel: str | None = None
    #: For an evaluator whose round is priced by a cost rather than lines x coins: what the
    #: cost buys, as the lab's reports say it ("every way").
    cost_buys: str | None = None
    #: Whether the lab's full analysis (the round's second moment, its hit frequency, the win
    #: distribution: ``reelsmith analyze``) has this mechanic's spin law; without it the lab
    #: gives the RTP route's figures alone and says so.
    in_full_analysis: bool = True
    #: For an evaluator: the module of its screen's exact figures, ``cost(model)`` (the coins
    #: a spin costs at one coin per unit: the paylines, or the evaluator's cost) and
    #: ``screen_rtp(model, reel_set, pays, free)`` (what one screen returns per unit bet).
    evaluation: str | None = None
    #: For an evaluator that pays the whole window at a cost (every way, a count anywhere)
    #: rather than by paylines: the module of its rules-page sentences, whose ``page(model,
    #: phrases)`` gives the rules page's paytable, pay unit and its own section.
    window_help: str | None = None
    #: Whether the lab's full analysis enumerates the reel sets' full cycles for this
    #: mechanic (a cascade's chains, a window counted anywhere), which no per-reel walk carries;
    #: ``report`` is then the module of that analysis' ``report`` and ``document``.
    full_cycle: bool = False
    report: str | None = None
    #: A function ``(model, variant_id) -> CatalogueFigures`` for a mechanic whose RTP is its
    #: own law rather than the evaluator's per-screen walk (a cascade's chain law, enumerated
    #: over the full cycle).
    rtp: str | None = None
    #: A function ``(cls, model, variant_id, depth) -> KernelGame`` for a mechanic whose round
    #: the round loop plays with tables of its own (the ladder's meter and gems).
    kernel_game: str | None = None
    #: A function ``(phrases, model, variant_id, terms) -> list`` writing the rules page's
    #: section named after the mechanic, for one that adds a section to the evaluator's page
    #: (cascades, the modes a market offers; ``terms`` None: the page of no market).
    rules_section: str | None = None
    #: A function ``(raw, reels, rows, where) -> list[str]``: the problems of its tables read
    #: from ``model.toml`` before a model can be built from it.
    table_problems: str | None = None
    #: A function ``(model, where) -> list[str]``: warnings about tables that are valid but
    #: probably not meant (a count the pay table leaves out).
    warnings: str | None = None
    #: A function ``(model, variant_id, rtp) -> dict`` of the exact figures a simulation of
    #: this model is checked against where the mechanic changes them (a cap).
    simulation_exact: str | None = None
    #: A function ``(phrases, model, terms, text) -> list[str]`` that changes the rules page's
    #: general rules ``text`` (a cap's sentences in place of "every win is paid in full").
    general_rules: str | None = None
    #: The tables it cannot be played without beside the one that declares it (the paylines'
    #: pays): composing a model that lacks one is refused naming the key.
    needs_tables: tuple[str, ...] = ()
    #: Whether the mechanic pays jackpots (a market may forbid them).
    jackpots: bool = False
    #: A function ``(analysis) -> figures`` of a round limit whose figures the lab's report
    #: prints beside the analysis' own (a cap: its odds and the capped RTP).
    cap_figures: str | None = None
    #: A function ``(report, model, variant_id) -> LabReport``: ``reelsmith analyze``'s report
    #: with the mechanic's own rows added (the bet modes' figures).
    lab_rows: str | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"mechanic {self.name}: role {self.role!r} is not one of {ROLES}")

    def live_part(self, model: GameModel) -> Any:
        """The mechanic's live step for ``model`` (None: it refines another's, as the wild
        refines the line rule, and has no step of its own)."""
        return None if self.part is None else face(self.part)(model)

    def model_problems(self, model: GameModel) -> list[str]:
        if self.problems is None:
            return []
        found: list[str] = face(self.problems)(model)
        return found

    def event_fields(self) -> dict[str, dict[str, Any]]:
        """Each event kind's schema entry (see ``event_schemas``); ValueError when the kinds
        listed and those described differ."""
        found: dict[str, dict[str, Any]] = (
            {} if self.event_schemas is None else face(self.event_schemas)
        )
        if set(found) != set(self.events):
            raise ValueError(
                f"mechanic {self.name}: events {sorted(self.events)} but schemas of {sorted(found)}"
            )
        return found

    def server_face(self) -> Any:
        return None if self.server is None else face(self.server)
