"""The game server: players, wallet, rounds, history and recovery over HTTP."""
