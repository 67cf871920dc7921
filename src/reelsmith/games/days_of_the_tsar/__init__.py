"""Days of the Tsar: 5x3, 25 lines, Tsar wild, Fabergé Egg scatter, free spins, card gamble."""
