"""The pages a signed-in role can reach: from its start pages, every same-origin GET link
(`<a href>`), breadth first, fetched over the browser context's own session (its cookies)
without rendering. Skipped: signing out, downloads and exports, documents, the API, the
health and metrics endpoints. Kept bounded: a page's query-string variants beyond
QUERY_VARIANTS, more than PER_SHAPE pages of one id-bearing path shape (every deal and
certificate page linked is kept, up to PER_DEAL_SHAPE), and MAX_PAGES in all."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

SKIP_PREFIXES = (
    "/logout",
    "/login",
    "/password",
    "/join",
    "/documents/",
    "/api/",
    "/static/",
    "/pickers/",
    "/healthz",
    "/readyz",
    "/metrics",
)
SKIP_SUFFIXES = (".csv", ".json", ".txt", ".pdf", ".zip", "/download", "/proof")
QUERY_VARIANTS = 2  # filtered or sorted views per page, beside the page itself
PER_SHAPE = 3  # pages of one shape such as /authority/registrations/<id>
PER_DEAL_SHAPE = 40  # deal and certificate pages: every one linked, within reason
MAX_PAGES = 150
ID_SEGMENT = re.compile(r"^([a-z]{2,5}_[0-9A-Za-z]+|\d+|[A-Z]+-\d{4}-[0-9A-Z-]+)$")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href and not href.startswith(("#", "mailto:", "tel:", "javascript:")):
                self.hrefs.append(href)


def links_in(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    return parser.hrefs


def shape(path: str) -> str:
    """A path with its ids as `*`: /deals/transfers/trf_1 -> /deals/transfers/*."""
    return "/".join("*" if ID_SEGMENT.match(s) else s for s in path.split("/"))


def is_deal_or_certificate(path: str) -> bool:
    return path.startswith(
        (
            "/deals/transfers/",
            "/deals/offers/",
            "/deals/tech/",
            "/deals/credit-applications/",
            "/certificates/",
        )
    )


class Frontier:
    """Which links to follow, and the bounds that keep the crawl fast."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.queries: dict[str, int] = {}
        self.shapes: dict[str, int] = {}

    def admit(self, url: str, origin: str) -> str | None:
        parts = urlsplit(urljoin(origin + "/", url))
        if f"{parts.scheme}://{parts.netloc}" != origin:
            return None
        path = parts.path
        if path.startswith(SKIP_PREFIXES) or path.endswith(SKIP_SUFFIXES):
            return None
        target = path + (f"?{parts.query}" if parts.query else "")
        if target in self.seen or len(self.seen) >= MAX_PAGES:
            return None
        if parts.query:
            if self.queries.get(path, 0) >= QUERY_VARIANTS:
                return None
            self.queries[path] = self.queries.get(path, 0) + 1
        else:
            kind = shape(path)
            if kind != path:
                bound = PER_DEAL_SHAPE if is_deal_or_certificate(path) else PER_SHAPE
                if self.shapes.get(kind, 0) >= bound:
                    return None
                self.shapes[kind] = self.shapes.get(kind, 0) + 1
        self.seen.add(target)
        return target


def crawl(request: Any, origin: str, start: Iterable[str]) -> dict[str, str]:
    """Every page reached from `start`, in the order found, each with the page that
    linked it ("" for a start page). `request`: the signed-in browser context's
    APIRequestContext. A redirect is followed, not listed; a page answering an error is
    listed (so the tests report it and where it was linked) but not followed."""
    frontier = Frontier()
    queue: deque[tuple[str, str]] = deque()
    for path in start:
        admitted = frontier.admit(path, origin)
        if admitted:
            queue.append((admitted, ""))
    found: dict[str, str] = {}
    while queue:
        path, linked_from = queue.popleft()
        response = request.get(origin + path, max_redirects=0)
        if 300 <= response.status < 400:  # not a page: where it leads is
            admitted = frontier.admit(response.headers.get("location", ""), origin)
            if admitted:
                queue.append((admitted, linked_from))
            continue
        found[path] = linked_from
        if response.status != 200 or "text/html" not in response.headers.get("content-type", ""):
            continue
        for href in links_in(response.text()):
            admitted = frontier.admit(href, origin)
            if admitted:
                queue.append((admitted, path))
    return found
