"""The crawl's bounds (crawl.py), without a browser: what it follows, what it skips, and
the limits that keep "every page of every role" fast."""

from __future__ import annotations

from tests.e2e.browser import crawl

ORIGIN = "http://127.0.0.1:5000"


def test_it_follows_same_origin_pages_and_skips_downloads_documents_the_api_and_sign_out() -> None:
    f = crawl.Frontier()
    assert f.admit("/market", ORIGIN) == "/market"
    assert f.admit(ORIGIN + "/seller", ORIGIN) == "/seller"
    assert f.admit("/market", ORIGIN) is None  # seen
    for skipped in (
        "https://example.com/market",
        "/logout",
        "/api/v1/listings",
        "/documents/doc_1/download",
        "/reports/transfers.csv",
        "/reports/statutory/distribution.json",
        "/certificates/crt_1/proof",
    ):
        assert f.admit(skipped, ORIGIN) is None, skipped


def test_query_variants_and_id_shapes_are_bounded_but_deal_pages_are_kept() -> None:
    f = crawl.Frontier()
    kept = [f.admit(f"/market?sort={s}", ORIGIN) for s in ("cheapest", "newest", "largest")]
    assert kept[:2] == ["/market?sort=cheapest", "/market?sort=newest"] and kept[2] is None
    shapes = [f.admit(f"/authority/registrations/reg_{i}", ORIGIN) for i in range(5)]
    assert sum(s is not None for s in shapes) == crawl.PER_SHAPE
    deals = [f.admit(f"/deals/transfers/trf_{i}", ORIGIN) for i in range(12)]
    assert all(deals)
    assert crawl.shape("/deals/transfers/trf_9a") == "/deals/transfers/*"


def test_links_are_read_from_anchors_only() -> None:
    html = '<a href="/a">a</a><a href="#top">top</a><link href="/b"><a href="mailto:x@y">m</a>'
    assert crawl.links_in(html) == ["/a"]
