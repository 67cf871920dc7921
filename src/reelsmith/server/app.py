"""The HTTP API (FastAPI): operator endpoints behind an API key, player endpoints behind a
signed session token, every state-changing call keyed by an ``Idempotency-Key`` header.

Every refusal is a 4xx JSON body ``{code, message}``; an unexpected error is a 500 with the
same shape and no trace.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reelsmith.help import LanguageError
from reelsmith.rng import RandomSource
from reelsmith.server import inputs, logs, tokens, transport
from reelsmith.server.bet_bodies import bet_schema
from reelsmith.server.clock import Clock, SystemClock
from reelsmith.server.errors import ApiError
from reelsmith.server.guard import Bucket, too_many
from reelsmith.server.headers import SecurityHeaders
from reelsmith.server.markets import MARKETS_DIR, MarketError, load_markets
from reelsmith.server.metrics import Metrics
from reelsmith.server.registry import TitleError, TitleRegistry
from reelsmith.server.service import GameService, Rendered, json_text, request_hash
from reelsmith.server.sessions import LiveSessions
from reelsmith.server.settings import Settings
from reelsmith.server.static import ClientFiles, client_build
from reelsmith.store.db import CommitGroup, Database

log = logging.getLogger("reelsmith.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


# ---------------------------------------------------------------------------------------
# Request bodies (documented in the OpenAPI spec)
# ---------------------------------------------------------------------------------------


class Strict(BaseModel):
    """A request body: unknown fields refused. Its JSON was read by `inputs.read_json`, which
    refuses NUL characters, lone surrogates, duplicate keys, deep nesting and huge integers."""

    model_config = ConfigDict(extra="forbid")


class CreatePlayer(Strict):
    external_ref: str = Field(
        min_length=1, max_length=128, description="The operator's own id for the player"
    )
    currency: str = Field(
        min_length=3, max_length=3, description="ISO 4217 code; must be the market's"
    )
    market: str = Field(default="default", max_length=32)


class Transfer(Strict):
    amount: str = Field(
        max_length=32, description='A decimal amount in the player\'s currency, e.g. "25.00"'
    )
    currency: str | None = Field(default=None, min_length=3, max_length=3)


class SpinRequest(Strict):
    bet: dict[str, Any] = Field(
        description="The bet of the game in the path (its shape: the game's bet in the schema); "
        "read and checked by the game's title"
    )
    autoplay_id: str | None = Field(default=None, max_length=64)
    gamble: StrictBool = Field(
        default=True,
        description="Days of the Tsar: false declines the gamble for this round, so a win is "
        "collected with the spin (or when its free spins end) and the round needs no collect "
        "request. Sultan Spins has no gamble and ignores it.",
    )
    forced_draws: list[StrictInt] | None = Field(
        default=None, max_length=200, description="Dev mode only"
    )


class ActionRequest(Strict):
    forced_draws: list[StrictInt] | None = Field(
        default=None, max_length=200, description="Dev mode only"
    )


class GambleRequest(Strict):
    choice: str = Field(max_length=16, description="red, black, hearts, diamonds, clubs or spades")
    forced_draws: list[StrictInt] | None = Field(
        default=None, max_length=200, description="Dev mode only"
    )


class AutoplayRequest(Strict):
    bet: dict[str, Any]
    rounds: StrictInt = Field(ge=1, le=1000)
    stop_on_feature: StrictBool = False
    stop_on_jackpot: StrictBool = False
    stop_on_balance_change: StrictBool = Field(
        default=False, description="Stop when the balance changes by anything but its rounds"
    )
    stop_on_win_above: str | None = Field(default=None, max_length=32)
    loss_limit: str | None = Field(default=None, max_length=32)


# ---------------------------------------------------------------------------------------
# Middleware
# ---------------------------------------------------------------------------------------


class FastJSONResponse(Response):
    """JSON rendered by orjson: the same compact text as ``json.dumps`` for the game's data
    (strings, integers, lists, objects) at a fraction of the cost."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return json_text(content, sort_keys=False).encode()


