"""The operator's reports over HTTP (behind the API key): the daily report as JSON or CSV, and
the RTP monitor. See `reelsmith.server.services.reports` for what each figure is."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from reelsmith.server.auth import operator_key
from reelsmith.server.errors import InvalidInputError
from reelsmith.server.responses import JsonBodyRoute
from reelsmith.server.service import GameService
from reelsmith.server.services import reports

FromDay = Annotated[
    str, Query(alias="from", max_length=32, description="The first day, YYYY-MM-DD (UTC)")
]
ToDay = Annotated[
    str | None,
    Query(alias="to", max_length=32, description="The last day, included (default: from)"),
]


def router(service: GameService) -> APIRouter:
    routes = APIRouter(
        route_class=JsonBodyRoute, tags=["operator"], dependencies=[Depends(operator_key)]
    )
    context = service.context

    def build(start: str, end: str | None) -> reports.Report:
        try:
            first, last = reports.period(start, end)
        except reports.ReportError as exc:
            raise InvalidInputError("invalid_date", str(exc)) from None
        with context.db.read() as connection:
            return reports.daily_report(connection, context.titles, first, last)

    @routes.get("/operator/reports/daily", response_model=None)
    def daily(
        start: FromDay,
        end: ToDay = None,
        format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
    ) -> dict[str, Any] | Response:
        """Per day, title, variant, model hash, market and currency: rounds, bets, wins, GGR,
        jackpot contributions and wins, free-round wins, and the realised RTP beside the
        theoretical with its 99% band; ``format=csv`` gives the day rows as CSV."""
        report = build(start, end)
        if format == "csv":
            return Response(
                report.to_csv(),
                media_type="text/csv; charset=utf-8",
                headers={
                    "Content-Disposition": f'attachment; filename="reelsmith-{report.start}'
                    f'-{report.end}.csv"'
                },
            )
        return report.to_json()

    @routes.get("/operator/reports/rtp-monitor")
    def rtp_monitor(start: FromDay, end: ToDay = None) -> dict[str, Any]:
        """``ok`` false when a title's realised RTP over the period left its 99% band; the
        titles that did are listed in ``flagged``."""
        return reports.monitor(build(start, end))

    return routes
