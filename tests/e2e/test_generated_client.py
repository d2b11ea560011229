"""The API as a machine interface: every operation has an operationId and a summary,
every paged list answer is described, and a client generated from /api/v1/openapi.json
by openapi-python-client (no network) drives a listed sale with typed models against a
live server, each answer checked against the document."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.openapi_check import check_answer
from tests.ops_servers import gunicorn
from tests.sale_world import PASSWORD, USERS, M, seed_sale


def spec_of(client: Any) -> dict[str, Any]:
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200
    return r.json  # type: ignore[no-any-return]


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, op)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if method != "parameters"
    ]


def test_every_operation_is_named_and_summarised_and_every_page_described(client: Any) -> None:
    spec = spec_of(client)
    ops = operations(spec)
    ids = [op.get("operationId") for _, _, op in ops]
    assert None not in ids and len(set(ids)) == len(ids)
    assert all(op.get("summary") for _, _, op in ops)
    schemas = spec["components"]["schemas"]
    paged = [
        (p, op) for _, p, op in ops if "limit" in {x["name"] for x in op.get("parameters", [])}
    ]
    assert len(paged) >= 8
    for path, op in paged:
        ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        page = schemas[ref.rsplit("/", 1)[1]]
        assert {"items", "next"} <= set(page["properties"]), path
        assert "$ref" in page["properties"]["items"]["items"], path


def generate(spec: dict[str, Any], where: Path) -> Any:
    source = where / "openapi.json"
    source.write_text(json.dumps(spec))
    out = where / "market_client"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(source),
            "--output-path",
            str(out),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(where))
    return importlib.import_module("market_client")


def test_a_generated_client_drives_a_listed_sale(
    app: Any, client: Any, database_url: str, tmp_path: Path
) -> None:
    """Against a live server (gunicorn); every answer is checked against the document."""
    cert = {"id": seed_sale(app, client)}
    checked: list[int] = []

    def check(response: httpx.Response) -> None:
        response.read()
        mimetype = response.headers.get("content-type", "").split(";")[0]
        body = response.json() if mimetype == "application/json" else response.content
        request = response.request
        check_answer(app, request.method, request.url.path, response.status_code, mimetype, body)
        checked.append(response.status_code)

    hooks = {"event_hooks": {"response": [check]}}
    (tmp_path / "served").mkdir()
    try:
        mc = generate(spec_of(client), tmp_path)
        models = importlib.import_module("market_client.models")
        api = "market_client.api."
        issue = importlib.import_module(api + "auth.issue_token")
        trading = {
            n: importlib.import_module(api + "trading." + n)
            for n in (
                "create_listing",
                "list_listings",
                "make_offer",
                "accept_offer",
                "approve_transfer",
            )
        }
        with gunicorn(database_url, tmp_path / "served") as served:
            sell(mc, models, issue, trading, served.url, hooks, cert)
        assert checked == [200, 200, 200, 201, 200, 201, 201, 200, 409]
    finally:
        for name in [
            m for m in sys.modules if m == "market_client" or m.startswith("market_client.")
        ]:
            del sys.modules[name]
        if str(tmp_path) in sys.path:
            sys.path.remove(str(tmp_path))


def sell(mc: Any, models: Any, issue: Any, trading: Any, url: str, hooks: Any, cert: Any) -> None:
    anonymous = mc.Client(base_url=url, httpx_args=hooks)

    def signed_in(email: str) -> Any:
        token = issue.sync(
            client=anonymous, body=models.Credentials(email=email, password=PASSWORD)
        )
        assert isinstance(token, models.TokenOut), token
        return mc.AuthenticatedClient(base_url=url, token=token.token, httpx_args=hooks)

    as_seller, as_buyer, as_eda = (signed_in(e) for e in USERS)
    listing = trading["create_listing"].sync(
        client=as_seller,
        body=models.ListingIn(certificate_id=cert["id"], amount_cents=M, ask_cents=90 * M // 100),
    )
    assert isinstance(listing, models.ListingOut) and listing.status == "open"
    page = trading["list_listings"].sync(client=as_buyer)
    assert isinstance(page, models.ListingPage)
    assert [x.id for x in page.items] == [listing.id] and isinstance(
        page.items[0], models.ListingOut
    )
    offer = trading["make_offer"].sync(
        listing.id,
        client=as_buyer,
        body=models.OfferIn(amount_cents=M, price_cents=85 * M // 100),
    )
    assert isinstance(offer, models.OfferOut) and offer.status == "open"
    accepted = trading["accept_offer"].sync(offer.id, client=as_seller, body=models.AcceptIn())
    assert isinstance(accepted, models.OfferOut) and accepted.status == "accepted"
    transfer_id = accepted.transfer_id
    approved = trading["approve_transfer"].sync(transfer_id, client=as_eda, body=models.ApproveIn())
    assert isinstance(approved, models.TransferOut), approved
    assert approved.status == "approved" and approved.buyer_certificate_id
    refused = trading["make_offer"].sync(
        listing.id, client=as_buyer, body=models.OfferIn(amount_cents=M, price_cents=M // 2)
    )
    assert isinstance(refused, models.Error)  # typed error answers too
