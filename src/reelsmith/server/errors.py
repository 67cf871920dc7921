"""API errors: every refusal is a 4xx JSON body ``{code, message}``."""

from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, **self.extra}


def bad_request(code: str, message: str, **extra: object) -> ApiError:
    return ApiError(400, code, message, **extra)


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"{what} was not found")


def conflict(code: str, message: str, **extra: object) -> ApiError:
    return ApiError(409, code, message, **extra)
