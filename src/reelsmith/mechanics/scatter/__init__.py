"""The scatter: pays by its count anywhere on the reels it counts on, times the total bet."""

from reelsmith.mechanics.base import Mechanic


def _declared(raw):  # type: ignore[no-untyped-def]
    symbols = raw.get("symbols") or []
    return any(isinstance(s, dict) and s.get("role") == "scatter" for s in symbols)


MECHANIC = Mechanic(
    name="scatter",
    role="evaluator",
    summary="a scatter symbol paid by its count anywhere, times the total bet",
    tables=frozenset({"scatter"}),
    declared=_declared,
    part="reelsmith.mechanics.scatter.live:part",
    events=("scatter_win",),
    event_schemas="reelsmith.mechanics.scatter.events:SCHEMAS",
)
