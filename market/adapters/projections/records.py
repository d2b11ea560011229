"""A party's report facts and the import runs."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.records import PartyFactsRecorded, RecordsImported


@handles(PartyFactsRecorded)
def party_facts_recorded(store: Store, seq: int, e: PartyFactsRecorded) -> None:
    row = {"naics_code": e.naics_code, "employees": dict(e.employees), "recorded_seq": seq}
    if store.get("party_facts", e.party_id) is None:
        store.insert("party_facts", {"party_id": e.party_id} | row)
    else:
        store.update("party_facts", e.party_id, row)
    tech = {
        "us_employees": e.us_employees,
        "nj_full_time_employees": e.nj_full_time_employees,
        "formed_on": e.formed_on,
    }
    given = {k: v for k, v in tech.items() if v is not None}
    if given:
        store.update("parties", e.party_id, given)


@handles(RecordsImported)
def records_imported(store: Store, seq: int, e: RecordsImported) -> None:
    store.insert(
        "records_imports",
        {
            "sha256": e.sha256,
            "import_id": e.import_id,
            "kind": e.kind,
            "file_name": e.file_name,
            "rows": e.rows,
            "imported": e.imported,
            "first_seq": e.first_seq,
            "last_seq": e.last_seq,
            "recorded_seq": seq,
        },
    )
