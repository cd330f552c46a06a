"""Topic relevance of pages: S2, the topical crawler with an extended topic feature library
(ALGORITHMS.md §8).

>>> from crawler.relevance import load_topic, RelevanceModel, DocumentFrequencies
>>> topic = load_topic("settings/topics/music.toml")
>>> stats = DocumentFrequencies.load("state")          # IDF statistics of the crawl so far
>>> model = RelevanceModel(topic, stats)
>>> page = model.analyse(doc, main_text, url)           # doc: extraction.parse(...)
>>> stats.add(page.terms)                               # the crawler feeds the statistics
>>> rel = model.score_page(page)                        # or model.score(doc, main_text, url)
>>> rel.score, rel.relevant, rel.by_type, rel.matched

Modules: :mod:`.topic` (TOML topic files), :mod:`.tokenize` (tokens per language),
:mod:`.blocks` (tag-block model), :mod:`.model` (relevance), :mod:`.frequencies` (IDF
statistics), :mod:`.library` (dynamic feature library).
"""
from __future__ import annotations

from .blocks import BLOCK_TYPES, Block, tag_blocks
from .frequencies import DocumentFrequencies
from .library import Candidate, FeatureLibrary
from .model import (
           LAMBDA,
           THRESHOLD,
           PageTerms,
           Relevance,
           RelevanceModel,
           build_topic_vector,
)
from .tokenize import tokenize
from .topic import Topic, TopicError, load_topic

__all__ = [
           "BLOCK_TYPES",
           "LAMBDA",
           "THRESHOLD",
           "Block",
           "Candidate",
           "DocumentFrequencies",
           "FeatureLibrary",
           "PageTerms",
           "Relevance",
           "RelevanceModel",
           "Topic",
           "TopicError",
           "build_topic_vector",
           "load_topic",
           "tag_blocks",
           "tokenize",
]
