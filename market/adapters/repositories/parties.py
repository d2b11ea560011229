"""Parties and their ownership (TB-20), the notices that halt trading (PRODUCT.md 8.3), a
transfer's closing record."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from market.adapters.projections.store import Row
from market.adapters.queries import Query
from market.adapters.repositories.base import Repository, SqlMixin
from market.adapters.repositories.models import party_of
from market.adapters.repositories.parties_models import (
    OwnersAgreementRow,
    PartyRow,
    StakeRow,
    owners_agreement_row,
    party_row,
    stake_row,
)
from market.adapters.tables import Party as PartyTable
from market.domain.model import Party

parties_t = PartyTable.__table__  # type: ignore[attr-defined]
# Built once: a statement made per call (select, in_) cost a third of load_pair's CPU.
# Two fixed parameters (the same id twice for one): an expanding IN would be rendered
# again for every run.
_PAIR = Query(select(parties_t).where(parties_t.c.id.in_([bindparam("a"), bindparam("b")])))


class PartyRepository(Repository):
    table = "parties"

    def load(self, party_id: str) -> Party | None:
        row = self.get(party_id)
        return None if row is None else party_of(row)

    def load_pair(self, a: str, b: str) -> tuple[Party | None, Party | None]:
        """Two parties (a seller and a buyer), in the order asked."""
        return self.load(a), self.load(b)

    def record(self, party_id: str) -> PartyRow | None:
        """The party's row, every column (what its pages show)."""
        row = self.get(party_id)
        return None if row is None else party_row(row)

    def by_tax_id(self, tax_id: str) -> Row | None:
        found = self.where(tax_id=tax_id)
        return found[0] if found else None

    def stakes(self) -> list[StakeRow]:
        """Every recorded ownership stake (the ownership graph's edges)."""
        return [stake_row(r) for r in self.store.rows("ownerships")]

    def owners_of(self, party_id: str) -> list[StakeRow]:
        return [stake_row(r) for r in self.store.rows("ownerships", owned_party_id=party_id)]

    def stake(self, party_id: str, owner_party_id: str) -> StakeRow | None:
        row = self.store.get("ownerships", f"{party_id}:{owner_party_id}")
        return None if row is None else stake_row(row)

    def owners_agreement(self, party_id: str) -> OwnersAgreementRow | None:
        """The owners' agreement in force for a partnership (UTH-14), its latest filing."""
        row = self.store.get("owners_agreements", party_id)
        return None if row is None else owners_agreement_row(row)


class NoticeRepository(Repository):
    table = "certificate_notices"

    def active_on_root(self, root_id: str) -> list[Row]:
        """The active notices in a lineage, by id."""
        return self.where(root_id=root_id, status="active")


class FundingRepository(Repository):
    """A transfer's closing record, by the transfer's id."""

    table = "transfer_fundings"


class SqlPartyRepository(SqlMixin, PartyRepository):
    def load_pair(self, a: str, b: str) -> tuple[Party | None, Party | None]:
        """One statement for both (none for one the unit of work holds already, or the
        process keeps at the party epoch read with the head: market/adapters/kept_rows.py)."""
        rows = {key: self.db.held(self.table, key) for key in (a, b)}
        missing = [key for key, row in rows.items() if row is None]
        if missing:
            for found in _PAIR.rows(self.conn, {"a": missing[0], "b": missing[-1]}):
                rows[found["id"]] = found
                self.db.remember_read(self.table, found)
        first, second = rows[a], rows[b]
        return (
            None if first is None else party_of(first),
            None if second is None else party_of(second),
        )
