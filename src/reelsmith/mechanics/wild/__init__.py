"""The wild: substitutes on paylines and ways for the symbols it stands for; ``[wild]`` refines
the line rule (a multiplier on the wins it completes, who wins a tie, the reels it may stand
on)."""

from reelsmith.mechanics.base import Mechanic


def _declared(raw):  # type: ignore[no-untyped-def]
    symbols = raw.get("symbols") or []
    return "wild" in raw or any(isinstance(s, dict) and s.get("role") == "wild" for s in symbols)


MECHANIC = Mechanic(
    name="wild",
    role="evaluator",
    summary="a wild that substitutes on paylines (multiplier, ties, reels)",
    tables=frozenset({"wild"}),
    declared=_declared,
    part=None,
)
