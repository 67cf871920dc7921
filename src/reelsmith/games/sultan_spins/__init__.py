"""Sultan Spins: 5x4, 40 lines, wild, five local gem jackpots, a five-level free spins ladder."""
