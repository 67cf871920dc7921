"""The game server's services, one job each, every state change in one database transaction:
idempotency, players and their money, rounds and their settlement, autoplay, recall, the
resolver of stale rounds and the demo player. `reelsmith.server.service.GameService` puts
them together."""
