"""crawler.topic_draft: a topic file drafted from example pages."""
from __future__ import annotations

import random

import pytest

from crawler.relevance.topic import load_topic, topic_from_dict
from crawler.testweb import load_web, serve_in_thread
from crawler.topic_draft import (Candidate, DraftError, best_threshold, draft,
                                 example_from_html, load_examples, main, page_candidates,
                                 rank_candidates, recall_threshold, score_examples, select,
                                 to_toml)


@pytest.fixture(scope="module")
def demo():
    return load_web("demo")


def labelled(web, prefix):
    pages = [u for u, subjects in sorted(web.labels.items()) if subjects]
    return ([u for u in pages if web.on_topic(u, prefix)],
            [u for u in pages if not web.on_topic(u, prefix)])


def examples(web, urls):
    out = [example_from_html(web.get(u).body, u, u) for u in urls]
    assert not [e for e in out if isinstance(e, str)]
    return out


def test_draft_from_the_demo_web_separates_held_out_pages(demo, tmp_path):
    on, off = labelled(demo, "subject.Energy")
    pos, neg = examples(demo, on), examples(demo, off)
    assert {e.language for e in pos} == {"en", "zh"}
    d = draft("energy", pos[::2], neg[::2])
    path = tmp_path / "energy.toml"
    path.write_text(to_toml(d), encoding="utf-8")
    topic = load_topic(path)
    assert {"energy", "wind", "electricity"} <= set(topic.terms)
    assert any("\u4e00" <= ch <= "\u9fff" for term in topic.terms for ch in term)  # Chinese
    assert "Helen Marsh" in topic.subjects          # a byline: a name, for review
    assert topic.threshold is not None and d.cv is not None and d.rule == "recall"
    assert len(d.scores[0]) == len(pos[::2]) and len(d.scores[1]) == len(neg[::2])
    # pages the draft never saw: every energy page scores above every other page
    held_pos = score_examples(topic, pos[1::2], pos + neg)
    held_neg = score_examples(topic, neg[1::2], pos + neg)
    assert min(held_pos) > max(held_neg)
    # the f1 rule: the best F1 over the same out-of-fold scores
    assert best_threshold(*d.scores)[1][2] >= d.cv[2]


def test_words_pairs_and_names():
    text = ("Linux runs on servers. Modern servers run Linux and the operating system is free; "
            "an operating system manages memory. Operating systems differ")
    found = page_candidates(text)
    pair = found[("operat", "system")]
    assert sum(pair.forms.values()) == 3 and pair.cased == 3 and pair.capital == 0
    assert ("system", "free") not in found                      # the stop word "is" breaks
    assert ("system", "operat") not in found                    # so does punctuation
    linux = found[("linux",)]
    assert linux.cased == 1 and linux.capital == 1              # the first one starts the text
    modern = found[("modern",)]
    assert modern.cased == 0                                    # only ever starts a sentence
    titled = page_candidates("memory is cheap", title="Operating Systems")
    assert titled[("operat", "system")].cased == 0              # a title tells no case


def test_candidates_need_two_positives_and_twice_the_negative_share():
    pos = [page_candidates(t) for t in ("quantum chromodynamics gluon", "gluon field theory",
                                        "gluon plasma theory")]
    neg = [page_candidates(t) for t in ("field hockey", "field day", "theory of music")]
    ranked = {c.surface: c for c in rank_candidates(pos, neg)}
    assert "gluon" in ranked and ranked["gluon"].p == 1.0 and ranked["gluon"].n == 0.0
    assert "chromodynamics" not in ranked                        # on one positive only
    assert "field" not in ranked                                 # as common on negatives
    assert ranked["theory"].weight < ranked["gluon"].weight


