"""The demo market served on a local port for the accessibility and phone tests: every
role's pages over a rich ledger (BRRAG, UTH with reviews, digital media, TECH, pass-through,
a recapture), seeded through the services exactly as `flask seed-demo` does."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from werkzeug.serving import make_server

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.adapters.tables import Certificate
from market.domain.rulesets import get_ruleset
from market.services import demo
from market.services.trust import certificate_check, signer
from market.services.trust.checkpoints import TrustSettings

# The logins whose pages differ: the Authority, the auditor, a BRRAG seller, a buyer, a
# UTH holder, a partnership that passes credit through, an insurer and a TECH seller.
LOGINS = {
    "eda@demo.nj": "authority",
    "auditor@demo.nj": "auditor",
    "meadowlands@demo.nj": "participant",
    "utility@demo.nj": "participant",
    "transit@demo.nj": "participant",
    "raritan@demo.nj": "participant",
    "insurer@demo.nj": "participant",
    "photonics@demo.nj": "participant",
}
PAGES = {
    "authority": [
        "/market",
        "/market?sort=cheapest&q=a",
        "/authority",
        "/authority/todo",
        "/authority/tech/paper-filing",
        "/authority/parties/director-exception",
        "/authority/exchange-date",
        "/authority/allocations/{tech_fy}",
        "/authority/parties",
        "/authority/users",
        "/reports/caps?fiscal_year={fy}",
        "/reports/transfers",
        "/reports/transfers?sort=newest&status=approved",
        "/price-tape",
        "/ledger",
        "/ledger?type=TRANSFER_APPROVED",
    ],
    "auditor": [
        "/market",
        "/reports/caps?fiscal_year={fy}",
        "/reports/transfers",
        "/ledger",
        "/reports/statutory/",
        "/reports/statutory/tech-program?fiscal_year={tech_fy}",
        "/reports/statutory/digital-media?fiscal_year={fy}",
        "/reports/statutory/distribution?fiscal_year={fy}",
    ],
    "participant": [
        "/market",
        "/seller",
        "/seller/transfers/new",
        "/buyer",
        "/reports/caps?fiscal_year={fy}",
    ],
}


@dataclass
class DemoSite:
    url: str
    engine: Any
    certificates: dict[str, list[str]] = field(default_factory=dict)  # holder id -> ids
    seeded: dict[str, Any] = field(default_factory=dict)  # what demo.seed answered

    def pages_for(self, email: str, party_id: str | None) -> list[str]:
        role = LOGINS[email]
        years = {"fy": self.seeded["fiscal_year"], "tech_fy": self.seeded["tech_allocated_year"]}
        pages = [p.format(**years) for p in PAGES[role]]
        pages.append(self.public_check())  # public: every role may open it too
        if party_id is not None:
            held = self.certificates.get(party_id, [])[:2]
            pages += [f"/certificates/{c}" for c in held] + [
                f"/certificates/{c}/print" for c in held[:1]
            ]
        else:
            # one certificate of each program and origin
            seen: set[tuple[str, str]] = set()
            with self.engine.connect() as conn:
                rows = conn.execute(select(certs_t.c.id, certs_t.c.program, certs_t.c.origin))
                for r in rows:
                    if (r.program, r.origin) not in seen:
                        seen.add((r.program, r.origin))
                        pages.append(f"/certificates/{r.id}")
                        if len(seen) == 1:
                            pages.append(f"/certificates/{r.id}/print")
        return pages

    def public_check(self) -> str:
        """The public check of the first certificate, as its printed QR code opens it."""
        with self.engine.connect() as conn:
            number = conn.execute(select(certs_t.c.number).order_by(certs_t.c.issued_seq)).scalar()
            code = certificate_check.code_of(conn, str(number))
        return f"/verify?number={number}&code={code}"


certs_t = Certificate.__table__  # type: ignore[attr-defined]


def serve_demo(folder: Path) -> Iterator[DemoSite]:
    from market import create_app

    url = f"sqlite:///{folder / 'demo.db'}"
    engine = make_engine(url)
    upgrade(engine)
    seeded = demo.seed(engine, get_ruleset("A1178"))
    held: dict[str, list[str]] = {}
    with engine.connect() as conn:
        for r in conn.execute(select(certs_t.c.id, certs_t.c.holder_party_id)):
            held.setdefault(r.holder_party_id, []).append(r.id)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "demo-browser-secret"})
    # The signing key and checkpoint files of this demo, not of the working tree's instance.
    app.instance_path = str(folder / "instance")
    signer.make_checkpoint(engine, TrustSettings.from_config(app.config, app.instance_path))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield DemoSite(f"http://127.0.0.1:{server.server_port}", engine, held, seeded)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
        app.extensions["market.engine"].dispose()
        engine.dispose()
