"""``scrapy crawl fetchonly -a seed=URL[,URL]``: fetch and follow every link, nothing else.

The throughput baseline of the crawl benchmark: same Scrapy settings (the garbage collector's
thresholds included), no extraction, no relevance, no link scoring (breadth-first with Scrapy's
own link extractor).
"""
from __future__ import annotations

import scrapy
from scrapy.linkextractors import LinkExtractor

from .topic import read_seeds


class FetchOnlySpider(scrapy.Spider):
    name = "fetchonly"
    custom_settings = {"ITEM_PIPELINES": {}, "DOWNLOADER_MIDDLEWARES": {},
                       "SPIDER_MIDDLEWARES": {},
                       "DUPEFILTER_CLASS": "scrapy.dupefilters.RFPDupeFilter",
                       "EXTENSIONS": {"crawler.extensions.GarbageCollection": 510}}

    def __init__(self, seed: str | None = None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seeds = read_seeds(seed)
        self.links = LinkExtractor()

    async def start(self):
        for url in self.seeds:
            yield scrapy.Request(url, callback=self.parse)

    def parse(self, response):
        if not hasattr(response, "text"):
            return
        for link in self.links.extract_links(response):
            yield scrapy.Request(link.url, callback=self.parse)