def test_threshold_rules():
    threshold, (p, r, f1) = best_threshold([0.5, 0.4, 0.3], [0.35, 0.1])
    assert threshold == pytest.approx(0.2) and (p, r) == (0.75, 1.0)   # midway to 0.1
    assert f1 == pytest.approx(6 / 7)
    threshold, (p, r, _) = best_threshold([0.5, 0.4, 0.3], [0.35, 0.32, 0.31])
    assert threshold == pytest.approx(0.375) and (p, r) == (1.0, 2 / 3)
    threshold, (p, r, _) = recall_threshold([0.5, 0.4, 0.3, 0.2], [0.35, 0.1])
    assert threshold == 0.3 and r == 0.75 and p == 0.75


def test_bad_examples_are_reported_and_skipped(tmp_path, demo):
    (tmp_path / "garbage.html").write_bytes(bytes(range(256)) * 40)
    (tmp_path / "empty.html").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not an example", encoding="utf-8")
    url = "http://www.sunwind.test/wind/offshore-wind-basics.html"
    (tmp_path / "good.html").write_bytes(demo.get(url).body)
    listing = tmp_path / "list.txt"
    listing.write_text(f"# examples\n{tmp_path}\n{tmp_path / 'missing.html'}\n",
                       encoding="utf-8")
    messages = []
    got = load_examples([f"@{listing}"], messages.append)
    assert [e.source for e in got] == [str(tmp_path / "good.html")]
    assert any("empty.html" in m and "not parsed" in m for m in messages)
    assert any("missing.html" in m and "cannot read" in m for m in messages)
    assert not any("notes.txt" in m for m in messages)          # not an HTML file: not listed
    with pytest.raises(DraftError, match="no readable negative"):
        draft("t", got, [])
    with pytest.raises(DraftError, match="no readable positive"):
        draft("t", [], got)
    with pytest.raises(DraftError, match="twice as common"):
        draft("t", got * 2, got)


def test_command_line_fetches_examples_over_loopback(demo, tmp_path, monkeypatch, capsys):
    on, off = labelled(demo, "subject.Energy")
    rng = random.Random(3)
    on, off = rng.sample(on, 12), rng.sample(off, 8)
    (tmp_path / "off.txt").write_text("\n".join(off), encoding="utf-8")
    out = tmp_path / "drafted.toml"
    with serve_in_thread(demo) as handle:
        monkeypatch.setenv("http_proxy", f"http://{handle.host}:{handle.port}")
        code = main(["--name", "energy", "--positive", *on, "http://www.sunwind.test/missing",
                     "--negative", f"@{tmp_path / 'off.txt'}", "-o", str(out)])
        assert code == 0
        err = capsys.readouterr().err
        nowhere = tmp_path / "missing" / "t.toml"           # a traceback before
        assert main(["--name", "energy", "--positive", *on, "--negative", *off,
                     "-o", str(nowhere)]) == 2
        assert f"topic_draft: cannot write {nowhere}: No such file" in capsys.readouterr().err
        # a name no topic file takes: a message, not a traceback (found by a review)
        assert main(["--name", "a\nb", "--positive", *on, "--negative", *off]) == 2
        assert "topic_draft: " in capsys.readouterr().err
    assert "skipped http://www.sunwind.test/missing: cannot read it (HTTP Error 404" in err
    assert f"wrote {out}" in err
    topic = load_topic(out)
    assert "energy" in topic.terms and topic.threshold is not None
    # the threshold printed is the one written (it printed 0.192 for a written 0.191)
    assert f", threshold {topic.threshold}" in err
    assert main(["--name", "x", "--positive", str(tmp_path / "none.html"),
                 "--negative", str(tmp_path / "none.html")]) == 2
    assert "no readable positive example" in capsys.readouterr().err


