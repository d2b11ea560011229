"""What the operators' machines call (PRODUCT.md 9.4): /healthz, /readyz, /metrics.

Outside the pages blueprint: no sign-in, no CSRF, no session. /metrics answers only the
addresses in METRICS_ALLOW_FROM (404 to others: nothing to see there)."""

from __future__ import annotations

from ipaddress import ip_address, ip_network
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, request

from market.adapters import metrics
from market.services.ops import ops_figures, readiness
from market.services.trust.checkpoints import TrustSettings

bp = Blueprint("ops", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz() -> tuple[Response, int]:
    probe = readiness.Probe(
        engine=current_app.extensions["market.engine"],
        trust=TrustSettings.from_config(current_app.config, current_app.instance_path),
        max_worker_lag_s=current_app.config["READY_MAX_WORKER_LAG_S"],
        document_dir=Path(d) if (d := current_app.config.get("DOCUMENT_DIR")) else None,
    )
    checks = readiness.run_checks(probe)
    failing = sorted(name for name, outcome in checks.items() if outcome != "ok")
    body = {"status": "not_ready" if failing else "ready", "checks": checks, "failing": failing}
    return jsonify(body), 503 if failing else 200


def allowed(address: str | None, allow_from: str) -> bool:
    if not address:
        return False
    try:
        client = ip_address(address)
    except ValueError:
        return False
    networks = [ip_network(n.strip(), strict=False) for n in allow_from.split(",") if n.strip()]
    return any(client in net for net in networks)


@bp.get("/metrics")
def scrape() -> Response:
    if not allowed(request.remote_addr, current_app.config["METRICS_ALLOW_FROM"]):
        abort(404)
    body = metrics.scrape(ops_figures.figures(current_app.extensions["market.engine"]))
    return Response(body, mimetype=None, content_type=metrics.CONTENT_TYPE)


def register(app: Flask) -> None:
    app.register_blueprint(bp)
