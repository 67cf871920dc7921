"""The request bodies, as the OpenAPI document describes them, the description of a bet (the
schema of the bets of the titles served) and the game list's answer."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from reelsmith.mechanics import CATALOGUE, MECHANICS


class Strict(BaseModel):
    """A request body: unknown fields refused. Its JSON was read by `inputs.read_json`, which
    refuses NUL characters, lone surrogates, duplicate keys, deep nesting and huge integers."""

    model_config = ConfigDict(extra="forbid")


class CreatePlayer(Strict):
    external_ref: str = Field(
        min_length=1,
        max_length=512,  # the normal form C the server keeps is at most 128 characters
        description="The operator's own id for the player: 1 to 128 characters once in"
        " Unicode normal form C (stored so), no control, format or separator character",
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
        description="For a title with a gamble: false declines the gamble for this round, so a "
        "win is collected with the spin (or when its free spins end) and the round needs no "
        "collect request. A title without a gamble ignores it.",
    )
    forced_draws: list[StrictInt] | None = Field(
        default=None, max_length=200, description="Dev mode only"
    )
    mode: str | None = Field(
        default=None,
        max_length=32,
        description="A bet mode of the title (its [modes]: an ante, a bought feature) that the "
        "player's market offers; the round costs the bet times the mode's price. None: the base "
        "game.",
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


class LadderInfo(BaseModel):
    """What the ladder script draws a ladder title with beyond its rules page."""

    bonus_symbol: str = Field(
        description="The symbol that starts the free spins and fills the collection meter"
    )
    gem_symbol: str = Field(description="The symbol that raises the pot above its reel")
    spots: int = Field(description="The collection meter's spots")
    meter_feed: int = Field(
        description="A main-game spin with exactly this many bonus symbols fills one spot"
    )


#: The web client's scripts: the one every title plays with, and each a mechanic asks for.
ClientScript = Literal[  # type: ignore[valid-type]
    tuple(dict.fromkeys([CATALOGUE, *(m.client for m in MECHANICS if m.client is not None)]))
]


class GameInfo(BaseModel):
    """A title the player's market offers."""

    id: str
    name: str
    variant: str = Field(description="The RTP variant the player's market plays")
    client: ClientScript = Field(  # type: ignore[valid-type]
        description="The web client's script for the title: the one a mechanic of the title "
        "asks for (ladder: the free-spins ladder with local pots), else catalogue. One script "
        "draws every title it plays from the rules page; its art is chosen by its id."
    )
    ladder: LadderInfo | None = Field(
        default=None, description="Only a ladder title's: its symbols and meter"
    )
    modes: list[dict[str, Any]] | None = Field(
        default=None,
        description="Only a title with bet modes: those the player's market offers, each its "
        "name, kind (ante, buy) and price in bets; an ante also its reel_set, the reel set "
        "(of the rules page's reel_symbols) its base spins spin",
    )


class GameList(BaseModel):
    games: list[GameInfo]


def documented(model: type[BaseModel], bet: dict[str, Any] | None = None) -> dict[str, Any]:
    """The OpenAPI entries of a round step, which reads its own headers and body: its headers
    and its JSON body (its ``bet`` field described by ``bet``, the schema of the bets of the
    titles served)."""
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
