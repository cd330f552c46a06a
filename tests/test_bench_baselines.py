"""bench/crawl_baselines.py against the baselines the test web's README publishes."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from crawl_baselines import LinkGraph, crawl, recall  # noqa: E402

from crawler.testweb.archive import load_web  # noqa: E402


@pytest.fixture(scope="module")
def graph(shared):
    path = shared / "testweb" / "wikischools"
    if not path.is_dir():
        pytest.skip("wikischools test web not present")
    return LinkGraph(load_web(path))


def test_baselines_reproduce_the_published_figures(graph):
    # shared/testweb/wikischools/README.md, "Naive baselines", IT row: breadth-first and
    # best-first on the true parent label at 250 / 500 / 1,000 / 2,000 fetches
    targets = {u for u in graph.web.labels if graph.web.on_topic(u, "subject.IT")}
    budgets = (250, 500, 1000, 2000)
    bfs = crawl(graph, "subject.IT", "breadth-first", 2000)
    parent = crawl(graph, "subject.IT", "true-parent", 2000)
    assert [round(recall(bfs, targets, b), 3) for b in budgets] == [0.048, 0.157, 0.157, 0.229]
    assert [round(recall(parent, targets, b), 3) for b in budgets] == [0.711, 0.855, 0.855,
                                                                          0.867]
    # the oracle: published 0.880 at 1,000 (it also requests PDF/PNG links, which we never do)
    oracle = crawl(graph, "subject.IT", "oracle", 1000)
    assert recall(oracle, targets, 1000) == pytest.approx(0.880, abs=0.01)
    assert len(bfs) == 2000 and len({u for u, _ in bfs}) == 2000   # no URL fetched twice
