"""What the lab compiles for a title, run ahead of the work that needs it.

``reelsmith simulate`` compiles (or loads from numba's cache) before its first round, so that
the time it prints for the rounds is the rounds' alone; ``reelsmith warm`` runs the same
preparations for every shipped title so that a fresh install pays the compile once, up front
(the wheel smoke runs it). The phases are named here once, for both
(:func:`simulation_phase`, :func:`analysis_phase`); :mod:`reelsmith.compiled` records what
each compiled and announces the ones not cached yet.
"""

from __future__ import annotations

import contextlib

from reelsmith.engine.model import GameModel


def simulation_phase(model: GameModel) -> str:
    """The compile phase of simulating ``model`` (per title: tables of another title may be
    typed differently, so each title's first simulation is checked on its own)."""
    return f"simulate {model.id}"


def analysis_phase(model: GameModel) -> str:
    """The compile phase of the exact analysis of ``model``."""
    return f"analyze {model.id}"


def prepare_simulation(model: GameModel, variant_id: str | None = None) -> None:
    """Compile or load what a simulation of ``model`` runs before its rounds: the exact RTP it
    is checked against (a catalogue title's) and the kernel's tables and loop, which
    :func:`reelsmith.analysis.simulation.kernel_game` keeps for this model object, so the
    simulation that follows in this process builds nothing again."""
    from reelsmith.analysis.enumeration import BeyondEnumerationError
    from reelsmith.analysis.simulation import kernel_game, rtp_route

    variant = model.variant(variant_id).id
    analyze_rtp = rtp_route(model)
    if analyze_rtp is not None:
        # no exact RTP (BeyondEnumerationError): the simulation's figures stand alone
        with contextlib.suppress(BeyondEnumerationError):
            analyze_rtp(model, variant)
    kernel_game(model, variant)


def prepare_analysis(model: GameModel, variant_id: str | None = None) -> None:
    """Compile or load what ``reelsmith analyze`` runs on ``model``, by running its exact
    analysis once (its compiled parts have no smaller input that compiles the same code)."""
    from reelsmith.analysis.analyzer import analyze

    analyze(model, variant_id)
