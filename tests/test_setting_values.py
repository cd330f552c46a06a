"""Settings read with errors naming the setting, and ``scrapy crawl``'s one-line report of a
bad crawl setup (crawler/setting_values.py, crawler/commands/crawl.py)."""
import os
import subprocess
from pathlib import Path

import pytest
from scrapy.settings import Settings

from crawler.run import crawl_command
from crawler.setting_values import directory_setting, number_setting

ROOT = Path(__file__).resolve().parent.parent
TOPIC = ROOT / "settings" / "topics" / "music.toml"


@pytest.mark.parametrize("raw, kwargs, value", [
    (None, {}, 7), ("", {}, 7), ("  ", {}, 7), ("3", {"integer": True}, 3),
    ("1e3", {"integer": True}, 1000),
    ("0.25", {"maximum": 1.0}, 0.25), (0, {"integer": True}, 0), (2.0, {}, 2.0)])
def test_a_number_setting_in_range_or_unset_is_read(raw, kwargs, value):
    got = number_setting(Settings({"N": raw}), "N", 7, **kwargs)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("raw, kwargs", [
    ("abc", {}), ("1.5", {"integer": True}), ("-1", {}), ("2", {"maximum": 1.0}),
    ("0", {"minimum": 1}), ("nan", {}), ("inf", {"integer": True}), ("inf", {}), ("-inf", {}),
    ([3], {})])
def test_a_bad_number_setting_is_an_error_naming_it_and_the_value(raw, kwargs):
    with pytest.raises(ValueError) as error:
        number_setting(Settings({"SOME_SETTING": raw}), "SOME_SETTING", 1, **kwargs)
    assert str(error.value).startswith("SOME_SETTING: expected") and repr(raw) in str(error.value)


def test_a_directory_setting_is_created_or_an_error_naming_it(tmp_path):
    assert directory_setting(str(tmp_path / "a" / "b"), "CORPUS_DIR", "corpus").is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="STATE_DIR: cannot create the directory .*file"):
        directory_setting(str(tmp_path / "file"), "STATE_DIR", "state")


def _crawl(tmp_path, topic, **settings):
    """``scrapy crawl topic`` against a closed port: the set-up runs, no page is fetched."""
    settings = {"CORPUS_DIR": str(tmp_path / "c"), "STATE_DIR": str(tmp_path / "s"),
                "RETRY_TIMES": "0", **settings}
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="crawler.settings",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(crawl_command(topic, ["http://127.0.0.1:9/"], settings), env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("setting, message", [
    ({"SITEMAP_MAX_URLS": "many"}, "SITEMAP_MAX_URLS: expected a whole number >= 0, got 'many'"),
    ({"FRONTIER_BUSY_HOST_SLACK": "2"}, "FRONTIER_BUSY_HOST_SLACK: expected a number in [0, 1]"),
    ({"CORPUS_SHARD_DOCS": "0"}, "CORPUS_SHARD_DOCS: expected a whole number >= 1, got '0'"),
    ({"EXTRACTION_METHOD": "nonsense"}, "EXTRACTION_METHOD: unknown extraction method"),
    ({"EXTRACTION_FAVOR": "speed"}, "EXTRACTION_FAVOR: favor must be one of precision, "
                                    "balanced, recall; got 'speed'"),
    ({"EXTRACTION_FAVOR": "precision", "EXTRACTION_METHOD": "e1"},
     "EXTRACTION_FAVOR: 'precision' applies to EXTRACTION_METHOD auto only, not e1"),
    ({"BACKOFF_HTTP_CODES": "429,soon"}, "BACKOFF_HTTP_CODES: expected HTTP status codes"),
    # Scrapy's own, read by the spider too (found by a review: a bare "invalid literal")
    ({"RETRY_HTTP_CODES": "500,soon"}, "RETRY_HTTP_CODES: expected HTTP status codes"),
    ({"DOWNLOAD_MAXSIZE": "big"}, "DOWNLOAD_MAXSIZE: expected a whole number >= 0"),
    # Scrapy's own number settings (found by a review: "could not convert string to float")
    ({"DOWNLOAD_DELAY": "abc"}, "DOWNLOAD_DELAY: expected a number >= 0, got 'abc'"),
    ({"CLOSESPIDER_PAGECOUNT": "abc"}, "CLOSESPIDER_PAGECOUNT: expected a whole number >= 0"),
    ({"CONCURRENT_REQUESTS": "0"}, "CONCURRENT_REQUESTS: expected a whole number >= 1")])
def test_a_bad_setting_stops_the_crawl_in_one_line_without_a_traceback(tmp_path, setting,
                                                                       message):
    result = _crawl(tmp_path, TOPIC, **setting)
    assert result.returncode == 1
    assert f"ERROR: the crawl could not start: {message}" in result.stderr, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]


