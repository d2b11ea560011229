"""Who acted, in words (lookups.user_names_of): the "By" of a page names the user and
whom it acted for, never `user:<hex>`, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from market.services.identity import identity
from market.services.kernel import lookups, runner
from market.services.kernel.actor import SYSTEM
from market.services.parties import parties

pytestmark = pytest.mark.storage


def test_labels_and_ids_read_as_the_user_and_whom_it_acted_for(engine: Engine) -> None:
    new = parties.NewParty(
        name="Camden Robotics", tax_id="22-1000001", entity_type="c_corporation", tax_types=["CBT"]
    )
    party = runner.run(engine, lambda uow: parties.register_party(uow, SYSTEM, new))
    seller = identity.create_user(
        engine, "ana@example.com", "participant", "a-long-password-1", party["id"]
    )
    eda = identity.create_user(engine, "eda@example.com", "authority", "a-long-password-2")
    given = [
        f"user:{seller['id']}@{party['id']}",
        f"user:{seller['id']}",  # an event written before labels named the party
        seller["id"],
        f"user:{eda['id']}@authority",
        "user:system@authority",
        f"user:demo-seed@{party['id']}",
        None,
    ]
    with engine.connect() as conn:
        names = lookups.user_names_of(conn, given)
    assert names == {
        f"user:{seller['id']}@{party['id']}": "ana@example.com for Camden Robotics",
        f"user:{seller['id']}": "ana@example.com for Camden Robotics",
        seller["id"]: "ana@example.com for Camden Robotics",
        f"user:{eda['id']}@authority": "eda@example.com (the Authority)",
        "user:system@authority": "the system",
        f"user:demo-seed@{party['id']}": "Camden Robotics",
    }
    assert not any("user:" in v for v in names.values())
    with engine.connect() as conn:
        whom = lookups.user_names_of(conn, given, emails=False)
    assert whom[f"user:{seller['id']}@{party['id']}"] == "Camden Robotics"
    assert whom[f"user:{eda['id']}@authority"] == "the Authority"
    assert not any("@" in v for v in whom.values())
