"""One crawl per CORPUS_DIR / STATE_DIR: a second process is refused with a clear error."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from crawler.dirlock import lock_directory, unlock_directory


def _other_process_locks(directory) -> subprocess.CompletedProcess:
    code = textwrap.dedent(f"""
        from crawler.dirlock import lock_directory
        try:
            lock_directory({str(directory)!r}, "CORPUS_DIR")
        except ValueError as err:
            print(err)
            raise SystemExit(3)
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)


def test_a_directory_in_use_is_refused_to_another_process_until_released(tmp_path):
    lock_directory(tmp_path, "CORPUS_DIR")
    lock_directory(tmp_path, "CORPUS_DIR")           # the same process may again
    try:
        busy = _other_process_locks(tmp_path)
        assert busy.returncode == 3
        assert "CORPUS_DIR" in busy.stdout and "another crawl" in busy.stdout
        unlock_directory(tmp_path)
        assert _other_process_locks(tmp_path).returncode == 3    # still held once
    finally:
        unlock_directory(tmp_path)
    assert _other_process_locks(tmp_path).returncode == 0


def test_the_spider_refuses_a_corpus_dir_another_crawl_holds(tmp_path):
    from scrapy.utils.test import get_crawler

    from crawler.spiders.topic import TopicSpider

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from crawler.dirlock import lock_directory
            lock_directory({str(corpus)!r}, "CORPUS_DIR")
            print("locked", flush=True)
            time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        topic = tmp_path / "t.toml"
        topic.write_text('name = "t"\n[features]\nterms = ["volcano"]\n', encoding="utf-8")
        crawler = get_crawler(TopicSpider, {"CORPUS_DIR": str(corpus),
                                            "STATE_DIR": str(tmp_path / "state")})
        with pytest.raises(ValueError, match="CORPUS_DIR: .* in use by another crawl"):
            TopicSpider.from_crawler(crawler, seed="http://a.test/", topic=str(topic))
    finally:
        holder.kill()
        holder.wait()


def test_the_spider_refuses_a_jobdir_another_crawl_holds(tmp_path):
    """Two crawls of one JOBDIR (a cron job started while the last one still runs, with
    another corpus) would interleave its journal and queue: the second is refused."""
    from scrapy.utils.test import get_crawler

    from crawler.spiders.topic import TopicSpider

    job = tmp_path / "job"
    topic = tmp_path / "t.toml"
    topic.write_text('name = "t"\n[features]\nterms = ["volcano"]\n', encoding="utf-8")
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import time
            from pathlib import Path
            from crawler.dirlock import lock_directory
            Path({str(job)!r}).mkdir()
            lock_directory({str(job)!r}, "JOBDIR")
            print("locked", flush=True)
            time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        crawler = get_crawler(TopicSpider, {"CORPUS_DIR": str(tmp_path / "c1"),
                                            "STATE_DIR": str(tmp_path / "s1"),
                                            "JOBDIR": str(job)})
        with pytest.raises(ValueError, match="JOBDIR: .* in use by another crawl"):
            TopicSpider.from_crawler(crawler, seed="http://a.test/", topic=str(topic))
    finally:
        holder.kill()
        holder.wait()



def test_a_crawl_log_another_crawl_writes_is_refused(tmp_path):
    from crawler.crawl_log import CrawlLog

    path = tmp_path / "elsewhere" / "crawl-log.jsonl"    # outside any locked directory
    code = textwrap.dedent(f"""
        from crawler.crawl_log import CrawlLog
        try:
            CrawlLog({str(path)!r}).close()
        except ValueError as err:
            print(err)
            raise SystemExit(3)
    """)

    def other_crawl() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=60)

    first = CrawlLog(path)
    first.complete(first.open_entry({"url": "http://a.test/", "status": 200}))
    busy = other_crawl()
    assert busy.returncode == 3 and "CRAWL_LOG" in busy.stdout \
        and "written by another crawl" in busy.stdout
    first.close()
    assert other_crawl().returncode == 0        # free again once the first crawl closed it
    assert path.read_text().count("\n") == 1
