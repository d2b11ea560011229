"""The thinnest honest ledger write, for scripts/bench_http's reference: Flask and raw
sqlite3 (WAL, synchronous=FULL), a bearer-token lookup, a balance check, a hash-chained
event per write and JSON out, serving the same two requests the wrk script sends
(POST /api/v1/transfers, POST /api/v1/transfers/<id>/approve). What the app adds over this
is what its rules, projections, idempotency and layers cost."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import uuid
from typing import Any

from flask import Flask, abort, jsonify, request

app = Flask(__name__)
_local = threading.local()
SCHEMA = """
CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS certs (id TEXT PRIMARY KEY, balance INTEGER CHECK (balance >= 0));
CREATE TABLE IF NOT EXISTS transfers (id TEXT PRIMARY KEY, cert TEXT, amount INTEGER, status TEXT);
CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, payload TEXT, prev_hash TEXT,
  hash TEXT);
"""


def setup(path: str, certificate_id: str, tokens: list[str]) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO certs VALUES (?, ?)", (certificate_id, 1_900_000_000))
    conn.executemany("INSERT INTO tokens VALUES (?)", [(_digest(t),) for t in tokens])
    conn.commit()
    conn.close()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _db() -> sqlite3.Connection:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(
            os.environ["THIN_DB"], isolation_level=None, timeout=30, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        _local.conn = conn
    return conn


def _authorised(conn: sqlite3.Connection) -> None:
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    if conn.execute("SELECT 1 FROM tokens WHERE digest = ?", (_digest(token),)).fetchone() is None:
        abort(401)


def _append(conn: sqlite3.Connection, payload: dict[str, Any]) -> None:
    seq, prev = conn.execute(
        "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"
    ).fetchone() or (0, "0" * 64)
    body = json.dumps([seq + 1, payload, prev], sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(body.encode()).hexdigest()
    conn.execute(
        "INSERT INTO events VALUES (?, ?, ?, ?)", (seq + 1, json.dumps(payload), prev, digest)
    )


@app.post("/api/v1/transfers")
def create() -> Any:
    conn = _db()
    _authorised(conn)
    data = request.get_json()
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT balance FROM certs WHERE id = ?", (data["certificate_id"],))
        balance = row.fetchone()[0]
        if balance < data["amount_cents"]:
            conn.execute("ROLLBACK")
            return jsonify({"error": {"code": "insufficient_balance"}}), 422
        transfer_id = f"trf_{uuid.uuid4().hex[:20]}"
        conn.execute(
            "INSERT INTO transfers VALUES (?, ?, ?, 'pending')",
            (transfer_id, data["certificate_id"], data["amount_cents"]),
        )
        _append(conn, {"type": "TRANSFER_PROPOSED", "id": transfer_id} | data)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return jsonify({"id": transfer_id, "status": "pending_approval"} | data), 201


@app.post("/api/v1/transfers/<transfer_id>/approve")
def approve(transfer_id: str) -> Any:
    conn = _db()
    _authorised(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        cert, amount, status = conn.execute(
            "SELECT cert, amount, status FROM transfers WHERE id = ?", (transfer_id,)
        ).fetchone()
        balance = conn.execute("SELECT balance FROM certs WHERE id = ?", (cert,)).fetchone()[0]
        if status != "pending" or balance < amount:
            conn.execute("ROLLBACK")
            return jsonify({"error": {"code": "conflict"}}), 409
        conn.execute("UPDATE certs SET balance = balance - ? WHERE id = ?", (amount, cert))
        conn.execute("UPDATE transfers SET status = 'approved' WHERE id = ?", (transfer_id,))
        _append(conn, {"type": "TRANSFER_APPROVED", "id": transfer_id, "amount": amount})
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return jsonify({"id": transfer_id, "status": "approved", "amount_cents": amount}), 200