class StepRouter:
    """The round steps' own router: ``POST /api/games/{game}/spin`` and
    ``POST /api/games/{game}/rounds/{round_id}/{free-spin|gamble|collect}`` go straight to
    their endpoints, the rest to the application.

    These are the requests a player sends most, and their endpoints need nothing of FastAPI's
    per-request machinery (they read their token, key and body themselves): routing through
    every route's pattern, the request-response wrappers and the dependency solver cost more
    CPU than the HTTP server itself. The endpoints are the ones registered with FastAPI (and
    described in the OpenAPI document), called with the same ``Request``; their refusals go
    to the application's own exception handlers, anything else up to its error middleware."""

    def __init__(self, app: ASGIApp, routes: dict[str, Any], handlers: dict[Any, Any]) -> None:
        self.app = app
        self.routes = routes  # path template -> APIRoute
        self.handlers = handlers

    def _match(self, path: str) -> tuple[Any, dict[str, str]] | None:
        parts = path.split("/")
        if len(parts) < 5 or parts[1] != "api" or parts[2] != "games" or not parts[3]:
            return None
        if len(parts) == 5 and parts[4] == "spin":
            return self.routes["/api/games/{game}/spin"], {"game": parts[3]}
        if len(parts) == 7 and parts[4] == "rounds" and parts[5]:
            route = self.routes.get(f"/api/games/{{game}}/rounds/{{round_id}}/{parts[6]}")
            if route is not None:
                return route, {"game": parts[3], "round_id": parts[5]}
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            self._match(scope["path"])
            if scope["type"] == "http" and scope["method"] == "POST"
            else None
        )
        if found is None:
            await self.app(scope, receive, send)
            return
        route, params = found
        scope["route"] = route  # as the router sets it: the request log names the route
        scope["path_params"] = params
        request = Request(scope, receive)
        try:
            response = await route.endpoint(request=request, **params)
        except ApiError as exc:
            response = await self.handlers[ApiError](request, exc)
        except RequestValidationError as exc:
            response = await self.handlers[RequestValidationError](request, exc)
        except ClientDisconnect:  # the client left (or was timed out) before its body came
            return
        await response(scope, receive, send)


