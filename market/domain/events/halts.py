"""Trading halts (PRODUCT.md 8.3), on the stream `notice-<id>`: `holder_party_ids` are
the lineage's holders, to be notified."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.events.base import DomainEvent, event


@event
class CertificateNoticeIssued(DomainEvent):
    TYPE = "CERTIFICATE_NOTICE_ISSUED"
    notice_id: str
    certificate_id: str
    root_id: str
    kind: str
    reason: str
    halted_certificate_ids: Sequence[str]
    holder_party_ids: Sequence[str]
    suspended_listing_ids: Sequence[str]


@event
class CertificateNoticeLifted(DomainEvent):
    TYPE = "CERTIFICATE_NOTICE_LIFTED"
    notice_id: str
    certificate_id: str
    reason: str
    resumed_listing_ids: Sequence[str]
    holder_party_ids: Sequence[str]