def test_a_malformed_topic_file_stops_the_crawl_in_one_line_naming_file_and_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = 3\n[features]\nterms = ["a"]\n')
    result = _crawl(tmp_path, bad)
    assert result.returncode == 1
    assert f"the crawl could not start: {bad}: key 'name': expected a non-empty string" \
        in result.stderr and "Traceback" not in result.stderr, result.stderr[-3000:]


def test_a_corpus_dir_that_is_a_file_stops_the_crawl_naming_the_setting(tmp_path):
    (tmp_path / "taken").write_text("x")
    result = _crawl(tmp_path, TOPIC, CORPUS_DIR=str(tmp_path / "taken"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "CORPUS_DIR: cannot create the directory" in result.stderr


def test_a_bad_boolean_setting_is_an_error_naming_it():
    from crawler.setting_values import bool_setting

    assert bool_setting(Settings({"FOLLOW_FEEDS": "False"}), "FOLLOW_FEEDS", True) is False
    assert bool_setting(Settings(), "FOLLOW_FEEDS", True) is True
    with pytest.raises(ValueError, match="ROBOTS_META_OBEY: expected True or False.*'yes'"):
        bool_setting(Settings({"ROBOTS_META_OBEY": "yes"}), "ROBOTS_META_OBEY", True)


def test_a_date_setting_and_the_corpus_date_window():
    from datetime import date

    from crawler.corpus import DateWindow, refusal
    from crawler.setting_values import date_setting

    assert date_setting(Settings({"CORPUS_SINCE": "2024-02-01"}), "CORPUS_SINCE") \
        == date(2024, 2, 1)
    assert date_setting(Settings({"CORPUS_SINCE": "2024-02-01T10:00:00Z"}), "CORPUS_SINCE") \
        == date(2024, 2, 1)
    assert date_setting(Settings({"CORPUS_SINCE": " "}), "CORPUS_SINCE") is None
    for bad in ("yesterday", "2024-13-01", "01/02/2024"):
        with pytest.raises(ValueError, match="CORPUS_UNTIL: expected a date YYYY-MM-DD"):
            date_setting(Settings({"CORPUS_UNTIL": bad}), "CORPUS_UNTIL")
    with pytest.raises(ValueError, match="is after CORPUS_UNTIL"):
        DateWindow(date(2024, 3, 1), date(2024, 2, 1))
    window = DateWindow(date(2024, 2, 1), date(2024, 2, 29), undated=False)
    assert window.refusal("2024-02-01") is None and window.refusal("2024-02-29T23:00:00") is None
    assert window.refusal("2024-01-31")[0] == "corpus/too_old"
    assert window.refusal("2024-03-01")[1] == "published 2024-03-01, after CORPUS_UNTIL 2024-02-29"
    assert window.refusal(None)[0] == window.refusal("not a date")[0] == "corpus/undated"
    assert DateWindow().refusal(None) is None and not DateWindow().active
    # a duplicate's reason comes first; no window, no date refusal
    assert refusal("http://a/", set(), 0.0, published="2020-01-01", window=window)[0] \
        == "corpus/duplicate"
    assert refusal(None, set(), 0.0, published="2020-01-01") is None
