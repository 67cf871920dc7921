"""A mechanic written for the test suite, as ``docs/mechanics.md`` shows how: mystery symbols.

Every cell showing the model's mystery symbol turns, before the screen is paid, into one and the
same symbol drawn from a weighted table (``[mystery] becomes``). It is a window modifier: it
changes the screen the evaluators read and pays nothing of its own. The package is this file
(what the registry lists) and ``live.py`` (its live part); registering it is one line of
:data:`reelsmith.mechanics.MECHANICS` (the tests add it there for their own run)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="mystery",
    role="window modifier",
    summary="mystery symbols that all turn into one symbol drawn by weight",
    tables=frozenset({"mystery"}),
    declared=lambda raw: "mystery" in raw,
    part="tests.example_mechanic.live:part",
    problems="tests.example_mechanic.live:problems",
    events=("mystery_revealed",),
    event_schemas="tests.example_mechanic.live:EVENTS",
    requires=("paylines",),
    in_lab=False,  # no exact part or kernel step yet: the lab refuses it by name
)
