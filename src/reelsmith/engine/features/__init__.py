"""Catalogue mechanics beyond the line rule: each reads its model tables once and checks them,
and each transition is written once, as functions live play, the simulation kernel and the
exact analysis all call."""
