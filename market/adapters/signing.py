"""The ledger's Ed25519 signing key: one PKCS#8 PEM file (mode 0600), made once.

Like the session key (`config.instance_secret_key`), a new key is written once
(`adapters.files.write_once`), so workers starting together all read the same complete
key, whichever of them wins."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from market.adapters.files import write_once
from market.domain.checkpoint_note import key_hash, verifier_key


class KeyFileError(Exception):
    """The signing key file is missing, unreadable or not an Ed25519 key."""


@dataclass(frozen=True)
class Signer:
    name: str  # the key name of signed notes: the log's origin
    private_key: Ed25519PrivateKey

    @property
    def public_bytes(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @property
    def key_hash(self) -> bytes:
        return key_hash(self.name, self.public_bytes)

    @property
    def key_id(self) -> str:
        return self.key_hash.hex()

    def public_key_info(self) -> dict[str, str]:
        return {
            "key_id": self.key_id,
            "algorithm": "ed25519",
            "public_key": base64.b64encode(self.public_bytes).decode(),
            "name": self.name,
            # C2SP signed-note verifier key, as Go's note.NewVerifier reads it (PRODUCT.md 9.3)
            "verifier_key": self.verifier_key,
        }

    @property
    def verifier_key(self) -> str:
        return verifier_key(self.name, self.public_bytes)

    def sign(self, message: bytes) -> bytes:
        return self.private_key.sign(message)


def verify_signature(public_key: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def create_key_file(path: Path) -> None:
    """Write a new key at `path` unless one is there already (never replaced)."""
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    write_once(path, pem)  # 0600: only this user reads the private key


def load_signer(path: Path, name: str, *, create: bool) -> Signer:
    """The key at `path`; made there first when `create` and it does not exist."""
    if create and not path.exists():
        create_key_file(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise KeyFileError(f"cannot read the signing key file {path}: {e.strerror}") from e
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as e:
        raise KeyFileError(f"{path} is not a PEM private key") from e
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path} holds a {type(key).__name__}, not an Ed25519 key")
    return Signer(name, key)
