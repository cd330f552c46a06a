"""StallMonitor's periodic state checkpoints are by elapsed time, not by response count, and
spaced by their own duration."""
from __future__ import annotations

from types import SimpleNamespace

from crawler import extensions
from crawler.extensions import StallMonitor


class CountingState:
    def __init__(self):
        self.saves = 0

    def save(self):
        self.saves += 1


def monitor(interval: float, jobdir: str | None = None) -> tuple[StallMonitor, CountingState]:
    from scrapy.settings import Settings

    state = CountingState()
    crawler = SimpleNamespace(spider=SimpleNamespace(crawl_state=state, state={}),
                              settings=Settings({"JOBDIR": jobdir}))
    return StallMonitor(crawler, timeout=300, save_interval=interval), state


def test_a_checkpoint_writes_the_jobs_spider_state_as_scrapy_reads_it(monkeypatch, tmp_path):
    """Scrapy's SpiderState writes JOBDIR/spider.state only on close: each checkpoint writes
    it too, so a job killed hard resumes with its per-host request counts."""
    from scrapy.extensions.spiderstate import SpiderState

    clock = [1000.0]
    monkeypatch.setattr(extensions.time, "monotonic", lambda: clock[0])
    ext, _ = monitor(60, str(tmp_path))
    ext.crawler.spider.state["host_requests"] = {"a.test": 3}
    ext.response_received()
    assert not (tmp_path / "spider.state").exists()        # no checkpoint yet
    clock[0] += 61
    ext.response_received()
    resumed = SimpleNamespace()
    SpiderState(str(tmp_path)).spider_opened(resumed)
    assert resumed.state == {"host_requests": {"a.test": 3}}
    plain, _ = monitor(60)                                  # no JOBDIR: nothing written
    clock[0] += 61
    plain.response_received()
    assert [p.name for p in tmp_path.iterdir()] == ["spider.state"]


def test_checkpoint_at_the_first_response_after_each_interval(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(extensions.time, "monotonic", lambda: clock[0])
    ext, state = monitor(60)
    for _ in range(5000):                   # many responses within one interval: no save
        clock[0] += 0.01
        ext.response_received()
    assert state.saves == 0
    clock[0] = 1061.0
    ext.response_received()
    assert state.saves == 1
    ext.response_received()                 # the interval restarts at the checkpoint
    clock[0] = 1100.0
    ext.response_received()
    assert state.saves == 1
    clock[0] = 1121.5
    ext.response_received()
    assert state.saves == 2


def test_interval_zero_never_checkpoints_during_the_crawl(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(extensions.time, "monotonic", lambda: clock[0])
    ext, state = monitor(0)
    for _ in range(100):
        clock[0] += 3600
        ext.response_received()
    assert state.saves == 0


def test_a_slow_checkpoint_spaces_the_next_ones(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(extensions.time, "monotonic", lambda: clock[0])
    ext, state = monitor(60)
    slow = state.save

    def save():                             # a large state: each save takes 10 s
        slow()
        clock[0] += 10.0
    state.save = save
    clock[0] = 61.0
    ext.response_received()
    assert state.saves == 1 and ext.save_seconds == 10.0     # done at 71 s
    clock[0] = 71.0 + 150.0                 # interval (60 s) over, 20 x 10 s not
    ext.response_received()
    assert state.saves == 1
    clock[0] = 71.0 + 200.0
    ext.response_received()
    assert state.saves == 2
    # with every save taking 10 s, saving takes 10 of every 210 s: under 1/20 of the time
    saved_at = clock[0]
    for _ in range(2000):
        clock[0] += 1.0
        ext.response_received()
    assert state.saves - 2 <= (clock[0] - saved_at) / (extensions.SAVE_SPACING * 10.0) + 1


def test_a_failing_checkpoint_is_not_retried_at_every_response(monkeypatch):
    import pytest
    clock = [0.0]
    monkeypatch.setattr(extensions.time, "monotonic", lambda: clock[0])
    ext, state = monitor(60)
    attempts = []

    def broken():                           # disk full: each attempt takes 5 s, then fails
        attempts.append(clock[0])
        clock[0] += 5.0
        raise OSError("No space left on device")
    state.save = broken
    clock[0] = 61.0
    with pytest.raises(OSError):
        ext.response_received()
    for _ in range(100):
        clock[0] += 1.0
        try:
            ext.response_received()
        except OSError:
            pass
    assert len(attempts) == 2               # at 61 s, then once the wait (100 s) is over


def test_garbage_collection_thresholds_are_set_for_the_crawl_and_restored():
    import gc

    import pytest
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.test import get_crawler

    from crawler.extensions import GarbageCollection, gc_thresholds

    assert gc_thresholds("50000, 50,100") == (50000, 50, 100)
    assert gc_thresholds("python") is None and gc_thresholds("") is None
    for bad in ("1,2", "0,10,10", "a,b,c", "1,2,3,4", "99999999999999999999,1,1"):
        with pytest.raises(ValueError, match="GC_THRESHOLDS"):
            gc_thresholds(bad)
    with pytest.raises(NotConfigured):
        GarbageCollection.from_crawler(get_crawler(settings_dict={"GC_THRESHOLDS": "python"}))
    assert GarbageCollection.from_crawler(get_crawler()).thresholds == (50000, 50, 100)
    stats = {}
    crawler = SimpleNamespace(stats=SimpleNamespace(set_value=stats.__setitem__))
    ext = GarbageCollection(crawler, gc_thresholds("40000,30,60"))
    before = gc.get_threshold()
    ext.engine_started()
    try:
        assert gc.get_threshold() == (40000, 30, 60)
        assert gc.get_freeze_count() > 0
        gc.collect(0)
        assert ext.collections >= 1
    finally:
        ext.engine_stopped()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    assert stats["gc/collections"] >= 1 and stats["gc/seconds"] >= 0


def test_responses_a_retry_takes_are_no_stall(monkeypatch):
    """A 503 storm under back-off: RetryMiddleware turns every response into a retry, so the
    engine "receives" none, but the host answers; the crawl ended as stalled (found by a
    review).  A download counts as a sign of life; silence still ends the crawl."""
    from scrapy import signals
    from scrapy.settings import Settings
    from scrapy.signalmanager import SignalManager

    clock = [1000.0]
    monkeypatch.setattr(extensions.time, "monotonic", lambda: clock[0])
    ended = []
    monkeypatch.setattr(extensions, "end_crawl", lambda crawler, reason, *a, **k:
                        ended.append(reason))
    crawler = SimpleNamespace(spider=SimpleNamespace(crawl_state=CountingState(), state={}),
                              settings=Settings({"STALL_TIMEOUT": 300}),
                              signals=SignalManager())
    ext = StallMonitor.from_crawler(crawler)
    ext._task = SimpleNamespace(schedule=lambda delay: None)
    for _ in range(10):                     # a 503 every 100 s for 1,000 s
        clock[0] += 100
        crawler.signals.send_catch_log(signals.response_downloaded, response=None,
                                       request=None, spider=None)
        ext._check()
    assert ended == []
    clock[0] += 301
    ext._check()
    assert ended and ended[0].startswith("stalled")