class BodyLimit:
    """Refuse request bodies above ``limit`` bytes with 413 on every endpoint, whether or not
    they say their size.

    A body that says its size (``Content-Length``) is refused before it is read. A chunked
    one, which does not, is read here first, up to one byte past the limit (it is held in
    memory either way: every endpoint that takes a body reads it whole), and refused as it
    passes the limit, before any endpoint sees it, so an endpoint that ignores bodies
    refuses it too. The connection is closed after a 413: the rest is not read."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunked = False
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(send)
                    return
            elif name == b"transfer-encoding":
                chunked = True
        if not chunked:
            await self.app(scope, receive, send)
            return
        parts: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            part = message.get("body", b"")
            seen += len(part)
            if seen > self.limit:
                await self._refuse(send)
                return
            parts.append(part)
            if not message.get("more_body", False):
                break
        replayed = False

        async def read_once() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"".join(parts), "more_body": False}

        await self.app(scope, read_once, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"code": "body_too_large", "message": f"the request body is above {self.limit} bytes"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class RefuseNulPath:
    """Refuse a path holding the NUL character (``%00``) before any route sees it: ids from
    the path are looked up in the database, and PostgreSQL text cannot hold NUL."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "\x00" in scope.get("path", ""):
            body = json.dumps(
                {"code": "invalid_request", "message": "the path must not contain NUL"}
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 400,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


class Observe:
    """Request latency into the metrics and one structured log line per request."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            elapsed = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", "unmatched")
            self.metrics.child(self.metrics.latency, route, scope["method"]).observe(elapsed)
            if log.isEnabledFor(logging.INFO):
                log.handle(
                    logs.request_record(
                        log,
                        {
                            "method": scope["method"],
                            "route": route,
                            "status": status,
                            "ms": round(elapsed * 1000, 2),
                        },
                    )
                )


# ---------------------------------------------------------------------------------------
# Authentication (module level: FastAPI resolves annotations against module globals)
# ---------------------------------------------------------------------------------------


def _same(given: str | None, expected: str) -> bool:
    # bytes: a header may carry non-ASCII characters, which compare_digest refuses in a str
    return bool(given) and hmac.compare_digest(str(given).encode(), expected.encode())


def _throttled(request: Request) -> str:
    """The client's address, after refusing it (429) while its wrong keys are throttled."""
    address = request.client.host if request.client else "unknown"
    wait = request.app.state.operator_failures.wait_ms(address)
    if wait:
        raise too_many(
            "too_many_failures",
            "too many requests with a wrong key from this address; wait before trying again",
            wait,
        )
    return address


async def operator_key(request: Request, x_api_key: Annotated[str | None, Header()] = None) -> None:
    address = _throttled(request)
    if not _same(x_api_key, request.app.state.settings.operator_api_key):
        request.app.state.operator_failures.take(address)
        raise ApiError(401, "invalid_api_key", "operator endpoints need a valid X-API-Key header")


async def metrics_access(
    request: Request,
    x_api_key: Annotated[str | None, Header()] = None,
    authorization: Annotated[str | None, Header()] = None,
) -> None:
    """``/metrics``: the operator key, or the ``metrics_token`` setting as a bearer token (a
    scraper need not hold the operator key); wrong ones are throttled alike."""
    settings = request.app.state.settings
    address = _throttled(request)
    if _same(x_api_key, settings.operator_api_key):
        return
    bearer = authorization[7:].strip() if authorization and authorization[:7] == "Bearer " else ""
    if settings.metrics_token and _same(bearer, settings.metrics_token):
        return
    request.app.state.operator_failures.take(address)
    raise ApiError(
        401,
        "invalid_api_key",
        "metrics need the operator's X-API-Key header or 'Authorization: Bearer <metrics token>'",
    )


async def player_claims(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> tokens.Claims:
    state = request.app.state
    if not authorization or not authorization.startswith("Bearer "):
        raise ApiError(
            401, "missing_token", "send the session token as 'Authorization: Bearer <token>'"
        )
    try:
        claims = tokens.verify(
            state.settings.secret_key, authorization[7:].strip(), state.clock.now_ms()
        )
    except tokens.TokenError as exc:
        raise ApiError(401, exc.code, exc.message) from None
    state.sessions.check(claims.player_id, claims.session_id)
    if not state.limiter.take(claims.player_id):
        raise too_many(
            "rate_limited",
            "too many requests; slow down",
            state.limiter.wait_ms(claims.player_id),
        )
    return claims


PlayerClaims = Annotated[tokens.Claims, Depends(player_claims)]


ModelT = TypeVar("ModelT", bound=BaseModel)


# The round's steps (spin, free spin, gamble, collect) are the requests a player sends most: they
# read their headers and JSON body themselves, where FastAPI's dependency and body resolution
# would cost a tenth of the request's CPU. Same checks, same errors, same OpenAPI description.


def documented(model: type[BaseModel], bet: dict[str, Any] | None = None) -> dict[str, Any]:
    """The OpenAPI entries of a round step: its headers and its JSON body (its ``bet`` field
    described by ``bet``, the schema of the bets of the titles served)."""
    header = {"in": "header", "required": False, "schema": {"type": "string"}}
    schema = model.model_json_schema()
    if bet is not None:
        schema = with_bet(schema, bet)
    return {
        "parameters": [
            {"name": "authorization", **header},
            {"name": "idempotency-key", **header},
        ],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": schema}},
        },
    }


def with_bet(schema: dict[str, Any], bet: dict[str, Any]) -> dict[str, Any]:
    """``schema`` of a request body with its ``bet`` property described by ``bet`` (the
    ``$defs`` of the bet's models moved up to the body's)."""
    bet = dict(bet)
    defs = {**schema.get("$defs", {}), **bet.pop("$defs", {})}
    described = {**schema["properties"]["bet"], **bet}
    described.pop("type", None)
    described.pop("additionalProperties", None)
    out = {**schema, "properties": {**schema["properties"], "bet": described}}
    if defs:
        out["$defs"] = defs
    return out


async def step_request(
    request: Request, model: type[ModelT]
) -> tuple[tokens.Claims, ModelT, str | None]:
    """A round step's player (from its token), body and Idempotency-Key."""
    claims = await player_claims(request, request.headers.get("authorization"))
    raw = await request.body()
    inputs.check_media_type(request.headers.get("content-type"), raw)
    try:
        body = model.model_validate(inputs.read_json(raw))
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from None
    return claims, body, request.headers.get("idempotency-key")


# Threads that serve history pages (see create_app).
READER_THREADS = 2


class JsonBodyRoute(APIRoute):
    """FastAPI's route, its JSON body (if it takes one) read by `inputs.read_json` instead of
    the standard parser, and refused with 415 unless declared JSON: the same checks as the
    round steps' bodies."""

    def get_route_handler(self) -> Callable[[Request], Any]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def read_strictly(request: Request) -> Response:
            raw = await request.body()
            inputs.check_media_type(request.headers.get("content-type"), raw)
            if raw:
                request._json = inputs.read_json(raw)  # what FastAPI's request.json() returns
            return await handler(request)

        return read_strictly


# The served app's young-generation collection threshold (see the lifespan).
YOUNG_COLLECTION_EVERY = 20_000

IdempotencyKey = Annotated[str | None, Header(alias="idempotency-key")]


# ---------------------------------------------------------------------------------------
# The application
# ---------------------------------------------------------------------------------------


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
    clock = clock or SystemClock()
    try:
        titles = TitleRegistry.load(settings.title_paths())
        markets = load_markets(
            Path(settings.markets_dir) if settings.markets_dir else MARKETS_DIR, titles.models()
        )
    except (TitleError, MarketError) as exc:
        raise SystemExit(f"error: {exc}") from None
    bet_doc = bet_schema([title.bet_body for title in titles.values()])
    db = database or Database(settings.connect_url())
    db.migrate()
    metrics = Metrics()
    service = GameService(db, settings, markets, clock, metrics, rng, titles)
    service.prepare_house_accounts()
    # per player, on the injected clock like every other throttle
    limiter = Bucket(clock, settings.rate_limit_per_second, settings.rate_limit_burst)
    live_sessions = LiveSessions(db, clock, settings.session_recheck_ms)
    operator_failures = Bucket(
        clock, settings.operator_failures_per_second, settings.operator_failures_burst
    )
    demo_requests = Bucket(clock, settings.demo_sessions_per_second, settings.demo_sessions_burst)
    for name in settings.generated:
        log.warning("no %s configured: using a random one for this process", name)
    demo_player = service.ensure_demo_player() if settings.demo else None

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        task = None
        if run_resolver:

            async def resolver() -> None:
                while True:
                    try:
                        await asyncio.to_thread(service.resolve_stale_rounds)
                    except Exception:  # keep the job alive; the failure is logged
                        log.exception("resolving stale rounds failed")
                    await asyncio.sleep(settings.resolver_interval_seconds)

            task = asyncio.create_task(resolver())
        checkpointer = db.checkpointer()
        if checkpointer is not None:
            checkpointer.start()
        if getattr(_app.state, "freeze_startup_objects", False):
            # The objects made so far (the games' models, the compiled evaluators, the app)
            # live as long as the process: taken out of the collector's reach, a full
            # collection no longer walks them all, pausing every request in flight.
            gc.collect()
            gc.freeze()
            # A young collection every 20,000 allocations instead of 700: a request makes a
            # few thousand short-lived objects (rows, JSON, the round's records), nearly all
            # freed by reference counting, so collecting them 700 at a time spends CPU on
            # every request for nearly nothing.
            _young, older, oldest = gc.get_threshold()
            gc.set_threshold(YOUNG_COLLECTION_EVERY, older, oldest)
        yield
        if checkpointer is not None:
            checkpointer.stop()
        if task is not None:
            task.cancel()
        db.dispose()

    app = FastAPI(
        title="reelsmith game server",
        version="0.1.0",
        description="Players, wallet, rounds, history and recovery for the titles served: "
        + ", ".join(title.name for title in titles.values())
        + ".",
        lifespan=lifespan,
    )
    app.router.route_class = JsonBodyRoute
    app.state.service = service
    app.state.settings = settings
    app.state.clock = clock
    app.state.limiter = limiter
    app.state.sessions = live_sessions
    app.state.operator_failures = operator_failures
    app.state.demo_player = demo_player

    # -- errors --------------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> Response:
        headers = {}
        if exc.status == 429 and "retry_after_ms" in exc.extra:
            headers["Retry-After"] = str(max(1, int(exc.extra["retry_after_ms"]) // 1000))  # type: ignore[call-overload]
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> Response:
        problems = []
        for error in exc.errors()[:5]:
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
        return JSONResponse(
            {"code": "invalid_request", "message": "; ".join(problems)}, status_code=400
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse({"code": code, "message": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception) -> Response:
        log.exception("internal error")
        return JSONResponse(
            {
                "code": "internal_error",
                "message": "an internal error occurred; the request was not applied",
            },
            status_code=500,
        )

    step_routes: dict[str, Any] = {}
    app.add_middleware(StepRouter, routes=step_routes, handlers=app.exception_handlers)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(RefuseNulPath)
    app.add_middleware(SecurityHeaders, frame_ancestors=settings.frame_ancestors)
    app.add_middleware(Observe, metrics=metrics)

    operator = Depends(operator_key)

    # The player's endpoints run the service on the event loop itself, their writes in commit
    # groups (see CommitGroup): the write calls of one pass of the loop share a transaction
    # and its commit. A spin's statements take microseconds each on SQLite, and on PostgreSQL
    # they travel in two batches; handing every request to a thread instead only adds the
    # cost of the hand-off and, on PostgreSQL, a commit, a flush of the write-ahead log and
    # three round trips per request.
    group = CommitGroup(db)
    app.state.commit_group = group
    # Threads for the reads that are too long for the event loop (history pages). Few: they
    # share Python's global lock with the loop; a burst of pages queues here, not in front of
    # the spins, nor in the loop's default executor (where commit groups wait for SQLite's
    # writer lock).
    readers = ThreadPoolExecutor(max_workers=READER_THREADS, thread_name_prefix="reelsmith-reader")
    app.state.readers = readers

    async def call(function: Callable[..., Any], *args: Any, writes: bool = False) -> Any:
        return await group.run(function, *args, writes=writes)

    def reply(result: tuple[int, dict[str, Any]]) -> Response:
        status, body = result
        if isinstance(body, Rendered):  # its text is written already
            return Response(body.text.encode(), status, media_type="application/json")
        return FastJSONResponse(body, status_code=status)

    def fingerprint(request: Request, body: BaseModel | None) -> str:
        return request_hash(
            request.method, request.url.path, None if body is None else body.model_dump()
        )

    # -- service endpoints ---------------------------------------------------------------
    client = client_build(WEB_DIR, settings.web_delivery) if WEB_DIR.is_dir() else None
    app.state.client = client

    @app.get("/", include_in_schema=False)
    def index(request: Request) -> Response:
        if client is None:
            return RedirectResponse("/docs")
        return client.page().response(request.headers)

    if client is not None:
        app.mount("/web", ClientFiles(client), name="web")

    @app.get("/healthz", tags=["service"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get(
        "/metrics",
        tags=["service"],
        response_class=Response,
        dependencies=[Depends(metrics_access)],
    )
    def prometheus() -> Response:
        return Response(metrics.render(), media_type="text/plain; version=0.0.4")

    # -- operator ------------------------------------------------------------------
    @app.post("/operator/players", tags=["operator"], dependencies=[operator], status_code=201)
    def create_player(body: CreatePlayer, request: Request, key: IdempotencyKey = None) -> Response:
        return reply(
            service.create_player(
                body.external_ref, body.currency, body.market, key, fingerprint(request, body)
            )
        )

    @app.get("/operator/players/{player_id}", tags=["operator"], dependencies=[operator])
    def get_player(player_id: str) -> dict[str, Any]:
        return service.get_player(player_id)

    @app.post("/operator/players/{player_id}/deposit", tags=["operator"], dependencies=[operator])
    def deposit(
        player_id: str, body: Transfer, request: Request, key: IdempotencyKey = None
    ) -> Response:
        return reply(
            service.transfer(
                player_id,
                "deposit",
                body.model_dump(exclude_none=True),
                key,
                fingerprint(request, body),
            )
        )

    @app.post("/operator/players/{player_id}/withdraw", tags=["operator"], dependencies=[operator])
    def withdraw(
        player_id: str, body: Transfer, request: Request, key: IdempotencyKey = None
    ) -> Response:
        return reply(
            service.transfer(
                player_id,
                "withdrawal",
                body.model_dump(exclude_none=True),
                key,
                fingerprint(request, body),
            )
        )

    @app.post(
        "/operator/players/{player_id}/sessions",
        tags=["operator"],
        dependencies=[operator],
        status_code=201,
    )
    def new_session(player_id: str) -> Response:
        return JSONResponse(service.issue_session(player_id), status_code=201)

    @app.post(
        "/operator/players/{player_id}/sessions/revoke", tags=["operator"], dependencies=[operator]
    )
    def revoke_player_sessions(player_id: str) -> dict[str, Any]:
        """End every live session of the player: its tokens are refused from now on."""
        result = service.revoke_sessions(player_id=player_id)
        live_sessions.forget(result["revoked"])
        return result

    @app.post("/operator/sessions/{session_id}/revoke", tags=["operator"], dependencies=[operator])
    def revoke_session(session_id: str) -> dict[str, Any]:
        """End one session: its token is refused from now on."""
        result = service.revoke_sessions(session_id=session_id)
        live_sessions.forget(result["revoked"])
        return result

    @app.post("/operator/players/{player_id}/disable", tags=["operator"], dependencies=[operator])
    def disable_player(player_id: str) -> dict[str, Any]:
        """Disable the player: every session ended, no new session, no round; the operator
        can still move its money (a withdrawal pays it out)."""
        result = service.set_disabled(player_id, True)
        live_sessions.forget(result["revoked"])
        return result

    @app.post("/operator/players/{player_id}/enable", tags=["operator"], dependencies=[operator])
    def enable_player(player_id: str) -> dict[str, Any]:
        return service.set_disabled(player_id, False)

    @app.get("/operator/rounds/{round_id}", tags=["operator"], dependencies=[operator])
    def operator_round(round_id: str) -> dict[str, Any]:
        return service.operator_round(round_id)

    @app.post("/operator/rounds/{round_id}/replay", tags=["operator"], dependencies=[operator])
    def replay_round(round_id: str) -> dict[str, Any]:
        return service.replay_round(round_id)

    @app.post("/operator/jobs/resolve-stale-rounds", tags=["operator"], dependencies=[operator])
    def resolve_now() -> dict[str, Any]:
        return {"resolved": service.resolve_stale_rounds()}

    @app.get("/operator/ledger/verify", tags=["operator"], dependencies=[operator])
    def verify_ledger() -> dict[str, Any]:
        report = service.verify_ledger()
        return {
            "ok": report.ok,
            "transactions": report.transactions,
            "unbalanced_transactions": report.unbalanced_transactions,
            "wallet_mismatches": report.wallet_mismatches,
            "negative_wallets": report.negative_wallets,
        }

    @app.get("/operator/audit/verify", tags=["operator"], dependencies=[operator])
    def verify_audit() -> dict[str, Any]:
        report = service.verify_audit()
        return {
            "ok": report.ok,
            "players": report.players,
            "entries": report.entries,
            "problems": report.problems[:100],
        }

    # -- demo ----------------------------------------------------------------------
    @app.post("/demo/session", tags=["demo"])
    def demo_session(request: Request) -> Response:
        """A session of the demo player (``--demo``), shared: the live one is handed out
        again while more than half its life is left. Throttled per client address."""
        if demo_player is None:
            raise ApiError(404, "not_found", "demo sessions are off on this server")
        address = request.client.host if request.client else "unknown"
        if not demo_requests.take(address):
            raise too_many(
                "rate_limited",
                "too many demo sessions asked from this address; wait",
                demo_requests.wait_ms(address),
            )
        return JSONResponse(service.demo_session(demo_player), status_code=201)

    # -- player --------------------------------------------------------------------
    @app.post("/api/session/logout", tags=["player"])
    async def logout(claims: PlayerClaims) -> dict[str, Any]:
        """End this session: its token is refused from now on (a shared demo session is not
        ended by one visitor: it ends at its expiry)."""
        if claims.player_id == demo_player:
            raise ApiError(
                403, "demo_session_shared", "the demo session is shared; it ends at its expiry"
            )
        result = service.revoke_sessions(
            player_id=claims.player_id, session_id=claims.session_id, by="player"
        )
        live_sessions.forget(result["revoked"])
        return {"session_id": claims.session_id, "revoked": True}

    @app.get("/api/me", tags=["player"])
    async def me(claims: PlayerClaims) -> dict[str, Any]:
        data: dict[str, Any] = await call(service.get_player, claims.player_id, claims.session_id)
        data["market"] = service.market(data["market"]).to_json()
        data["session_id"] = claims.session_id
        data["dev_mode"] = settings.dev_mode
        return data

    @app.get("/api/games", tags=["player"])
    async def games(claims: PlayerClaims) -> dict[str, Any]:
        market = service.market((await call(service.get_player, claims.player_id))["market"])
        return {
            "games": [
                {
                    "id": game,
                    "name": service.title(game).name,
                    "variant": rules.variant,
                    "client": service.title(game).client,
                }
                for game, rules in market.games.items()
            ]
        }

    @app.get("/api/games/{game}/rules", tags=["player"])
    async def game_rules(
        game: str,
        claims: PlayerClaims,
        lang: Annotated[str, Query(max_length=35, description="The page's language")] = "en",
    ) -> dict[str, Any]:
        title = service.title(game)
        market = service.market((await call(service.get_player, claims.player_id))["market"])
        try:
            return title.rules(market, lang, settings.resolve_after_seconds)
        except MarketError as exc:
            raise ApiError(403, "game_not_offered", str(exc)) from None
        except LanguageError as exc:
            raise ApiError(400, "unknown_language", str(exc)) from None

    @app.get("/api/games/{game}/state", tags=["player"])
    async def game_state(
        game: str,
        claims: PlayerClaims,
        bet: Annotated[
            str | None,
            Query(max_length=256, description="The bet as JSON, to see its pots and meter"),
        ] = None,
    ) -> dict[str, Any]:
        bet_raw = None
        if bet is not None:
            try:
                bet_raw = inputs.read_json(bet)
            except ApiError as exc:
                raise ApiError(400, "invalid_bet", f"bet: {exc.message}") from None
            if not isinstance(bet_raw, dict):
                raise ApiError(400, "invalid_bet", "bet must be a JSON object")
        return await call(service.game_state, claims.player_id, game, bet_raw)  # type: ignore[no-any-return]

    @app.post(
        "/api/games/{game}/spin", tags=["player"], openapi_extra=documented(SpinRequest, bet_doc)
    )
    async def spin(game: str, request: Request) -> Response:
        claims, body, key = await step_request(request, SpinRequest)
        return reply(
            await call(
                service.spin,
                claims.player_id,
                claims.session_id,
                game,
                body.model_dump(),
                key,
                fingerprint(request, body),
                writes=True,
            )
        )

    async def act(
        request: Request,
        game: str,
        round_id: str,
        model: type[ActionRequest] | type[GambleRequest],
        action: Callable[[Any], str],
    ) -> Response:
        """A step of an open round: ``action`` names it from the request's body."""
        claims, body, key = await step_request(request, model)
        return reply(
            await call(
                service.act,
                claims.player_id,
                claims.session_id,
                game,
                round_id,
                action(body),
                body.model_dump(),
                key,
                fingerprint(request, body),
                writes=True,
            )
        )

    @app.post(
        "/api/games/{game}/rounds/{round_id}/free-spin",
        tags=["player"],
        openapi_extra=documented(ActionRequest),
    )
    async def free_spin(game: str, round_id: str, request: Request) -> Response:
        return await act(request, game, round_id, ActionRequest, lambda _body: "free_spin")

    @app.post(
        "/api/games/{game}/rounds/{round_id}/gamble",
        tags=["player"],
        openapi_extra=documented(GambleRequest),
    )
    async def gamble(game: str, round_id: str, request: Request) -> Response:
        return await act(
            request, game, round_id, GambleRequest, lambda body: f"gamble {body.choice}"
        )

    @app.post(
        "/api/games/{game}/rounds/{round_id}/collect",
        tags=["player"],
        openapi_extra=documented(ActionRequest),
    )
    async def collect(game: str, round_id: str, request: Request) -> Response:
        return await act(request, game, round_id, ActionRequest, lambda _body: "collect")

    @app.post("/api/games/{game}/autoplay", tags=["player"], status_code=201)
    async def autoplay(
        game: str,
        body: AutoplayRequest,
        request: Request,
        claims: PlayerClaims,
        key: IdempotencyKey = None,
    ) -> Response:
        return reply(
            await call(
                service.start_autoplay,
                claims.player_id,
                game,
                body.model_dump(),
                key,
                fingerprint(request, body),
                claims.session_id,
                writes=True,
            )
        )

    @app.post("/api/autoplay/{autoplay_id}/stop", tags=["player"])
    async def stop_autoplay(
        autoplay_id: str, request: Request, claims: PlayerClaims, key: IdempotencyKey = None
    ) -> Response:
        return reply(
            await call(
                service.stop_autoplay,
                claims.player_id,
                autoplay_id,
                key,
                fingerprint(request, None),
                claims.session_id,
                writes=True,
            )
        )

    describe_bets(app, bet_doc)

    for route in app.routes:
        path = getattr(route, "path", "")
        if path.startswith("/api/games/{game}/") and path.endswith(
            ("/spin", "/free-spin", "/gamble", "/collect")
        ):
            step_routes[path] = route

    @app.get("/api/history/rounds", tags=["player"], response_class=Response)
    async def history(
        claims: PlayerClaims,
        game: Annotated[str | None, Query(max_length=32)] = None,
        limit: Annotated[int, Query()] = 10,
    ) -> Response:
        # off the event loop, on the readers' threads: a page of rounds is megabytes of
        # views, which the spins of other players must not wait behind
        loop = asyncio.get_running_loop()
        page = await loop.run_in_executor(readers, service.history, claims.player_id, game, limit)
        return reply((200, page))

    @app.get("/api/history/rounds/{round_id}", tags=["player"])
    async def history_round(round_id: str, claims: PlayerClaims) -> dict[str, Any]:
        return await call(service.player_round, claims.player_id, round_id)  # type: ignore[no-any-return]

    return app


def describe_bets(app: FastAPI, bet: dict[str, Any]) -> None:
    """The OpenAPI document with the autoplay request's ``bet`` described as the bets of the
    titles served (the spin's is described by its route)."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = plain()
            schemas = spec.get("components", {}).get("schemas", {})
            if "AutoplayRequest" in schemas:
                schemas["AutoplayRequest"] = with_bet(schemas["AutoplayRequest"], bet)
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


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
