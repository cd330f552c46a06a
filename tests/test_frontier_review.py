"""Bugs of the frontier found by a review: a redirect fetching a URL twice, the seen-URL
filter remembering a URL's worst queued copy, S1's memory on huge pages, NaN weights."""
from __future__ import annotations

import json
import tracemalloc
from types import SimpleNamespace

import numpy as np
import pytest
from scrapy import Request
from scrapy.http import Response
from scrapy.squeues import FifoMemoryQueue
from scrapy.utils.test import get_crawler

from crawler.component_weights import ComponentWeights
from crawler.frontier import PriorityDupeFilter, RescoringPriorityQueue
from crawler.link_scoring import WEIGHTS, LinkScorer, priority_of
from crawler.links import Link
from crawler.middlewares import AlreadyFetched, AlreadyFetchedMiddleware, RedirectMiddleware
from crawler.traps import TrapDetector
from crawler.url_similarity import UrlSimilarity


def _frontier(spider=None):
    """A crawler with the job's seen-URL filter, a best-first queue and the fetch-once guard
    (no JOBDIR; the downloader is the test)."""
    crawler = get_crawler()
    crawler.spider = spider if spider is not None else SimpleNamespace()
    df = PriorityDupeFilter(None, crawler.request_fingerprinter, crawler.stats)
    crawler.priority_dupefilter = df
    queue = RescoringPriorityQueue(crawler, FifoMemoryQueue, "")
    return crawler, df, queue, AlreadyFetchedMiddleware(crawler)


def _schedule(df: PriorityDupeFilter, queue, request: Request) -> bool:
    """What Scrapy's scheduler does with a request: the filter, then the queue."""
    if request.dont_filter or not df.request_seen(request):
        queue.push(request)
        return True
    return False


def _redirect(request: Request, location: str) -> Request:
    """The request the project's RedirectMiddleware makes of a 301 answer to ``request``."""
    middleware = RedirectMiddleware.from_crawler(get_crawler())
    response = Response(request.url, status=301, headers={"Location": location})
    redirected = middleware.process_response(request, response)
    assert isinstance(redirected, Request) and redirected.meta["redirect_times"] == 1
    return redirected


# --- 1. a redirect's copy of a URL fetched meanwhile -----------------------------------------

def test_a_redirect_to_a_url_fetched_meanwhile_is_not_downloaded_again():
    """A plain link to T, then /wiki/T answering 301 -> T (Scrapy's copy is queued higher),
    then a better link to T (an upgrade): the best copy is fetched, the redirect's copy was
    downloaded too (found by a review)."""
    crawler, df, queue, guard = _frontier()
    target = "http://h.test/wp/t/Target.htm"
    assert _schedule(df, queue, Request(target, priority=100))
    wiki = Request("http://h.test/wiki/Target", priority=145)
    assert _schedule(df, queue, wiki) and queue.pop() is wiki
    assert guard.process_request(wiki) is None                     # downloaded: a 301
    redirected = _redirect(wiki, target)
    assert redirected.priority == 147 and _schedule(df, queue, redirected)
    assert _schedule(df, queue, Request(target, priority=160))    # the upgrade
    downloads = []
    while (request := queue.pop()) is not None:
        try:
            guard.process_request(request)
            downloads.append(request.priority)
        except AlreadyFetched:
            pass
    assert downloads == [160]
    assert crawler.stats.get_value("frontier/stale_duplicates_dropped") == 2


def test_the_fetch_once_guard_refuses_a_redirect_to_a_fetched_url_and_passes_a_new_one():
    """The guard alone (a redirect copy that bypassed the queue's check, as a recovered
    request's redirect past the filter does): A -> B with B never fetched passes and marks
    B fetched; a redirect to B afterwards is refused as already fetched, and so is
    it by the filter; a retry of the redirect still passes."""
    crawler, df, queue, guard = _frontier()
    a, b = "http://h.test/a.htm", "http://h.test/b.htm"
    first = Request(a, priority=50)
    assert _schedule(df, queue, first)
    assert guard.process_request(first) is None
    to_b = _redirect(first, b)
    assert not df.request_seen(to_b)                               # a new URL: queued
    assert not df.stale(to_b) and guard.process_request(to_b) is None
    assert df.known(a) and not df.mark_fetched(Request(b))         # both fetched once
    other = _redirect(Request("http://h.test/c.htm", priority=50), b)
    assert df.request_seen(other)                                  # the filter refuses it
    other = other.replace(dont_filter=True)
    assert df.stale(other)                                         # so does the queue
    with pytest.raises(AlreadyFetched, match=f"already fetched: {b}"):
        guard.process_request(other)                               # and the guard
    retried = other.replace(meta={**other.meta, "retry_times": 1})
    assert not df.stale(retried) and guard.process_request(retried) is None
    assert crawler.stats.get_value("frontier/stale_duplicates_dropped") == 1


# --- 2. re-prioritization remembers the best copy --------------------------------------------