def test_drafted_topic_judges_unseen_wikischools_pages(wikischools):
    """20 Music pages and 100 others drafted; 300 other labelled pages judged by the draft.
    The default threshold rule keeps 75% of the examples out of fold and aims at a focused
    crawl's harder negatives, so on these random pages it keeps about half the positives."""
    web = wikischools
    on, off = labelled(web, "subject.Music")
    on = [u for u in on if web.get(u) is not None and web.get(u).status == 200]
    off = [u for u in off if web.get(u) is not None and web.get(u).status == 200]
    rng = random.Random(7)
    rng.shuffle(on)
    rng.shuffle(off)
    pos, neg = examples(web, on[:20]), examples(web, off[:100])
    topic = topic_from_dict(draft("music", pos, neg).topic)
    test_pos, test_neg = examples(web, on[20:70]), examples(web, off[100:350])
    scores_pos = score_examples(topic, test_pos, test_pos + test_neg)
    scores_neg = score_examples(topic, test_neg, test_pos + test_neg)
    tp = sum(s >= topic.threshold for s in scores_pos)
    fp = sum(s >= topic.threshold for s in scores_neg)
    precision, recall = tp / (tp + fp), tp / len(test_pos)
    assert precision >= 0.85 and recall >= 0.45, (precision, recall)     # 0.93, 0.52


def test_a_word_is_left_out_only_for_a_pair_the_draft_keeps():
    """"ocean" is in the pair "ocean current" on as many examples: left out when the pair is
    kept (and the next term takes its place), kept when the pair falls past the last slot."""
    def cand(key: str, p: float, weight: float) -> Candidate:
        return Candidate(tuple(key.split()), key, p, 0.0, weight)

    ranked = [cand("ocean", 0.6, 0.9), cand("tide", 0.5, 0.8), cand("ocean current", 0.6, 0.7),
              cand("wave", 0.4, 0.6), cand("salt", 0.3, 0.5)]
    _, terms = select(ranked, n_terms=3, n_subjects=0)
    assert [c.surface for c in terms] == ["tide", "ocean current", "wave"]
    _, terms = select(ranked, n_terms=2, n_subjects=0)
    assert [c.surface for c in terms] == ["ocean", "tide"]
    # the word outranks the pair only on more examples: both kept
    ranked[0] = cand("ocean", 0.7, 0.9)
    _, terms = select(ranked, n_terms=3, n_subjects=0)
    assert [c.surface for c in terms] == ["ocean", "tide", "ocean current"]


def test_candidates_are_read_in_the_example_language():
    """Found by the review of the per-language relevance: German examples offered die, der
    and eine, and Japanese ones 机械学习 (simplified), which never matches 機械学習."""
    german = page_candidates("Die Rechner der Firma und die Programme eine Rechner", "de")
    words = {k for k in german if len(k) == 1}
    assert {"die", "der", "eine", "und"}.isdisjoint({w for (w,) in words})
    assert ("rechn",) in german and german[("rechn",)].nouns_capitalised
    japanese = page_candidates("機械学習の研究。機械学習は速い。", "ja")
    forms = {f for seen in japanese.values() for f in seen.forms}
    assert "機械学習" in forms and "机械学习" not in forms


def test_a_draft_from_examples_in_another_language_names_it():
    """Found by a review: Italian examples saying "via Roma" drafted the term "via", an
    English stop word, and the draft failed to load; a Japanese term 進行 simplified to a
    Chinese stop word."""
    def example(i: int, text: str):
        html = (f'<html lang="it"><head><title>Pagina {i}</title></head><body><article>'
                + f"<p>{text}</p>" * 4 + "</article></body></html>")
        return example_from_html(html, f"p{i}", f"http://it.test/{i}")

    pos = [example(i, f"Il negozio di computer in via Roma {i} vende portatili, processori "
                      "e schede video. Via Garibaldi ospita il laboratorio di riparazione.")
           for i in range(4)]
    neg = [example(10 + i, f"La pasticceria in piazza {i} vende torte e biscotti al cioccolato.")
           for i in range(4)]
    result = draft("computer", pos, neg, folds=2)
    assert result.topic["languages"] == ["it"]
    text = to_toml(result)
    assert 'languages = [\n  "it",\n]' in text        # (to_toml loads what it writes)
    assert "computer" in result.topic["features"]["terms"]
