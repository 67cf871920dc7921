"""Errors the engine raises for what a player or caller asked, as opposed to malfunctions."""


class RuleError(ValueError):
    """An action the rules do not allow now (gamble without a win, a spin while free spins
    remain, a choice not offered). Nothing changes; the message says what is allowed."""
