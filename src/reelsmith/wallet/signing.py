"""RSA-SHA256 signatures over raw HTTP bodies, in the style of Hub88's ``X-Hub88-Signature``.

The game server signs every request body with its private key; the operator verifies it with
the game's public key and signs its answer's body with its own private key, which the game
verifies with the operator's public key. The signature is over the exact bytes sent (never a
re-serialisation, which could order keys differently), PKCS#1 v1.5 padding, SHA-256, and
travels base64-encoded in the header.

A key folder holds four PEM files: ``game_private.pem``, ``game_public.pem``,
``operator_private.pem`` and ``operator_public.pem``. The game server reads the first and the
last, the operator the other two; :func:`ensure_keys` writes the ones missing (at a first
start, or by ``reelsmith operator-sim --keys DIR`` / ``reelsmith wallet-keys DIR``). Private
keys are written readable by their owner alone and never belong in the repository.
"""

from __future__ import annotations

import base64
import binascii
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

SIGNATURE_HEADER = "X-Hub88-Signature"
KEY_BITS = 2048
SIDES = ("game", "operator")


class SignatureError(ValueError):
    """A signature is missing, not base64, or does not match the body."""


@dataclass(frozen=True)
class Signer:
    """Signs bodies with one private key."""

    key: rsa.RSAPrivateKey

    def sign(self, body: bytes) -> str:
        raw = self.key.sign(body, padding.PKCS1v15(), hashes.SHA256())
        return base64.b64encode(raw).decode("ascii")


@dataclass(frozen=True)
class Verifier:
    """Checks bodies against one public key."""

    key: rsa.RSAPublicKey

    def verify(self, body: bytes, signature: str | None) -> None:
        """Return if ``signature`` is this key's over ``body``; raise :class:`SignatureError`
        naming what is wrong otherwise (the reason never includes the key or the body)."""
        if not signature:
            raise SignatureError(f"the {SIGNATURE_HEADER} header is missing")
        try:
            raw = base64.b64decode(signature, validate=True)
        except (binascii.Error, ValueError):
            raise SignatureError(f"the {SIGNATURE_HEADER} header is not base64") from None
        try:
            self.key.verify(raw, body, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            raise SignatureError(
                f"the {SIGNATURE_HEADER} header does not match the body for this key"
            ) from None


def _write_private(path: Path, key: rsa.RSAPrivateKey) -> None:
    data = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)


def ensure_keys(folder: Path) -> list[Path]:
    """Create ``folder`` and any key pair missing from it; the files written, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for side in SIDES:
        private, public = folder / f"{side}_private.pem", folder / f"{side}_public.pem"
        if private.exists() and public.exists():
            continue
        if private.exists() != public.exists():
            raise SignatureError(
                f"{folder}: one of {private.name} and {public.name} exists without the other;"
                " remove it or restore its pair"
            )
        key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
        _write_private(private, key)
        public.write_bytes(
            key.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )
        written += [private, public]
    return written


def load_signer(path: Path) -> Signer:
    """The private key in PEM file ``path``; a clear error when it is missing or not one."""
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except OSError as exc:
        raise SignatureError(f"cannot read private key {path}: {exc.strerror or exc}") from None
    except ValueError:
        raise SignatureError(f"{path} is not a PEM private key") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise SignatureError(f"{path} is not an RSA private key")
    return Signer(key)


def load_verifier(path: Path) -> Verifier:
    """The public key in PEM file ``path``; a clear error when it is missing or not one."""
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except OSError as exc:
        raise SignatureError(f"cannot read public key {path}: {exc.strerror or exc}") from None
    except ValueError:
        raise SignatureError(f"{path} is not a PEM public key") from None
    if not isinstance(key, rsa.RSAPublicKey):
        raise SignatureError(f"{path} is not an RSA public key")
    return Verifier(key)
