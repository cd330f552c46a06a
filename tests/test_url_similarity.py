"""S1 (ALGORITHMS.md §7): URL decomposition, similarity, batch scorer and weight tuning."""
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from crawler.url_similarity import (UrlParts, UrlSimilarity, WeightTuner, decompose,
                                    element_similarity, initial_weights, merge_dates,
                                    split_host, value_type, vector_similarity)

PRINTED = ("htttp://edition.cnn.com//2014/06/06/sport/football/"
           "world-cup-franck-ribery-injured-france/index.html?hpt=isp_c2")


# --- a-1: decomposition ---------------------------------------------------------------------

def test_printed_example_decomposes_into_the_vectors_of_7_5():
    p = decompose(PRINTED)
    assert p.host == ("edition", "cnn", "edition.cnn.com")
    assert p.dirs == (("2014/06/06", "digital"), ("sport", "string"), ("football", "string"),
                      ("world-cup-franck-ribery-injured-france", "string"))
    assert p.file == ("index", "html", "yes", "index.html", "string", "yes")
    assert p.depth == 4


def test_file_vector_without_dot_without_name_and_without_query():
    assert decompose("http://a.com/x/readme").file == ("0", "0", "no", "readme", "string", "no")
    assert decompose("http://a.com/x/").file == ("0", "0", "no", "", "", "no")
    assert decompose("http://a.com").file == ("0", "0", "no", "", "", "no")
    assert decompose("http://a.com/x/?q=1").file == ("0", "0", "no", "", "", "yes")
    assert decompose("http://a.com/a1.b.php?").file[5] == "no"            # empty query
    f = decompose("http://a.com/jquery.min.js").file
    assert f[:4] == ("jquery.min", "js", "yes", "jquery.min.js")          # last dot
    assert decompose("http://a.com/v2.html").file[4] == "mix"


@pytest.mark.parametrize("segs, merged", [
    (["2014", "06", "06"], ["2014/06/06"]),
    (["2014", "6", "6", "x"], ["2014/6/6", "x"]),
    (["2014", "06"], ["2014/06"]),
    (["201406", "06"], ["201406/06"]),
    (["2014", "0606"], ["2014/0606"]),
    (["news", "2014", "123456"], ["news", "2014", "123456"]),     # not a month
    (["2014", "13", "01"], ["2014", "13", "01"]),                 # month 13
    (["1234", "05"], ["1234", "05"]),                             # not a plausible year
    (["2014", "06", "06", "2015", "01"], ["2014/06/06", "2015/01"]),
])
def test_date_merging(segs, merged):
    assert merge_dates(segs) == merged


def test_value_types():
    assert [value_type(s) for s in ("2014", "2014/06/06", "2014-06-06", "sport",
                                    "world-cup", "a1b2", "新闻", "")] == \
        ["digital", "digital", "digital", "string", "string", "mix", "string", ""]


@pytest.mark.parametrize("host, vector", [
    ("sci.wikischools.test", ("sci", "wikischools", "sci.wikischools.test")),
    ("a.b.wikischools.test", ("a.b", "wikischools", "a.b.wikischools.test")),
    ("wikischools.test", ("", "wikischools", "wikischools.test")),
    ("news.sina.com.cn", ("news", "sina", "news.sina.com.cn")),
    ("www.bbc.co.uk", ("www", "bbc", "www.bbc.co.uk")),
    ("localhost", ("", "localhost", "localhost")),
    ("127.0.0.1", ("", "127.0.0.1", "127.0.0.1")),
    ("::1", ("", "::1", "::1")),
    ("", ("", "", "")),
])
def test_server_name_vector(host, vector):
    assert split_host(host) == vector


def test_test_hosts_in_full_urls():
    p = decompose("http://sci.wikischools.test/wp/s/Screw.htm")
    assert p.host == ("sci", "wikischools", "sci.wikischools.test")
    assert p.dirs == (("wp", "string"), ("s", "string"))
    assert p.file == ("Screw", "htm", "yes", "Screw.htm", "string", "no")