def test_a_reprioritization_remembers_the_best_queued_copy_of_a_url():
    """A URL found first on an off-topic page, then (an upgrade) on an on-topic one: after a
    whole-queue re-scoring the filter and the spider remembered the worse copy, so a
    rediscovery between the two was queued as a third copy (found by a review)."""
    spider = SimpleNamespace(queued_priority={})
    crawler, df, queue, _ = _frontier(spider)
    scorer = LinkScorer(lambda text: 3.0 * text.count("energy"), 0.2)
    url = "http://h.test/about.htm"
    bad = scorer.score([Link(url, "about", "", False)], 0.0, 1)[0]
    good = scorer.score([Link(url, "energy energy", "energy news", True)], 0.6, 1)[0]
    for s in (bad, good):
        request = Request(url, priority=s.priority, meta={
            "link_components": dict(s.components), "link_features": s.features, "depth": 2})
        assert _schedule(df, queue, request)
        spider.queued_priority[url] = request.priority
    queue._reprioritize(scorer, TrapDetector())
    copies = sorted((r.priority for r in iter(queue.pop, None)), reverse=True)
    assert len(copies) == 2 and copies[0] >= copies[1] + 5
    assert df.best[df.fingerprint(Request(url))] == copies[0]
    assert spider.queued_priority[url] == copies[0]
    assert df.request_seen(Request(url, priority=copies[1] + 5))   # below the best copy
    assert not df.request_seen(Request(url, priority=copies[0] + 5))


# --- 3. S1 on a page with very many links ----------------------------------------------------

def _urls(rng: np.random.Generator, n: int) -> list[str]:
    """URLs of a few hosts and templates, many sharing a best match (ties)."""
    words = ["wp", "news", "cat", "a", "b", "2014"]
    out = []
    for k in range(n):
        dirs = "/".join(str(rng.choice(words)) for _ in range(rng.integers(0, 4)))
        name = "".join(rng.choice(list("abcde-"), size=rng.integers(1, 9)))
        query = "?ref=1" if k % 5 == 0 else ""
        out.append(f"http://{rng.choice(['x.test', 'sci.x.test', 'y.org'])}/{dirs}/"
                   f"{name}{k % 7}.htm{query}")
    return out


@pytest.mark.parametrize("strategy", ["auto", "pairs", "full"])
@pytest.mark.parametrize("normalise", [False, True])
def test_best_in_blocks_gives_the_scores_of_the_whole_matrix(strategy, normalise):
    rng = np.random.default_rng(7)
    urls, exemplars = _urls(rng, 150), _urls(rng, 90)
    whole = UrlSimilarity(strategy=strategy, normalise=normalise)
    M = whole.score_matrix(urls, exemplars)
    expected = whole.best(urls, exemplars)
    np.testing.assert_array_equal(expected[0], M.max(axis=1))
    np.testing.assert_array_equal(expected[1], M.argmax(axis=1))
    for cells in (1, 3 * len(exemplars), 40 * len(exemplars) + 1):
        blocked = UrlSimilarity(strategy=strategy, normalise=normalise, max_cells=cells)
        top, first = blocked.best(urls, exemplars)
        np.testing.assert_array_equal(top, expected[0])
        np.testing.assert_array_equal(first, expected[1])


def test_best_holds_no_links_by_exemplars_matrix_beyond_its_block():
    """4,000 links × 500 exemplars at once traced 61 MB (one n × m float matrix is 16 MB);
    20,000 × 3,000 took 1.9 GB (found by a review).  In blocks of 400 links: a few MB."""
    rng = np.random.default_rng(1)
    exemplars = [f"http://sci.x.test/wp/{chr(97 + k % 26)}/Article_{k}_{rng.integers(10**6)}.htm"
                 for k in range(500)]
    urls = [f"http://shop{k % 50}.x.test/cat/{k % 97}/item-{k}-{rng.integers(10**9)}.html"
            f"?ref={k}" for k in range(4000)]
    sim = UrlSimilarity()
    sim.max_cells = 200_000                       # (blocks of 400 links)
    expected = sim.best(urls, exemplars)          # (the index and caches built untraced)
    tracemalloc.start()
    try:
        top, _ = sim.best(urls, exemplars)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(top, expected[0])
    assert peak < len(urls) * len(exemplars) * 8 / 2


# --- 4. non-finite component weights ---------------------------------------------------------

def _tuned() -> ComponentWeights:
    tuning = ComponentWeights(WEIGHTS)
    for k in range(60):
        tuning.observe({"url": 0.1, "anchor": k % 2, "context": 0.2, "parent": 0.5,
                        "place": 1, "site": 0.4}, k % 2 == 0)
    return tuning


@pytest.mark.parametrize("field, bad", [("sum_xy", float("nan")), ("sum_x", float("inf")),
                                        ("sum_y", float("-inf"))])
def test_non_finite_component_weights_are_refused(field, bad):
    """JSON reads NaN: loaded, it made every weight and every link score NaN, which went to
    the top priority (found by a review)."""
    data = json.loads(json.dumps(_tuned().to_dict()))
    if field == "sum_y":
        data[field] = bad
    else:
        data[field][1] = bad
    fresh = ComponentWeights(WEIGHTS)
    with pytest.raises(ValueError, match="not a finite number"):
        fresh.load(json.loads(json.dumps(data)))
    assert fresh.n == 0                                           # left as it was


def test_a_nan_in_the_component_weights_file_names_the_file(tmp_path):
    from crawler.relevance import Topic
    from crawler.state import CrawlState

    topic = Topic(name="volcanoes", terms=("volcano",))
    CrawlState.open(tmp_path, topic).save()
    path = tmp_path / "component_weights.json"
    data = _tuned().to_dict()
    data["sum_xy"][1] = float("nan")
    path.write_text(json.dumps(data), encoding="utf-8")           # "NaN" in the file
    with pytest.raises(ValueError, match=f"{path}: damaged state file"):
        CrawlState.open(tmp_path, topic)


def test_a_nan_score_gets_the_lowest_priority():
    assert priority_of(float("nan")) == 0 and priority_of(np.float64("nan")) == 0
    assert priority_of(float("inf")) == priority_of(1.0) and priority_of(-1.0) == 0
    assert priority_of(0.5) == 100
