"""A witness (C2SP tlog-witness, PRODUCT.md 9.3): a second institution (the Division of
Taxation, an auditor) that cosigns the ledger's checkpoints with its own Ed25519 key.

For each request it verifies the checkpoint's signature by a log key it trusts for that
origin, then, holding its state for the origin, that the checkpoint extends the latest one
it cosigned (the consistency proof, `domain.tlog_witness.check_extension`): a rollback or
a split view is refused and nothing is stored. Only then does it cosign (cosignature/v1),
store the checkpoint with the log's signature and its cosignature, and answer the line.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from market.adapters.signing import Signer, verify_signature
from market.adapters.witness_state import WitnessState
from market.domain.checkpoint_note import (
    COSIGNATURE_V1,
    ED25519,
    NoteError,
    Signature,
    VerifierKey,
    parse_note,
    parse_signed,
    parse_verifier_key,
    signed_text,
    verifier_key,
)
from market.domain.cosignature import (
    Cosignature,
    cosigned_message,
    cosigner_key_hash,
)
from market.domain.tlog_witness import (
    SIZE_CONTENT_TYPE,
    AddCheckpoint,
    NotSignedByLog,
    SizeConflict,
    UnknownOrigin,
    WitnessRefusal,
    check_extension,
    parse_add_checkpoint,
)

TEXT = "text/plain; charset=utf-8"
Answer = tuple[int, str, bytes]


def _unix_now() -> int:
    return int(time.time())


@dataclass
class Witness:
    signer: Signer  # its name is the witness's key name
    log_keys: list[VerifierKey]
    state: WitnessState
    now: Callable[[], int] = field(default=_unix_now)

    @property
    def vkey(self) -> str:
        return cosigner_vkey(self.signer)

    def add_checkpoint(self, body: bytes) -> Answer:
        try:
            request = parse_add_checkpoint(body)
            keys = [k for k in self.log_keys if k.name == request.note.origin]
            if not keys:
                raise UnknownOrigin(f"this witness knows no log {request.note.origin!r}")
            verified = self._log_signatures(request, keys)
            with self.state.locked(request.note.origin) as slot:
                stored = slot.read()
                latest = None if stored is None else parse_note(parse_signed(stored)[0])
                check_extension(latest, request)
                cosignature = self._cosign(request.note_text)
                slot.write(signed_text(request.note_text, [*verified, cosignature.note_signature]))
        except SizeConflict as e:
            return 409, SIZE_CONTENT_TYPE, f"{e.latest_size}\n".encode()
        except WitnessRefusal as e:
            return e.status, TEXT, f"{e}\n".encode()
        return 200, TEXT, cosignature.line.encode()

    def monitor(self, origin_hex: str) -> Answer:
        """The latest checkpoint cosigned for that origin, with the log's signature."""
        stored = self.state.slot(origin_hex).read()
        if stored is None:
            return 404, TEXT, b"this witness has cosigned no checkpoint of that log\n"
        return 200, TEXT, stored.encode()

    def _log_signatures(self, request: AddCheckpoint, keys: list[VerifierKey]) -> list[Signature]:
        """The log's signatures by trusted keys, all verified; unknown keys are ignored."""
        message = request.note_text.encode("utf-8")
        good = []
        for sig in request.signatures:
            for key in keys:
                if sig.name == key.name and sig.key_hash == key.key_hash:
                    if not verify_signature(key.public_key, message, sig.signature):
                        raise NotSignedByLog(
                            f"the signature by {key.name} {key.key_hash.hex()} does not verify"
                        )
                    good.append(sig)
        if not good:
            raise NotSignedByLog("no signature by a log key this witness trusts")
        return good

    def _cosign(self, note: str) -> Cosignature:
        timestamp = self.now()
        signature = self.signer.sign(cosigned_message(note, timestamp))
        name, public = self.signer.name, self.signer.public_bytes
        return Cosignature(name, cosigner_key_hash(name, public), timestamp, signature)


def cosigner_vkey(signer: Signer) -> str:
    """The witness's C2SP verifier key: type 0x04, a timestamped Ed25519 cosigner."""
    return verifier_key(signer.name, signer.public_bytes, COSIGNATURE_V1)


def log_keys(texts: list[str]) -> list[VerifierKey]:
    """The log verifier keys a witness is started with; NoteError names a bad one."""
    keys = [parse_verifier_key(t) for t in texts]
    for key in keys:
        if key.key_type != ED25519:
            raise NoteError(f"{key.name}: a log key is of type 0x01 (Ed25519), not a witness's")
    return keys