def test_ports_user_info_case_fragments_and_empty_segments_are_dropped():
    a = decompose("HTTPS://user:pw@WWW.Example.COM:8080//a///b/c.html?x=1#frag")
    assert a.host == ("www", "example", "www.example.com")
    assert a.dirs == (("a", "string"), ("b", "string"))
    assert a.file == ("c", "html", "yes", "c.html", "string", "yes")
    assert decompose("http://www.example.com/a/b/c.html?y=2") == a     # scheme, query text
    assert decompose("http://x.com/a#b/c") == decompose("http://x.com/a")


def test_unicode_idna_and_percent_encoding_agree():
    raw = decompose("http://新闻.例子.中国/体育/2014/06/文章.html")
    enc = decompose("http://xn--efvy88h.xn--fsqu00a.xn--fiqs8s/%E4%BD%93%E8%82%B2/2014/06/"
                    "%E6%96%87%E7%AB%A0.html")
    assert raw == enc
    assert raw.host == ("新闻", "例子", "新闻.例子.中国")
    assert raw.dirs == (("体育", "string"), ("2014/06", "digital"))
    assert raw.file[:4] == ("文章", "html", "yes", "文章.html")
    # an encoded slash stays inside its segment
    assert decompose("http://a.com/x%2Fy/z").dirs == (("x/y", "string"),)


@pytest.mark.parametrize("url", [
    "", "   ", "javascript:void(0)", "mailto:someone@example.com", "http://", "http:///x",
    "http://[::1", "http://a.com:notaport/x", "//a.com/b.html", "relative/path.html", "?q",
    "#frag", "http://a.com/%zz%/x", "\x00\x01", "http://" + "a" * 5000 + ".com/" + "b/" * 2000,
    "http://a.com/" + "x" * 100000, None, 12345,
])
def test_garbage_never_raises(url):
    p = decompose(url)
    assert isinstance(p, UrlParts) and len(p.host) == 3 and len(p.file) == 6
    sim = UrlSimilarity()
    s = sim.score(url, PRINTED)
    assert 0.0 <= s <= 1.0
    M = sim.score_matrix([url, PRINTED], [PRINTED, url, "mailto:x@y.z"])
    assert M.shape == (2, 3) and np.isfinite(M).all()
    assert M[0, 0] == pytest.approx(s, abs=1e-12)
    best, arg = sim.best([url], [PRINTED, url])
    assert arg[0] in (0, 1) and best[0] == pytest.approx(M[0, :2].max(), abs=1e-12)
    WeightTuner().observe(url)


def test_non_http_schemes_have_no_host():
    assert decompose("mailto:someone@example.com").host == ("", "", "")
    assert decompose("javascript:void(0)").host == ("", "", "")
    assert decompose("").depth == 0


def test_public_suffix_list_is_offline():
    code = ("import socket\n"
            "def boom(*a, **k): raise RuntimeError('network used')\n"
            "socket.socket.connect = socket.socket.connect_ex = boom\n"
            "socket.create_connection = socket.getaddrinfo = boom\n"
            "from crawler.url_similarity import split_host\n"
            "assert split_host('edition.cnn.com') == ('edition', 'cnn', 'edition.cnn.com')\n"
            "assert split_host('news.sina.com.cn')[1] == 'sina'\n"
            "assert split_host('sci.wikischools.test')[1] == 'wikischools'\n"
            "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


# --- a-2: similarity ------------------------------------------------------------------------

def test_vector_similarity_formula_1():
    v = ["edition", "cnn", "edition.cnn.com"]
    assert vector_similarity(v, v) == 1.0
    assert vector_similarity(["ab"], ["ac"]) == 0.5
    assert vector_similarity([], []) == 1.0
    assert vector_similarity([""], [""]) == 1.0
    assert vector_similarity(["ab", ""], ["ab", "x"]) == 0.5
    assert element_similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)   # Levenshtein
    assert element_similarity("ab", "ba") == 0.0            # no transpositions
    assert element_similarity("abc", "") == 0.0


