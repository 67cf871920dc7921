"""The operator's routes (behind the API key): players and their money, sessions, rounds
recalled and replayed, the resolver run now, the ledger and audit log verified."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from reelsmith.server import inputs
from reelsmith.server.auth import operator_key
from reelsmith.server.errors import InvalidInputError
from reelsmith.server.responses import IdempotencyKey, JsonBodyRoute, fingerprint, reply
from reelsmith.server.schemas import CreatePlayer, Transfer
from reelsmith.server.service import GameService
from reelsmith.server.sessions import LiveSessions


def router(service: GameService, live_sessions: LiveSessions) -> APIRouter:
    routes = APIRouter(
        route_class=JsonBodyRoute, tags=["operator"], dependencies=[Depends(operator_key)]
    )
    players = service.players

    @routes.post("/operator/players", status_code=201)
    def create_player(body: CreatePlayer, request: Request, key: IdempotencyKey = None) -> Response:
        return reply(
            players.create_player(
                body.external_ref, body.currency, body.market, key, fingerprint(request, body)
            )
        )

    @routes.get("/operator/players/{player_id}")
    def get_player(player_id: str) -> dict[str, Any]:
        return players.get_player(player_id)

    def transfer_route(kind: str) -> Callable[..., Response]:
        """The handler moving money of ``kind`` (a deposit or a withdrawal) for a player."""

        def handler(
            player_id: str, body: Transfer, request: Request, key: IdempotencyKey = None
        ) -> Response:
            return reply(
                players.transfer(
                    player_id,
                    kind,
                    body.model_dump(exclude_none=True),
                    key,
                    fingerprint(request, body),
                )
            )

        return handler

    for action, kind in (("deposit", "deposit"), ("withdraw", "withdrawal")):
        routes.add_api_route(
            f"/operator/players/{{player_id}}/{action}",
            transfer_route(kind),
            methods=["POST"],
            name=action,
        )

    @routes.post(
        "/operator/players/{player_id}/sessions",
        status_code=201,
        openapi_extra={
            "requestBody": {
                "required": False,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                "operator_token": {
                                    "type": "string",
                                    "maxLength": 1024,
                                    "description": "The operator's token for the player: needed"
                                    " with the seamless wallet, refused with the transfer"
                                    " wallet (docs/operator-integration.md)",
                                }
                            },
                        }
                    }
                },
            }
        },
    )
    async def new_session(player_id: str, request: Request) -> Response:
        """A session; with the seamless wallet the body gives the operator's token for the
        player: ``{"operator_token": "..."}``."""
        raw = await request.body()
        token = None
        if raw.strip():
            body = inputs.read_json(raw)
            if not isinstance(body, dict) or set(body) - {"operator_token"}:
                raise InvalidInputError(
                    "invalid_request", 'the body is {"operator_token": "..."} or nothing'
                )
            token = body.get("operator_token")
            if token is not None and not isinstance(token, str):
                raise InvalidInputError("invalid_operator_token", "operator_token is a text")
        issued = await run_in_threadpool(players.issue_session, player_id, token)
        return JSONResponse(issued, status_code=201)

    @routes.post("/operator/players/{player_id}/sessions/revoke")
    def revoke_player_sessions(player_id: str) -> dict[str, Any]:
        """End every live session of the player: its tokens are refused from now on."""
        result = players.revoke_sessions(player_id=player_id)
        live_sessions.forget(result["revoked"])
        return result

    @routes.post("/operator/sessions/{session_id}/revoke")
    def revoke_session(session_id: str) -> dict[str, Any]:
        """End one session: its token is refused from now on."""
        result = players.revoke_sessions(session_id=session_id)
        live_sessions.forget(result["revoked"])
        return result

    @routes.post("/operator/players/{player_id}/disable")
    def disable_player(player_id: str) -> dict[str, Any]:
        """Disable the player: every session ended, no new session, no round; the operator
        can still move its money (a withdrawal pays it out)."""
        result = players.set_disabled(player_id, True)
        live_sessions.forget(result["revoked"])
        return result

    @routes.post("/operator/players/{player_id}/enable")
    def enable_player(player_id: str) -> dict[str, Any]:
        return players.set_disabled(player_id, False)

    @routes.get("/operator/rounds/set-aside")
    def set_aside_rounds() -> dict[str, Any]:
        """The open rounds the resolver failed to finish, oldest first: each with its
        failures, the last error and when it is tried again."""
        return {"rounds": service.set_aside_rounds()}

    @routes.get("/operator/rounds/{round_id}")
    def operator_round(round_id: str) -> dict[str, Any]:
        return service.recall.operator_round(round_id)

    @routes.post("/operator/rounds/{round_id}/replay")
    def replay_round(round_id: str) -> dict[str, Any]:
        return service.recall.replay_round(round_id)

    @routes.post("/operator/jobs/resolve-stale-rounds")
    def resolve_now() -> dict[str, Any]:
        """A pass of the resolver now: the rounds it resolved, those it set aside (each
        failure is the round's alone: the pass goes on) and those it left for a later pass
        (the database was busy)."""
        return service.resolver.resolve_stale_rounds().to_json()

    @routes.post("/operator/jobs/purge-refusals")
    def purge_refusals_now() -> dict[str, Any]:
        """Delete the refusals kept under idempotency keys past their window now (the
        resolver's job does it at each pass): how many."""
        return {"purged": service.idempotency.purge_refusals()}

    @routes.get("/operator/ledger/verify")
    def verify_ledger() -> dict[str, Any]:
        report = service.verify_ledger()
        return {
            "ok": report.ok,
            "transactions": report.transactions,
            "unbalanced_transactions": report.unbalanced_transactions,
            "wallet_mismatches": report.wallet_mismatches,
            "negative_wallets": report.negative_wallets,
        }

    @routes.get("/operator/audit/payouts")
    def verify_payouts() -> dict[str, Any]:
        """Every round's payout re-derived from its recorded draws at its own variant and
        price, against what the ledger moved for it (the first 100 differences listed)."""
        return service.verify_payouts().to_json(limit=100)

    @routes.get("/operator/audit/verify")
    def verify_audit() -> dict[str, Any]:
        report = service.verify_audit()
        return {
            "ok": report.ok,
            "players": report.players,
            "entries": report.entries,
            "problems": report.problems[:100],
        }

    return routes
