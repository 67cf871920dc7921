"""The served app warms its game engines up before it answers: throwaway rounds in memory."""

from __future__ import annotations

from sqlalchemy import text


def count_rows(db) -> dict[str, int]:
    with db.read() as connection:
        return {
            table: connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in ("rounds", "round_steps", "ledger_transactions", "audit_log")
        }


def test_warm_up_plays_every_title_and_writes_nothing(sqlite_api):
    service = sqlite_api.client.app.state.service
    played: dict[str, int] = {}
    for game, title in service.context.titles.items():
        start = title.start

        def counting(*args, _start=start, _game=game, **kwargs):
            played[_game] = played.get(_game, 0) + 1
            return _start(*args, **kwargs)

        title.start = counting  # type: ignore[method-assign]

    class NoLiveDraws:
        def randbelow(self, bound: int, purpose: str) -> int:
            raise AssertionError(f"warm-up drew {purpose} from the live source")

    live, service.context.rng = service.context.rng, NoLiveDraws()
    before = count_rows(sqlite_api.db)
    try:
        rounds = service.warm_up()  # seeded draws of its own, never the live source's
    finally:
        service.context.rng = live
    assert rounds == sum(played.values()) > 0
    assert set(played) == {
        "aurora-fox",
        "crystal-caverns",
        "days-of-the-tsar",
        "lucky-lanterns",
        "sultan-spins",
    }
    assert count_rows(sqlite_api.db) == before


def test_serve_app_warms_up_and_freezes(monkeypatch, tmp_path):
    from reelsmith.server import app as app_module

    monkeypatch.setenv("REELSMITH_DATABASE_URL", f"sqlite:///{tmp_path}/served.db")
    monkeypatch.setenv("REELSMITH_SECRET_KEY", "warm-secret")
    monkeypatch.setenv("REELSMITH_OPERATOR_API_KEY", "warm-operator")
    warmed: list[int] = []
    original = app_module.GameService.warm_up

    def spy(self):
        warmed.append(original(self))
        return warmed[-1]

    monkeypatch.setattr(app_module.GameService, "warm_up", spy)
    served = app_module.serve_app()
    assert warmed and warmed[0] > 0
    assert served.state.freeze_startup_objects is True


def test_the_served_app_collects_young_objects_less_often(monkeypatch, tmp_path):
    """Started, the served app freezes its startup objects and collects the young generation
    every YOUNG_COLLECTION_EVERY allocations (a test's own app leaves the collector alone)."""
    import asyncio
    import gc

    from reelsmith.server import app as app_module
    from reelsmith.server import lifespan

    monkeypatch.setenv("REELSMITH_DATABASE_URL", f"sqlite:///{tmp_path}/served.db")
    monkeypatch.setenv("REELSMITH_SECRET_KEY", "warm-secret")
    monkeypatch.setenv("REELSMITH_OPERATOR_API_KEY", "warm-operator")
    calls: list[object] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "set_threshold", lambda *limits: calls.append(limits))
    monkeypatch.setattr(gc, "get_threshold", lambda: (700, 10, 10))
    served = app_module.serve_app()

    async def start_and_stop() -> None:
        async with served.router.lifespan_context(served):
            pass

    asyncio.run(start_and_stop())
    assert calls == ["freeze", (lifespan.YOUNG_COLLECTION_EVERY, 10, 10)]