def test_initial_weights_default():
    w = initial_weights(10, 0.1, 0.1)
    assert len(w) == 11 and w.sum() == pytest.approx(0.8)
    assert np.all(np.diff(w) < 0)
    assert w[0] / w[10] == pytest.approx(11.0)


def test_reading_b_identical_urls_score_one_when_all_weighted_levels_exist():
    u = "http://edition.cnn.com/2014/06/06/sport/football/x/index.html"   # depth 4
    assert UrlSimilarity(K=4).score(u, u) == pytest.approx(1.0, abs=1e-12)
    assert UrlSimilarity(K=3).score(u, u) == pytest.approx(1.0, abs=1e-12)
    sim = UrlSimilarity()                                  # K = 10: levels 5..10 missing
    w = sim.levels
    assert sim.score(u, u) == pytest.approx(w[:5].sum() + 0.2, abs=1e-12)
    assert sim.score(u, u) < 1.0
    assert UrlSimilarity(normalise=True).score(u, u) == pytest.approx(1.0, abs=1e-12)


def test_reading_b_file_name_difference_costs_exactly_w_f_times_one_minus_s_f():
    a = "http://edition.cnn.com/2014/06/06/sport/football/index.html?hpt=1"
    b = "http://edition.cnn.com/2014/06/06/sport/football/story-12.shtml"
    for sim in (UrlSimilarity(), UrlSimilarity(K=4), UrlSimilarity(weights=[.3, .2, .2, .1],
                                                                   K=3)):
        s_f = vector_similarity(decompose(a).file, decompose(b).file)
        assert 0 < s_f < 1
        assert sim.score(a, a) - sim.score(a, b) == pytest.approx(sim.w_f * (1 - s_f),
                                                                  abs=1e-12)


def test_reading_a_nests_the_weights():
    u = "http://a.com/x/y/z.html"
    sim = UrlSimilarity(weights=[0.4, 0.25, 0.15], K=2, reading="A")
    w_d, w_t = 0.4, 0.2
    assert sim.score(u, u) == pytest.approx(0.4 + w_d ** 2 + w_t ** 2, abs=1e-12)
    v = "http://a.com/x/q/z.html"
    s2 = vector_similarity(["y", "string"], ["q", "string"])
    assert sim.score(u, u) - sim.score(u, v) == pytest.approx(w_d * 0.15 * (1 - s2),
                                                              abs=1e-12)
    with pytest.raises(ValueError):
        UrlSimilarity(reading="C")


def test_depth_difference_and_levels_beyond_the_shorter_url():
    sim = UrlSimilarity(weights=[0.4, 0.2, 0.2], K=2)
    a, b = "http://a.com/x/y/f.html", "http://a.com/x/f.html"
    # host 1, level 1 identical, level 2 missing -> 0, file identical, depth differs -> 0
    assert sim.score(a, b) == pytest.approx(0.4 + 0.2 + 0.1, abs=1e-12)
    assert sim.score(a, b) == sim.score(b, a)


def test_normalise_divides_by_the_weight_of_the_levels_of_the_deeper_url():
    w = [0.3, 0.2, 0.2, 0.1]
    a, b = "http://a.com/x/y/f.html", "http://a.com/x/f.html"
    plain = UrlSimilarity(weights=w, K=3)
    norm = UrlSimilarity(weights=w, K=3, normalise=True)
    assert plain.score(a, b) == pytest.approx(0.3 + 0.2 + 0.1, abs=1e-12)
    assert norm.score(a, b) == pytest.approx(0.6 / (0.3 + 0.2 + 0.2 + 0.2), abs=1e-12)
    np.testing.assert_allclose(norm.score_matrix([a, b], [b, a]),
                               [[0.6 / 0.9, 1.0], [1.0, 0.6 / 0.9]], atol=1e-12)


