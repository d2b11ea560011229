"""The log asks its witnesses to cosign (C2SP tlog-witness; PRODUCT.md 9.3).

`WITNESSES` (one `NAME URL VKEY` a line) and `WITNESS_QUORUM` (default: all of them).
Each checkpoint is sent to every witness that has not cosigned it, with the consistency
proof from the size that witness last cosigned for us (what we stored; a 409 says the
witness's own, and it is asked once more from there). An answer's cosignature lines are
checked against the witness's key (cosignature/v1) before anything is stored; a line that
names the key and does not verify refuses the whole answer. The stored cosignatures are
appended to the checkpoint's note (never changing the log's part) in the file of
CHECKPOINT_DIR and in what `checkpoints/latest` serves. A witness that does not answer
never blocks signing: the checkpoint stays below quorum until `tick` asks again.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from market.adapters import checkpoint_store, cosignature_store, merkle_store
from market.adapters.checkpoint_store import StoredCheckpoint
from market.adapters.cosignature_store import StoredCosignature
from market.adapters.signing import verify_signature
from market.adapters.witness_client import WitnessUnreachable, add_checkpoint
from market.domain import merkle
from market.domain.checkpoint_note import (
    COSIGNATURE_V1,
    NoteError,
    Signature,
    VerifierKey,
    parse_signed,
    parse_verifier_key,
    signed_text,
)
from market.domain.cosignature import Cosignature, cosigned_message, from_signature, is_from
from market.domain.errors import DomainError
from market.domain.tlog_witness import WitnessRefusal, parse_size, request_body
from market.services.kernel import clock
from market.services.kernel.uow import ReadOnly

log = logging.getLogger(__name__)


class WitnessConfigError(DomainError):
    code = "witness_config_invalid"


class WitnessFailed(Exception):
    """This witness gave no cosignature we could store; the message says why."""


@dataclass(frozen=True)
class WitnessConfig:
    name: str  # its key name, as its verifier key and its cosignature lines say
    url: str  # the submission prefix: <url>/add-checkpoint
    key: VerifierKey


@dataclass(frozen=True)
class WitnessSettings:
    witnesses: tuple[WitnessConfig, ...] = ()
    quorum: int | None = None  # None: all of them
    timeout_s: float = 5.0

    @property
    def required(self) -> int:
        return len(self.witnesses) if self.quorum is None else self.quorum

    @classmethod
    def from_config(cls, config: Any) -> WitnessSettings:
        witnesses = tuple(_witness(line) for line in _lines(config.get("WITNESSES") or ""))
        raw = config.get("WITNESS_QUORUM")
        quorum = None if raw in (None, "") else _count(raw)
        if quorum is not None and not 0 <= quorum <= len(witnesses):
            raise WitnessConfigError(
                f"WITNESS_QUORUM is {quorum}, but {len(witnesses)} witnesses are configured.",
                {"quorum": quorum, "witnesses": len(witnesses)},
            )
        return cls(witnesses, quorum, float(config.get("WITNESS_TIMEOUT_S") or 5.0))


def _count(raw: Any) -> int:
    try:
        return int(raw)
    except ValueError as e:
        raise WitnessConfigError(f"WITNESS_QUORUM {raw!r} is not a number.", {}) from e


def _lines(text: str) -> list[str]:
    return [s for s in (line.strip() for line in text.splitlines()) if s and s[0] != "#"]


def _witness(line: str) -> WitnessConfig:
    parts = line.split()
    if len(parts) != 3:
        raise WitnessConfigError(f"A WITNESSES line is `NAME URL VKEY`: {line[:80]!r}.", {})
    name, url, text = parts
    try:
        key = parse_verifier_key(text)
    except NoteError as e:
        raise WitnessConfigError(f"WITNESSES: {e}.", {"witness": name}) from e
    if key.key_type != COSIGNATURE_V1 or key.name != name:
        raise WitnessConfigError(
            f"WITNESSES: {name}'s key must be a cosignature/v1 (0x04) key named {name}.",
            {"witness": name},
        )
    if not url.startswith(("http://", "https://")):
        raise WitnessConfigError(f"WITNESSES: {name}'s URL is not http(s).", {"witness": name})
    return WitnessConfig(name, url, key)


def signed_note(row: StoredCheckpoint, cosignatures: list[StoredCosignature] | None = None) -> str:
    """The checkpoint's note with the log's signature, then the stored cosignatures."""
    origin = row["note"].split("\n", 1)[0]
    log_sig = Signature(origin, bytes.fromhex(row["key_id"]), base64.b64decode(row["signature"]))
    cosigs = [
        Signature(c["witness"], bytes.fromhex(c["key_id"]), base64.b64decode(c["signature"]))
        for c in cosignatures or []
    ]
    return signed_text(row["note"], [log_sig, *cosigs])


def _proof(engine: Engine, old: int, size: int) -> list[bytes]:
    if old in (0, size):
        return []
    with ReadOnly(engine) as conn:
        reader = merkle_store.NodeReader(conn)
        return reader.run(lambda nodes: merkle.consistency_proof(nodes, old, size))


def _checked(w: WitnessConfig, note: str, answer: str) -> Cosignature:
    """The witness's cosignature in its answer, verified; WitnessFailed otherwise."""
    try:
        _, lines = parse_signed(note + "\n" + answer)
        mine = [from_signature(s) for s in lines if is_from(s, w.key)]
    except NoteError as e:
        raise WitnessFailed(f"its answer is not cosignature lines ({e})") from e
    if not mine:
        raise WitnessFailed("its answer carries no cosignature by its key")
    for c in mine:
        if not verify_signature(w.key.public_key, cosigned_message(note, c.timestamp), c.signature):
            raise WitnessFailed("a cosignature by its key does not verify (not stored)")
    return mine[0]


