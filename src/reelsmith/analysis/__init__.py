"""The math lab: exact figures from the reel strips, and simulation to cross-check them."""
