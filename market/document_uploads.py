"""Where an exhibit's bytes go and how large they may be (PRODUCT.md 9.1): DOCUMENT_DIR
(unset: instance/documents) and DOCUMENT_MAX_BYTES (default 20 MiB). The request body
limit (MAX_CONTENT_LENGTH) is raised for the upload paths only, just enough to carry the
largest allowed file, so every other request keeps its limit."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import current_app, request

from market.adapters.document_store import DocumentStore

UPLOAD_PATHS = ("/api/v1/documents", "/documents/upload")
OVERHEAD = 64 * 1024  # the multipart envelope and the form's other fields


def max_bytes(config: Mapping[str, Any] | None = None) -> int:
    """DOCUMENT_MAX_BYTES of `config` (default: the current app's)."""
    settings = current_app.config if config is None else config
    return int(settings.get("DOCUMENT_MAX_BYTES") or 20 * 1024 * 1024)


def upload_body_limit(config: Mapping[str, Any] | None = None) -> int:
    """The request body an upload path may carry: the largest file and its envelope."""
    return max_bytes(config) + OVERHEAD


def store() -> DocumentStore:
    folder = current_app.config.get("DOCUMENT_DIR")
    return DocumentStore(Path(folder) if folder else Path(current_app.instance_path) / "documents")


def raise_upload_limit() -> None:
    """A before-request hook: runs ahead of the input guard, which reads forms."""
    if request.method == "POST" and request.path in UPLOAD_PATHS:
        request.max_content_length = upload_body_limit()