def test_score_matrix_and_best_on_a_small_example():
    sim = UrlSimilarity()
    urls = ["http://a.com/news/1/x.html", "http://b.com/2014/06/06/y", "mailto:q@r.s"]
    ex = ["http://c.org/", "http://a.com/news/3/x.html", "http://a.com/news/3/x.html"]
    M = sim.score_matrix(urls, ex)
    ref = np.array([[sim.score(u, e) for e in ex] for u in urls])
    np.testing.assert_allclose(M, ref, rtol=0, atol=1e-12)
    best, arg = sim.best(urls, ex)
    assert arg[0] == 1                                  # first of two equal exemplars
    np.testing.assert_array_equal(best, M.max(1))
    np.testing.assert_array_equal(arg, M.argmax(1))
    assert sim.score_matrix([], ex).shape == (0, 3)
    assert sim.score_matrix(urls, []).shape == (3, 0)
    b, a = sim.best(urls, [])
    assert list(a) == [-1, -1, -1] and list(b) == [0, 0, 0]
    assert sim.best([], ex)[0].shape == (0,)


def test_set_weights_changes_scores_but_keeps_the_index_valid():
    sim = UrlSimilarity(K=2)
    urls, ex = ["http://a.com/x/y/1.html"], ["http://a.com/x/z/2.html", "http://b.com/"]
    before = sim.score_matrix(urls, ex)
    sim.set_weights([0.1, 0.6, 0.1], w_f=0.15, w_dd=0.05)
    after = sim.score_matrix(urls, ex)
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after, [[sim.score(urls[0], e) for e in ex]], atol=1e-12)
    with pytest.raises(ValueError):
        sim.set_weights([0.5, 0.5])


# --- batch scorer == scalar score (property) ------------------------------------------------

_HOSTS = st.sampled_from(["a.com", "www.a.com", "news.a.com", "b.org", "sci.wikischools.test",
                          "hum.wikischools.test", "news.sina.com.cn", "127.0.0.1", "例子.中国"])
_SEGS = st.sampled_from(["news", "new", "sport", "2014", "06", "07", "2015", "12345678",
                         "12345679", "a1", "wp", "s", "t", "world-cup", "体育", "%E4%BD%93",
                         "x" * 70])
_FILES = st.sampled_from(["", "index.html", "index.htm", "Screw.htm", "Screws.htm", "a.b.js",
                          "readme", "story-1.shtml", "story-2.shtml", "06", "新闻.html", ".x"])
_URL = st.builds(
    lambda h, port, segs, f, q, frag: (f"http://{h}{port}/" + "/".join(segs)
                                       + ("/" if segs else "") + f + q + frag),
    _HOSTS, st.sampled_from(["", ":8080"]), st.lists(_SEGS, max_size=6), _FILES,
    st.sampled_from(["", "?a=1", "?"]), st.sampled_from(["", "#top"]))
_URLS = st.lists(_URL | st.sampled_from(["", "mailto:a@b.c", "javascript:void(0)"]),
                 min_size=1, max_size=9)
_CONFIGS = st.fixed_dictionaries({
    "K": st.sampled_from([0, 1, 3, 10]),
    "reading": st.sampled_from(["A", "B"]),
    "normalise": st.booleans(),
    "combo_vocab": st.sampled_from([0, 2, 2048]),
    "combo_cap": st.sampled_from([1, 3, 1024]),
    "strategy": st.sampled_from(["auto", "pairs", "full"]),
})


