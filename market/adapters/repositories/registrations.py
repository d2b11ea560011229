"""Registrations (issue 29 item 1): a business's request to join, by id and by tax id."""

from __future__ import annotations

from market.adapters.projections.store import Row
from market.adapters.repositories.base import Repository

OPEN_STATUSES = ("email_unverified", "submitted")


class RegistrationRepository(Repository):
    table = "registrations"

    def open_with_tax_id(self, tax_id: str) -> Row | None:
        """A request for this tax id still waiting for its e-mail check or a decision."""
        for row in self.where(tax_id=tax_id):
            if row["status"] in OPEN_STATUSES:
                return row
        return None
