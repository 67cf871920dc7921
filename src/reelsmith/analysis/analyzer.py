"""The lab's one exact analyzer: :func:`analyze` gives every exact figure of any model's
variant, and :func:`stored_figures` the figures a variant file keeps beside its strips.

A round is what one bet buys: a base spin and whatever feature it starts. Its law is
composed from the contributions of the mechanics the model declares, each written once:

* the **base game's spin law and the catalogue's free spins**
  (:mod:`reelsmith.analysis.catalogue_exact`): the base spin's law from its reel set, composed
  with the free spins it triggers (Wald's identity or the capped feature's chain) and with a
  plug-in's law of wins where the model has one; a model without free spins is its base spin;
* the **ladder-and-pots round** (:mod:`reelsmith.analysis.ladder_exact`, built on
  :mod:`reelsmith.analysis.ladder_spin` for one spin and :mod:`reelsmith.analysis.ladder_round`
  for the ladder and the carried state): a spin whose gems feed local must-hit-by pots and whose
  bonus symbols climb a free-spins ladder with a carried meter. Its spins are not the
  catalogue's (a gem reveals, a pot may pay), and its rounds depend on one another through the
  pots and the meter, so it is the round's law in place of the catalogue's, not beside it.

The contribution is the exact face of the model's round, named by its mechanics
(:func:`reelsmith.mechanics.round_face`: the ladder's where the model declares it, else the
paylines'). Nothing in this module names a title or a mechanic: the registry chooses.

Each contribution returns its own analysis type (exact fractions for the catalogue, double
precision for the ladder's chains); :mod:`reelsmith.analysis.analysis_report` builds the one
report from either, and :func:`reelsmith.analysis.tuning.tune` tunes either through the
family the same contribution names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from reelsmith.engine.model import GameModel, ModelError

if TYPE_CHECKING:
    from reelsmith.analysis.catalogue_exact import CatalogueAnalysis
    from reelsmith.analysis.ladder_exact import LadderAnalysis

    #: What :func:`analyze` returns: the analysis type of the model's round law.
    Analysis: TypeAlias = CatalogueAnalysis | LadderAnalysis


class NoRoundLawError(ModelError):
    """A model whose mechanics no exact contribution analyzes; the message names the model."""


@dataclass(frozen=True)
class RoundLaw:
    """One mechanic's exact contribution: the law of a round of a model that declares it.

    ``analyze(model, variant_id)`` computes every exact figure of the variant (``None``: the
    model's default); ``stored_figures(analysis)`` picks those a variant file keeps beside its
    strips (rounded to 10 decimal places, re-derived by a test). ``module`` holds both; it is
    imported on first use, so choosing a law loads only its own mathematics. ``tuner`` names,
    as ``"module:attribute"``, the function that sets up the tuning family whose moves this
    law's figures judge (:data:`reelsmith.analysis.tuning.PlanSetup`)."""

    name: str
    module: str
    tuner: str

    def _module(self) -> Any:
        import importlib

        return importlib.import_module(self.module)

    def analyze(self, model: GameModel, variant_id: str | None = None) -> Any:
        return self._module().analyze_full(model, variant_id)

    def rtp(self, model: GameModel, variant_id: str | None = None) -> Any:
        """The variant's exact RTP by the law's RTP route (``analyze_rtp``: the cheapest exact
        route the law has; the full analysis' RTP is the same number)."""
        return self._module().analyze_rtp(model, variant_id).rtp

    def stored_figures(self, analysis: Any) -> dict[str, float]:
        figures: dict[str, float] = self._module().stored_figures(analysis)
        return figures

    def tuning_plan(self) -> Any:
        """The tuning family's setup (:data:`reelsmith.analysis.tuning.PlanSetup`)."""
        import importlib

        module_name, _, attribute = self.tuner.partition(":")
        return getattr(importlib.import_module(module_name), attribute)


def round_law(model: GameModel) -> RoundLaw:
    """The contribution that gives the law of ``model``'s round: the exact part of its round
    (:func:`reelsmith.mechanics.round_face`). Raises :class:`NoRoundLawError` naming the model
    when no mechanic of it has one (a CompositionError when its mechanics do not compose)."""
    from reelsmith.mechanics import round_face

    try:
        module = round_face(model, "exact")
        tuner = round_face(model, "tuner")
    except ModelError as exc:
        if type(exc) is not ModelError:
            raise  # mechanics that do not compose: the registry's own refusal
        raise NoRoundLawError(str(exc)) from None
    return RoundLaw(name=module.rsplit(".", 1)[-1], module=module, tuner=tuner)


def analyze(model: GameModel, variant_id: str | None = None) -> Analysis:
    """Every exact figure of ``model``'s variant ``variant_id`` (``None``: the default), per
    unit of bet and per round, from the contribution its mechanics choose."""
    analysis: Analysis = round_law(model).analyze(model, variant_id)
    return analysis


def stored_figures(analysis: Analysis) -> dict[str, float]:
    """The figures a variant file keeps beside its strips, from its analysis: its round law's,
    and each bet mode's exact RTP (``mode_<name>_rtp``), which the rules page states without
    working it out again (a bought feature on a cascade takes seconds)."""
    from reelsmith.mechanics.modes.exact import stored_mode_figures

    figures: dict[str, float] = round_law(analysis.model).stored_figures(analysis)
    figures.update(stored_mode_figures(analysis.model, getattr(analysis, "variant_id", None)))
    return figures


def variant_figures(model: GameModel, variant_id: str | None = None) -> dict[str, float]:
    """The figures the strips of ``variant_id`` give, as its variant file stores them."""
    return stored_figures(analyze(model, variant_id))
