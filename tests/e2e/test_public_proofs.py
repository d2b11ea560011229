"""The Merkle proofs are for anyone (PRODUCT.md 9.3): no token, hashes only, and a rate per
client address (PROOF_RATE_PER_MINUTE) past which they answer 429 with Retry-After."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from market.domain import merkle
from tests.conftest import ERA_TODAY
from tests.helpers import events
from tests.trust_world import build

pytestmark = pytest.mark.storage
HEX64 = re.compile("[0-9a-f]{64}")


def test_anyone_reads_proofs_and_they_carry_hashes_only(client: Any, app: Any) -> None:
    engine = app.extensions["market.engine"]
    w = build(client, engine)
    cp = client.post("/api/v1/ledger/checkpoints", headers=w.authority).json
    n = cp["tree_size"]
    assert n == events(engine)
    root = bytes.fromhex(cp["root_hash"])
    for seq in range(1, n + 1):
        r = client.get(f"/api/v1/ledger/proofs/inclusion?seq={seq}")  # no Authorization
        assert r.status_code == 200, r.json
        p = r.json
        assert set(p) == {"seq", "leaf_index", "tree_size", "leaf_hash", "proof", "root_hash"}
        assert (p["seq"], p["leaf_index"], p["tree_size"]) == (seq, seq - 1, n)
        hashes = [p["leaf_hash"], p["root_hash"], *p["proof"]]
        assert all(HEX64.fullmatch(h) for h in hashes)
        proof = [bytes.fromhex(h) for h in p["proof"]]
        assert merkle.verify_inclusion(bytes.fromhex(p["leaf_hash"]), seq - 1, n, proof, root)
    c = client.get(f"/api/v1/ledger/proofs/consistency?from=2&to={n}")
    assert c.status_code == 200, c.json
    assert set(c.json) == {"from", "to", "proof", "from_root_hash", "to_root_hash"}
    assert all(HEX64.fullmatch(h) for h in [c.json["from_root_hash"], *c.json["proof"]])
    assert c.json["to_root_hash"] == cp["root_hash"]
    # Nothing of what the events say: no name, no id, no amount.
    text = c.get_data(as_text=True) + r.get_data(as_text=True)
    assert "Hudson" not in text and w.certificate_id not in text
    # Bad requests are still refused in the error shape, token or not.
    bad = client.get(f"/api/v1/ledger/proofs/inclusion?seq={n + 1}&tree_size={n}")
    assert bad.status_code == 400 and bad.json["error"]["code"] == "invalid_proof_request"


def _refused(r: Any) -> int:
    assert r.status_code == 429, r.json
    assert r.json["error"]["code"] == "rate_limited"
    assert set(r.json["error"]) == {"code", "message", "details"}
    wait = int(r.headers["Retry-After"])
    assert wait >= 1 and r.json["error"]["details"]["retry_after_seconds"] == wait
    return wait


def test_past_the_rate_an_address_gets_429_with_retry_after(client: Any, app: Any) -> None:
    engine = app.extensions["market.engine"]
    w = build(client, engine)
    client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    app.config["PROOF_RATE_PER_MINUTE"] = 4
    urls = [
        "/api/v1/ledger/proofs/inclusion?seq=1",
        "/api/v1/ledger/proofs/consistency?from=1&to=2",
    ]
    here = {"REMOTE_ADDR": "192.0.2.7"}
    for i in range(4):  # both proofs spend the same allowance
        assert client.get(urls[i % 2], environ_base=here).status_code == 200
    for url in urls:
        assert 1 <= _refused(client.get(url, environ_base=here)) <= 15  # 4 a minute: one per 15 s
    # A token does not lift it (the address is what is counted) ...
    assert client.get(urls[0], headers=w.auditor, environ_base=here).status_code == 429
    # ... and another address has its own allowance.
    assert client.get(urls[0], environ_base={"REMOTE_ADDR": "192.0.2.8"}).status_code == 200
    # The other public reads are not counted.
    assert client.get("/api/v1/ledger/public-key", environ_base=here).status_code == 200
    app.config["PROOF_RATE_PER_MINUTE"] = 0  # 0: no limit
    assert client.get(urls[0], environ_base=here).status_code == 200


@pytest.fixture
def proxied_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    from market import create_app

    application = create_app(
        {
            "DATABASE_URL": database_url,
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "MARKET_TODAY": ERA_TODAY,
            "TRUSTED_PROXIES": 1,
            "PROOF_RATE_PER_MINUTE": 2,
        }
    )
    application.instance_path = str(tmp_path / "instance")
    yield application
    application.extensions["market.engine"].dispose()


def test_behind_a_trusted_proxy_the_forwarded_client_is_counted(proxied_app: Any) -> None:
    client = proxied_app.test_client()
    w = build(client, proxied_app.extensions["market.engine"])
    client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    url = "/api/v1/ledger/proofs/inclusion?seq=1"
    proxy = {"REMOTE_ADDR": "10.0.0.1"}  # every request comes through the one proxy

    def get(client_address: str) -> Any:
        return client.get(url, environ_base=proxy, headers={"X-Forwarded-For": client_address})

    assert [get("198.51.100.1").status_code for _ in range(2)] == [200, 200]
    _refused(get("198.51.100.1"))
    assert get("198.51.100.2").status_code == 200  # not the proxy's address: the client's


def test_the_openapi_document_describes_the_public_answers(client: Any) -> None:
    spec = client.get("/api/v1/openapi.json").json
    schemas = spec["components"]["schemas"]

    def answer(path: str, status: str = "200") -> dict[str, Any]:
        op = spec["paths"][path]["get"]
        assert op["security"] == []  # no token needed
        ref = op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        return dict(schemas[ref.rsplit("/", 1)[1]]["properties"])

    key = answer("/api/v1/ledger/public-key")
    assert {"key_id", "algorithm", "public_key", "verifier_key"} <= set(key)
    inclusion = answer("/api/v1/ledger/proofs/inclusion")
    assert {"seq", "tree_size", "leaf_hash", "proof", "root_hash"} <= set(inclusion)
    assert inclusion["proof"]["type"] == "array"
    assert {"from", "to", "proof"} <= set(answer("/api/v1/ledger/proofs/consistency"))
    for path in ("/api/v1/ledger/proofs/inclusion", "/api/v1/ledger/proofs/consistency"):
        assert "Retry-After" in spec["paths"][path]["get"]["responses"]["429"]["description"]