def _assert_matrix_and_best_match_scalar_score(sim, urls, exemplars):
    M = sim.score_matrix(urls, exemplars)
    ref = np.array([[sim.score(u, e) for e in exemplars] for u in urls])
    np.testing.assert_allclose(M, ref, rtol=0, atol=1e-12)
    best, arg = sim.best(urls, exemplars)
    np.testing.assert_array_equal(best, M.max(axis=1))
    np.testing.assert_array_equal(arg, M.argmax(axis=1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(urls=_URLS, exemplars=_URLS, config=_CONFIGS, seed=st.integers(0, 2 ** 16))
def test_score_matrix_equals_scalar_score_and_best_equals_its_argmax(urls, exemplars, config,
                                                                     seed):
    sim = UrlSimilarity(**config)
    if seed % 3 == 0:                       # random weights, some zero
        rng = np.random.default_rng(seed)
        w = rng.random(sim.K + 1) * (rng.random(sim.K + 1) > 0.3)
        sim.set_weights(w, w_f=float(rng.random()) * 0.3, w_dd=float(rng.random()) * 0.3)
    _assert_matrix_and_best_match_scalar_score(sim, urls, exemplars)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(urls=_URLS, exemplars=st.lists(_URL, min_size=2, max_size=14), config=_CONFIGS)
def test_growing_exemplar_lists_extend_the_index_correctly(urls, exemplars, config):
    sim = UrlSimilarity(**config)
    grown = []
    for e in exemplars:
        grown.append(e)                               # the crawler appends exemplars
        _assert_matrix_and_best_match_scalar_score(sim, urls, grown)


def test_index_extension_is_used_and_replanned():
    sim = UrlSimilarity()
    ex = [f"http://a.com/c{k % 3}/{k}/p{k}.html" for k in range(40)]
    first = sim.index(ex[:10])
    assert sim.index(ex[:12]) is first and first.m == 12        # extended in place
    assert sim.index(ex[:20]) is first and first.built == 10
    rebuilt = sim.index(ex[:21])                                # more than doubled: new plan
    assert rebuilt is not first and rebuilt.built == 21
    assert sim.index(ex[:21]) is rebuilt                         # cached
    big = [f"http://b.com/d{k % 7}/x{k}.html" for k in range(100)]
    kept = sim.index(big)
    for k in range(10):                                          # one-off small lists
        sim.score_matrix(["http://b.com/"], [f"http://c{k}.com/"])
    assert sim.index(big) is kept


def test_batch_scorer_on_many_urls_uses_both_strategies_consistently():
    rng = np.random.default_rng(0)
    words = ["news", "sport", "tech", "wp", "a", "b", "c"]

    def url(k):
        slug = "".join(rng.choice(list("abcdefg-"), size=rng.integers(3, 20)))
        parts = [str(rng.choice(words)) for _ in range(rng.integers(0, 3))]
        return (f"http://{rng.choice(['x.com', 'y.x.com', 'z.org'])}/" + "/".join(parts)
                + f"/{slug}/{slug[:rng.integers(1, 6)]}{k}.html")

    urls = [url(k) for k in range(120)]
    ex = [url(k) for k in range(400)]
    results = []
    for strategy in ("auto", "pairs", "full"):
        sim = UrlSimilarity(strategy=strategy)
        results.append(sim.best(urls, ex))
    M = sim.score_matrix(urls, ex)
    for best, arg in results:
        np.testing.assert_array_equal(best, M.max(1))
        np.testing.assert_array_equal(arg, M.argmax(1))
    for i, j in [(0, 0), (5, 17), (119, 399), (60, 200)]:
        assert M[i, j] == pytest.approx(sim.score(urls[i], ex[j]), abs=1e-12)


# --- a-3: weight update ---------------------------------------------------------------------

def _news_urls(n, seed=0):
    rng = np.random.default_rng(seed)
    ids = rng.choice(10 ** 8, size=n, replace=False)
    return [f"http://a.com/news/{i:08d}/index.html" for i in ids]


def test_weight_update_on_1000_news_urls_gives_host_and_channel_the_budget():
    t = WeightTuner()
    flags = [t.observe(u) for u in _news_urls(1000)]
    assert flags.count(True) == 1 and flags[-1]          # the update came at the 1000th URL
    w = t.levels
    assert w.sum() == pytest.approx(0.8)
    assert w[0] + w[1] > 0.99 * 0.8
    assert w[0] == pytest.approx(0.4) and w[1] == pytest.approx(0.4)
    assert w[2] < 1e-9 and np.all(w[3:] == 0)
    assert t.w_f == 0.1 and t.w_dd == 0.1
    sim = UrlSimilarity(weights=w)
    a, b = "http://a.com/news/00000001/index.html", "http://a.com/news/99999999/index.html"
    assert sim.score(a, b) == pytest.approx(1.0, abs=1e-9)     # the id level no longer counts


def test_weight_update_gamma_interval_and_fraction():
    t = WeightTuner(K=2, gamma=5, interval=10)
    urls = [f"http://h.com/c{k % 2}/u{k}/" for k in range(10)]
    assert not any(t.observe(u) for u in urls[:9]) and t.observe(urls[9])
    assert t.raw_weights().tolist() == [1.0, 1.0, 0.0]          # c0, c1 each 5 >= gamma
    t2 = WeightTuner(K=2, gamma=6, interval=10)
    t2.observe_many(urls)
    assert t2.raw_weights().tolist() == [1.0, 0.0, 0.0]         # 5 < 6
    assert t2.levels.tolist() == pytest.approx([0.8, 0.0, 0.0])
    t3 = WeightTuner(K=2, gamma=0.5, gamma_is_fraction=True, interval=10)
    t3.observe_many(urls)
    assert t3.raw_weights().tolist() == [1.0, 1.0, 0.0]         # 5 >= 0.5 * 10
    t4 = WeightTuner(K=2, interval=10)
    before = t4.levels
    t4.observe_many([f"http://h{k}.com/u{k}/" for k in range(10)])   # nothing frequent
    assert t4.levels.tolist() == before.tolist()
    assert not WeightTuner().observe("mailto:a@b.c")             # no host: ignored


def test_weight_tuner_persistence_round_trip(tmp_path):
    urls = _news_urls(1500, seed=1) + [f"http://b.com/x/{k}/" for k in range(300)]
    whole = WeightTuner()
    whole.observe_many(urls)
    first = WeightTuner()
    first.observe_many(urls[:1200])
    path = tmp_path / "state" / "s1_weights.json"
    first.save(path)
    assert [p.name for p in path.parent.iterdir()] == ["s1_weights.json"]   # no temp file
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["num_urls"] == 1200 and data["since_update"] == 200
    second = WeightTuner.load(path)
    assert second.to_dict() == first.to_dict()
    second.observe_many(urls[1200:])
    assert second.to_dict() == whole.to_dict()
    assert WeightTuner.from_dict(whole.to_dict()).levels.tolist() == whole.levels.tolist()
    first.observe_many(urls[1200:])
    first.save(path)                                           # overwrite in place
    assert WeightTuner.load(path).to_dict() == whole.to_dict()
    with pytest.raises(ValueError):
        WeightTuner.from_dict({"format": "something else"})


def test_tuner_weights_drive_the_similarity():
    t = WeightTuner(K=3)
    t.observe_many(_news_urls(1000))
    sim = UrlSimilarity(K=3)
    sim.set_weights(t.levels, t.w_f, t.w_dd)
    assert sim.weights == t.weights
    ex = ["http://a.com/news/12345678/index.html"]
    near, far = sim.best(["http://a.com/news/87654321/index.html",
                          "http://a.com/sport/12345678/index.html"], ex)[0]
    assert near > far


def test_the_weight_tuners_counts_stay_bounded(monkeypatch):
    """ID-like directories add two values a URL at every position and every value stayed
    counted for ever, re-summed at every update (a review): past MAX_VALUES a position forgets
    the values seen once; frequent ones keep their counts."""
    import crawler.url_similarity as us

    monkeypatch.setattr(us, "MAX_VALUES", 50)
    tuner = us.WeightTuner(interval=20)
    for i in range(400):
        tuner.observe(f"http://a.test/items/{i}/detail-{i}/page.htm")
    assert all(len(pos) <= 50 + 20 * 2 for pos in tuner.counts)
    assert tuner.counts[1]["items"] == 400 and tuner.counts[0]["a.test"] == 400