def ask(
    engine: Engine, ws: WitnessSettings, w: WitnessConfig, row: StoredCheckpoint
) -> Cosignature:
    """One witness's verified cosignature of checkpoint `row`; WitnessFailed if none."""
    size = row["tree_size"]
    with ReadOnly(engine) as conn:
        old = cosignature_store.last_cosigned_size(conn, w.name, w.key.key_hash.hex())
    old = old if old <= size else 0
    note = signed_note(row)
    for _ in range(2):
        body = request_body(old, _proof(engine, old, size), note)
        try:
            status, answer = add_checkpoint(w.url, body, ws.timeout_s)
        except WitnessUnreachable as e:
            raise WitnessFailed(f"no answer ({e})") from e
        if status != 409:
            break
        try:
            latest = parse_size(answer)
        except WitnessRefusal as e:
            raise WitnessFailed(f"409 without a size ({e})") from e
        if latest > size or latest == old:
            raise WitnessFailed(f"it has cosigned size {latest}; this checkpoint is {size}")
        old = latest
    if status != 200:
        raise WitnessFailed(f"it answered {status}: {answer.strip()[:200]}")
    return _checked(w, row["note"], answer)


def cosign(
    engine: Engine, ws: WitnessSettings, directory: Path, row: StoredCheckpoint
) -> dict[str, str]:
    """Ask every witness that has not cosigned `row` yet; store what verifies, rewrite the
    checkpoint's file; returns each asked witness's outcome ("cosigned" or why not)."""
    if not ws.witnesses:
        return {}
    size = row["tree_size"]
    with ReadOnly(engine) as conn:
        have = {(c["witness"], c["key_id"]) for c in cosignature_store.for_checkpoint(conn, size)}
    outcome: dict[str, str] = {}
    new: list[Cosignature] = []
    for w in ws.witnesses:
        if (w.name, w.key.key_hash.hex()) in have:
            continue
        try:
            new.append(ask(engine, ws, w, row))
            outcome[w.name] = "cosigned"
        except WitnessFailed as e:
            log.warning("witness %s did not cosign checkpoint %s: %s", w.name, size, e)
            outcome[w.name] = str(e)
    if new:
        with merkle_store.trust_transaction(engine) as conn:
            for c in new:
                cosignature_store.insert_new(conn, _row(size, c))
            stored = cosignature_store.for_checkpoint(conn, size)
            # Under the trust lock: two rewriters never leave the file with fewer lines.
            checkpoint_store.rewrite_file(
                directory,
                checkpoint_store.file_name(size, row["root_hash"]),
                signed_note(row, stored),
            )
    return outcome


def _row(size: int, c: Cosignature) -> StoredCosignature:
    return {
        "tree_size": size,
        "witness": c.name,
        "key_id": c.key_id,
        "timestamp": c.timestamp,
        "signature": base64.b64encode(c.note_signature.signature).decode(),
        "recorded_at": clock.now_utc().isoformat().replace("+00:00", "Z"),
    }


def cosign_latest(
    engine: Engine, ws: WitnessSettings, directory: Path, latest: StoredCheckpoint | None
) -> dict[str, str]:
    """For `tick`: ask the witnesses missing from `latest` (`checkpoints.latest`, the
    newest checkpoint a trusted key signed) again."""
    return {} if latest is None else cosign(engine, ws, directory, latest)
