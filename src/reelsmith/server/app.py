"""The HTTP API (FastAPI), assembled: operator endpoints behind an API key, player endpoints
behind a signed session token, every state-changing call keyed by an ``Idempotency-Key``
header.

Every refusal is a JSON body ``{code, message}`` (see `http_errors`); an unexpected error is
a 500 with the same shape and no trace.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi import FastAPI

from reelsmith.rng import RandomSource
from reelsmith.server import http_errors, logs, transport
from reelsmith.server.auth import key_id
from reelsmith.server.bet_bodies import bet_schema
from reelsmith.server.clock import Clock, DatabaseClock, SystemClock
from reelsmith.server.guard import Bucket
from reelsmith.server.headers import SecurityHeaders
from reelsmith.server.lifespan import lifespan
from reelsmith.server.markets import MARKETS_DIR, MarketError, load_markets
from reelsmith.server.metrics import Metrics
from reelsmith.server.middleware import BodyLimit, CatchAll, Observe, OneHost, RefuseNulPath
from reelsmith.server.registry import TitleError, TitleRegistry
from reelsmith.server.responses import JsonBodyRoute
from reelsmith.server.routes import adopt, demo, free_rounds, operator, player, reports, site
from reelsmith.server.routes.steps import StepRouter, step_routes
from reelsmith.server.schemas import describe_bets
from reelsmith.server.service import GameService
from reelsmith.server.services.orphans import orphans
from reelsmith.server.services.versions import keep_served
from reelsmith.server.settings import DEV_MODE_BANNER, Settings
from reelsmith.server.static import client_build
from reelsmith.store.db import CommitGroup, Database

log = logging.getLogger("reelsmith.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"

# Threads that serve history pages (see create_app).
READER_THREADS = 2


def create_app(
    settings: Settings | None = None,
    clock: Clock | None = None,
    rng: RandomSource | None = None,
    database: Database | None = None,
    run_resolver: bool = True,
) -> FastAPI:
    settings = settings or Settings.load()
    if settings.log_json:
        logs.configure()
    try:
        titles = TitleRegistry.load(settings.title_paths())
        markets = load_markets(
            Path(settings.markets_dir) if settings.markets_dir else MARKETS_DIR, titles.models()
        )
    except (TitleError, MarketError) as exc:
        raise SystemExit(f"error: {exc}") from None
    bet_doc = bet_schema([title.bet_body for title in titles.values()])
    db = database or Database(
        settings.connect_url(),
        lock_timeout_ms=settings.database_lock_timeout_ms,
        statement_timeout_ms=settings.database_statement_timeout_ms,
    )
    db.migrate()
    if clock is None:  # several hosts share a PostgreSQL database: its clock is theirs
        clock = SystemClock() if db.is_sqlite else DatabaseClock(db.now_ms)
    metrics = Metrics()
    service = GameService(db, settings, markets, clock, metrics, rng, titles)
    service.context.prepare_house_accounts()
    with db.write() as connection:  # the versions served, kept for their rounds' replays
        keep_served(connection, titles, clock.now_ms())
    with db.read() as connection:
        for orphan in orphans(connection, markets, titles):
            log.warning("%s", orphan)
    # per player, on the injected clock like every other throttle
    limiter = Bucket(clock, settings.rate_limit_per_second, settings.rate_limit_burst)
    live_sessions = service.sessions
    operator_failures = Bucket(
        clock, settings.operator_failures_per_second, settings.operator_failures_burst
    )
    demo_requests = Bucket(clock, settings.demo_sessions_per_second, settings.demo_sessions_burst)
    if settings.dev_mode:
        log.warning("%s", DEV_MODE_BANNER)
    for name in settings.generated:
        log.warning("no %s configured: using a random one for this process", name)
    demo_player = service.demo.ensure_player() if settings.demo else None

    app = FastAPI(
        title="reelsmith game server",
        version="0.1.0",
        description="Players, wallet, rounds, history and recovery for the titles served: "
        + ", ".join(title.name for title in titles.values())
        + ".",
        lifespan=lifespan(service, db, run_resolver, settings.resolver_interval_seconds),
        # FastAPI's own OpenTelemetry hooks stay off: the server's metrics are its Prometheus
        # endpoint and its JSON log lines, and the hooks' per-request check of the global
        # providers cost a twentieth of a plain request's instructions
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.router.route_class = JsonBodyRoute
    app.state.service = service
    app.state.settings = settings
    app.state.operator_key_id = key_id(settings.operator_api_key)
    app.state.clock = clock
    app.state.limiter = limiter
    app.state.sessions = live_sessions
    app.state.operator_failures = operator_failures
    app.state.demo_player = demo_player

    http_errors.install(app)
    routes_of_steps: dict[str, object] = {}
    app.add_middleware(StepRouter, routes=routes_of_steps, handlers=app.exception_handlers)
    app.add_middleware(CatchAll)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(RefuseNulPath)
    app.add_middleware(OneHost)
    app.add_middleware(SecurityHeaders, frame_ancestors=settings.frame_ancestors)
    app.add_middleware(Observe, metrics=metrics)

    # The player's endpoints run the services on the event loop itself, their writes in
    # commit groups (see CommitGroup): the write calls of one pass of the loop share a
    # transaction and its commit. A spin's statements take microseconds each on SQLite, and
    # on PostgreSQL they travel in two batches; handing every request to a thread instead
    # only adds the cost of the hand-off and, on PostgreSQL, a commit, a flush of the
    # write-ahead log and three round trips per request.
    group = CommitGroup(db)
    app.state.commit_group = group
    # Threads for the reads that are too long for the event loop (history pages). Few: they
    # share Python's global lock with the loop; a burst of pages queues here, not in front of
    # the spins, nor in the loop's default executor (where commit groups wait for SQLite's
    # writer lock).
    readers = ThreadPoolExecutor(max_workers=READER_THREADS, thread_name_prefix="reelsmith-reader")
    app.state.readers = readers

    client = client_build(WEB_DIR, settings.web_delivery) if WEB_DIR.is_dir() else None
    app.state.client = client
    site.add(app, client, metrics)
    adopt(app.router, operator.router(service, live_sessions))
    adopt(app.router, demo.router(service, demo_player, demo_requests))
    adopt(
        app.router,
        player.router(service, settings, group, readers, live_sessions, demo_player, bet_doc),
    )
    adopt(app.router, free_rounds.operator_router(service))
    adopt(app.router, free_rounds.player_router(service, group))
    adopt(app.router, reports.router(service))
    describe_bets(app, bet_doc)
    routes_of_steps.update(step_routes(app.routes))
    return app


def serve_app() -> FastAPI:
    """The application as ``reelsmith serve`` runs it (uvicorn's factory, in each worker
    process): settings from the environment, the game engines warmed up, and the startup
    objects frozen out of the garbage collector's full collections (a process running many
    apps, as the tests do, must not freeze each one's objects for good)."""
    app = create_app()
    transport.LimitedHttpToolsProtocol.configure(transport.Limits.from_settings(app.state.settings))
    app.state.service.warm_up()  # before the process answers: no first spin waits for it
    app.state.freeze_startup_objects = True
    return app
