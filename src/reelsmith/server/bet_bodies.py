"""The bets a player sends, one pydantic model per kind of bet: what the OpenAPI document says a
bet looks like, and the first reading of a bet body before its title checks it for the market.

A title names its model (:attr:`reelsmith.server.titles.Title.bet_body`); the spin and autoplay
requests document the bet as any of the models of the titles served. A body is read strictly,
as every amount is: a bet size is a decimal string (a JSON number refused by name), a count a
JSON integer, an unknown field refused, and every refusal names the field it is about.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictInt,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
)

from reelsmith.engine.bets import BetError
from reelsmith.server.inputs import DECIMAL, decimal_text


def _decimal(value: Any, info: ValidationInfo) -> Decimal:
    return decimal_text(value, info.field_name or "amount")


#: A bet size: a decimal string such as "0.01" (the form every amount of the API takes).
DecimalText = Annotated[
    Decimal,
    BeforeValidator(_decimal),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "pattern": f"^{DECIMAL.pattern}$", "examples": ["1.00"]}),
]


class BetBody(BaseModel):
    """A bet as the player sends it: unknown fields refused."""

    model_config = ConfigDict(extra="forbid")


class CoinBetBody(BetBody):
    """A coin bet: the first ``lines`` paylines enabled, ``coins_per_line`` coins on each, every
    coin worth ``coin_size`` (a lines title, every catalogue title among them)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}]}
    )

    lines: StrictInt = Field(ge=1, description="The paylines enabled, from payline 1")
    coins_per_line: StrictInt = Field(ge=1, description="Coins bet on each enabled payline")
    coin_size: DecimalText = Field(description="A coin's value, one of the market's coin sizes")


class LadderBetBody(BetBody):
    """A bet from a title's bet ladder (a title that offers fixed stakes): the whole stake of
    a spin."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"bet": "1.00"}]})

    bet: DecimalText = Field(description="The stake, one of the market's bet sizes")


BetT = TypeVar("BetT", bound=BetBody)


def read_bet(model: type[BetT], raw: Mapping[str, Any]) -> BetT:
    """``raw`` read as a ``model`` bet; a BetError naming the first field that is wrong."""
    fields = list(model.model_fields)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise BetError(_reason(exc.errors()[0], fields)) from None


def _reason(error: Any, fields: list[str]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ())) or "bet"
    kind = error.get("type", "")
    if kind == "missing":
        return f"the bet needs {', '.join(fields)}; {where} is missing"
    if kind == "extra_forbidden":
        return f"the bet has no field {where!r}; its fields are {', '.join(fields)}"
    if kind == "model_type":
        return f"the bet must be an object with {', '.join(fields)}"
    if kind == "value_error":  # the validator's own message names the field
        return str(error["ctx"]["error"])
    if kind.startswith("int"):
        return f"{where} must be a whole number, got {error.get('input')!r}"
    if kind == "greater_than_equal":
        return f"{where} must be at least {error['ctx']['ge']}, got {error.get('input')!r}"
    return f"{where}: {error.get('msg', 'invalid')}"


def bet_schema(models: list[type[BetBody]]) -> dict[str, Any]:
    """The JSON schema of a bet field that takes any of ``models`` (the titles served)."""
    distinct = list(dict.fromkeys(models))
    schemas = [m.model_json_schema() for m in distinct]
    if len(schemas) == 1:
        return schemas[0]
    return {"anyOf": schemas, "description": "The bet of the game in the path"}
