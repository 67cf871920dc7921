"""Domain errors to HTTP in one table: every kind of refusal has its status, the most
specific kind first, and an answer with its code and message."""

from __future__ import annotations

import asyncio
import json

import pytest

from reelsmith.server import errors
from reelsmith.server.http_errors import STATUS, refusal_response, status_of


def kinds() -> list[type[errors.DomainError]]:
    return [
        value
        for value in vars(errors).values()
        if isinstance(value, type)
        and issubclass(value, errors.DomainError)
        and value is not errors.DomainError
    ]


def test_every_kind_of_refusal_has_a_status():
    assert {kind for kind, _status in STATUS} == set(kinds())


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        (errors.InvalidInputError, 400),
        (errors.UnsupportedMediaError, 415),
        (errors.BodyTooLargeError, 413),
        (errors.UnauthenticatedError, 401),
        (errors.InsufficientBalanceError, 402),
        (errors.NotAllowedError, 403),
        (errors.NotFoundError, 404),
        (errors.ConflictError, 409),
        (errors.FaultError, 500),
    ],
)
def test_the_status_of_each_kind(kind, status):
    assert status_of(kind("some_code", "a message")) == status


def test_a_refusal_without_a_kind_is_a_programming_error():
    with pytest.raises(TypeError, match="no HTTP status"):
        status_of(errors.DomainError("bare", "no kind"))


def test_a_retry_later_answers_with_retry_after_in_whole_seconds():
    refusal = errors.RetryLaterError("min_round_duration", "wait", retry_after_ms=2500)
    response = asyncio.run(refusal_response(None, refusal))  # type: ignore[arg-type]
    assert response.status_code == 429
    assert response.headers["retry-after"] == "2"
    assert json.loads(response.body) == {
        "code": "min_round_duration",
        "message": "wait",
        "retry_after_ms": 2500,
    }


def test_remembered_refusals_are_those_a_retry_must_get_again():
    assert errors.remembered(errors.InsufficientBalanceError("insufficient_balance", "short"))
    assert errors.remembered(errors.ConflictError("round_open", "open"))
    assert not errors.remembered(errors.RetryLaterError("min_round_duration", "wait", 10))
    assert not errors.remembered(errors.FaultError("game_state_corrupt", "broken"))
