"""Scrapy settings of the focused crawler.

Project settings (all can be given with ``-s NAME=VALUE``):

``CORPUS_DIR``            where accepted documents go (default ``./corpus``)
``STATE_DIR``             learned state reused by the next run: S1 weights, IDF statistics,
                          the dynamic topic feature library, link model, dedup index
                          (default ``./state``)
``CRAWL_LOG``             one JSON line per response (default ``<CORPUS_DIR>/crawl-log.jsonl``)
``EXTRACTION_METHOD``     ``auto`` (default) or ``e1`` .. ``e6``
``EXTRACTION_FAVOR``      ``auto``'s trade-off: ``balanced`` (default), ``precision`` (less
                          boilerplate, some text lost) or ``recall`` (the reverse)
``EXTRACTION_PRUNE``      CSS selectors (XPath when one starts with ``/``) of elements removed
                          from pages before they are read (extraction, relevance, links): one
                          selector, a list, or host -> selectors (``"*"``: every page), JSON on
                          the command line (default: none; ``crawler/prune_rules.py``)
``EXTRACTION_TARGET``     selectors, in the same forms, of the elements read alone (with the
                          head) on the pages where they match; other pages are read whole
                          (default: none)
``RELEVANCE_THRESHOLD``   overrides the topic file's ``threshold``
``RELEVANCE_AUTO_THRESHOLD`` when no threshold is given (topic file or setting), lower the
                          default 0.2 to the valley below a mode of judged pages it cuts
                          (``crawler/relevance/threshold.py``; default True)
``FEATURE_AUTO_ACCEPT``   weight above which learnt topic terms are accepted without review
``FEATURE_LEARN_FROM``    pages the dynamic feature library learns from: ``written`` (default:
                          the corpus's documents) or ``relevant`` (every page at or above the
                          threshold, duplicates, hubs and noindex pages included)
``RELEVANCE_MIN_CONCEPTS``    cap one topic concept's part of the score at threshold²/N (unset: no cap)
``RELEVANCE_CATEGORY_WEIGHTS`` topic-vector weight per feature category, e.g.
                          ``subjects=0.5,judgments=0.5`` (unset: 1.0 each)
``CORPUS_SHARD_DOCS``     documents per corpus shard (default 1000)
``CORPUS_COMPRESS``       ``gzip``: shards are ``part-NNNNN.jsonl.gz`` (default: plain ``.jsonl``)
``CORPUS_MARKDOWN``       each document also holds its main text as Markdown (``markdown``:
                          headings, lists, quotes, code, tables; default False)
``CORPUS_MARKDOWN_LINKS`` ... with the text's links as ``[text](url)`` (default False; implies
                          ``CORPUS_MARKDOWN``)
``CORPUS_MARKDOWN_IMAGES`` ... with the text's images as ``![alt](url)`` (default False;
                          implies ``CORPUS_MARKDOWN``)
``CORPUS_HTML``           each document also holds its main text as an HTML fragment (``html``:
                          the Markdown's structure with links and images, nothing of the page's
                          own markup; default False)
``CORPUS_COMMENTS``       each document also holds the page's reader comments (``comments``;
                          default False)
``CORPUS_MAX_LINK_SHARE`` an on-topic page whose main text is more than this share link text
                          (a hub: home, section or tag page) is not written (default 0.5; 1: off;
                          measured on the main-text nodes the method reports; E1's leave link
                          text out, so it never fires with E1)
``CORPUS_MIN_CHARS``      an on-topic page with less main text (non-space characters) is not
                          written (default 200; 0: off)
``CORPUS_SINCE``          an on-topic page published before this day (YYYY-MM-DD; the
                          extraction's ``metadata["date"]``) is not written (default: none)
``CORPUS_UNTIL``          ... nor one published after this day (default: none)
``CORPUS_UNDATED``        whether an on-topic page that states no date is written (default
                          True)
``CORPUS_WARC``           also archive HTTP responses as WARC files under <CORPUS_DIR>/warc/:
                          ``written`` (the corpus's documents), ``all`` (every response) or
                          off (default; ``crawler/warc.py``)
``CORPUS_WARC_MAX_BYTES`` size at which a WARC file is closed and the next begun (default 1e9)
``REVISIT_AFTER``         hours after which a run fetches its seeds and the hubs it found again,
                          past JOBDIR's seen-URL filter, for recurring crawls (default 0:
                          never; ``crawler/revisit.py``)
``RETRY_FAILED_AFTER``    hours after which a later run of the job fetches again the pages whose
                          fetch failed for a passing reason (408, 429, 5xx, or a download error
                          Scrapy retries), past JOBDIR's seen-URL filter (default 0: never;
                          ``crawler/revisit.py``)
``RETRY_FAILED_TIMES``    runs in a row a page may fail so before it is given up (default 3)
``FOLLOW_SITEMAPS``       read the sitemaps a seed host's robots.txt names (``Sitemap:``;
                          indexes and gzip followed) and queue the host's listed URLs, scored
                          on the URL alone (default True; needs ``ROBOTSTXT_OBEY``;
                          ``crawler/sitemaps.py``)
``FOLLOW_FEEDS``          fetch the RSS / Atom / JSON feeds a seed page or an on-topic page
                          announces and queue their entries (title as anchor, summary as
                          context; default True; ``crawler/feeds.py``)
``FEEDS_PER_HOST``        distinct feeds fetched per host of the announcing page and run
                          (default 4; comment feeds are never fetched)
``SITEMAP_MAX_URLS``      listed URLs queued per sitemap host (default 10000: the best-scored
                          of the first 5 x the allowance a file lists; at most 50 sitemap files
                          per host)
``MAX_LINKS_PER_PAGE``    links read from one page, the first in document order (default
                          5000; 0: all)
``SIBLING_CACHE_PAGES``   recent pages kept per site for E5/E6 siblings (default 8)
``STALL_TIMEOUT``         seconds without a new response before the crawl stops (default 300)
``ROBOTSTXT_CRAWL_DELAY`` honour a host's robots.txt ``Crawl-delay`` / ``Request-rate`` as
                          the delay of its downloader slot (default True; needs
                          ``ROBOTSTXT_OBEY``; ``crawler/politeness.py``)
``ROBOTSTXT_MAX_CRAWL_DELAY`` seconds; a host asking for a longer delay is not crawled
                          (default 30)
``ROBOTSTXT_UNAVAILABLE_DISALLOW`` a host whose robots.txt answers a server error (5xx) or
                          429 is not crawled in this run (RFC 9309; default True)
``BACKOFF_HTTP_CODES``    statuses that back a host off: no request before its Retry-After, its
                          delay doubled, halved again by each normal answer (default 429,503;
                          empty: off; ``crawler/politeness.py``)
``BACKOFF_MAX_DELAY``     seconds; the longest back-off wait and delay (default 60)
``BACKOFF_RETRY_TIMES``   retries of a request answered with a back-off status, each after the
                          back-off (default 3; ``RETRY_TIMES`` for other failures)
``FRONTIER_BUSY_HOST_SLACK`` a link of a host with room in the downloader goes before the best
                          link of a host whose slot is full when its score is at most this much
                          lower (default 0.05; 1: any link; ``crawler/frontier.py``)
``ROBOTS_META_OBEY``      honour ``<meta name="robots">`` / ``X-Robots-Tag``: a ``noindex`` page
                          is not written to the corpus, a ``nofollow`` page's links are not
                          followed (default True)
``URL_INCLUDE``, ``URL_EXCLUDE``  the crawl's scope: regexes searched in the canonical URL
                          (a list or a whitespace-separated string; ``crawler/scope.py``)
``MAX_PAGES_PER_HOST``    the crawl's scope: requests per host (default 0: no cap)
``GC_THRESHOLDS``         the garbage collector's thresholds during the crawl (default
                          50000,50,100; ``python``: the interpreter's own 700,10,10), objects
                          existing at the start frozen out of its walks
``STATE_SAVE_INTERVAL``   seconds between checkpoints of STATE_DIR during a crawl (default 60;
                          0: saved only when the crawl closes, as it always is); a checkpoint
                          also waits 20 times the previous one's duration (large states)
"""
BOT_NAME = "focused-crawler"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"
COMMANDS_MODULE = "crawler.commands"   # crawl: a bad setup is one line, not a traceback
USER_AGENT = "focused-crawler/0.1 (+https://example.invalid/focused-crawler)"

# Politeness: robots.txt, AutoThrottle and per-domain concurrency on by default.
ROBOTSTXT_OBEY = True
ROBOTSTXT_CRAWL_DELAY = True
ROBOTSTXT_MAX_CRAWL_DELAY = 30.0
ROBOTSTXT_UNAVAILABLE_DISALLOW = True
BACKOFF_HTTP_CODES = [429, 503]
BACKOFF_MAX_DELAY = 60.0
BACKOFF_RETRY_TIMES = 3
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
# Scrapy starts CONCURRENT_ITEMS asyncio workers for the output of every response; a page
# yields one item and a batch of already-scored requests, so a few workers suffice (the
# default of 100 costs more event-loop time than the requests themselves).
CONCURRENT_ITEMS = 8
DOWNLOAD_DELAY = 0.25
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
RETRY_TIMES = 1
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
# Every status reaches the spider so that each fetch is logged and judged.
HTTPERROR_ALLOW_ALL = True
REDIRECT_ENABLED = True
METAREFRESH_ENABLED = True

# Global best-first: ScrapyPriorityQueue pops the highest priority across all domains
# (DownloaderAwarePriorityQueue picks a domain first, which breaks global order); ours adds
# lazy re-scoring of a queued link with what the crawl learned since it was queued.
SCHEDULER = "crawler.frontier.JournalScheduler"
SCHEDULER_PRIORITY_QUEUE = "crawler.frontier.RescoringPriorityQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleFifoDiskQueue"
# Seen-URL filter that lets a rediscovered URL back in with a higher priority.
DUPEFILTER_CLASS = "crawler.frontier.PriorityDupeFilter"

DOWNLOADER_MIDDLEWARES = {
    # closest to the downloader: sees every response (301s, 404s) before anything else
    "crawler.middlewares.FetchLogMiddleware": 960,
    # next to it, before HttpCompressionMiddleware (590) decodes the body: CORPUS_WARC
    "crawler.middlewares.WarcMiddleware": 955,
    # drops a stale duplicate of an already fetched URL before it costs a fetch
    "crawler.middlewares.AlreadyFetchedMiddleware": 50,
    # after it (a stale duplicate takes no share of a host's cap) and after Scrapy's offsite
    # filter (50): URL patterns and MAX_PAGES_PER_HOST of crawler.scope
    "crawler.middlewares.ScopeMiddleware": 55,
    # Scrapy's robots.txt middleware, mended: every request that waited for its host's
    # robots.txt is checked against it (crawler/politeness.py)
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.politeness.RobotsTxtMiddleware": 100,
    # after it, which has read the host's robots.txt by then
    "crawler.politeness.RobotsTxtPolicyMiddleware": 105,
    # Scrapy's, with the Location resolved as RFC 3986 says (empty path segments kept)
    "scrapy.downloadermiddlewares.redirect.RedirectMiddleware": None,
    "crawler.middlewares.RedirectMiddleware": 600,
}
SPIDER_MIDDLEWARES = {
    # next to the engine: a download is done with in the frontier's journal once the requests
    # it led to are journaled (kill recovery, crawler/journal.py)
    "crawler.middlewares.JournalOutputMiddleware": 0,
}
ITEM_PIPELINES = {
    "crawler.pipelines.ExtractionPipeline": 100,
    "crawler.pipelines.RelevancePipeline": 200,
    "crawler.pipelines.DedupPipeline": 300,
    "crawler.pipelines.CorpusWriterPipeline": 400,
}
EXTENSIONS = {
    # AutoThrottle with per-host delay floors and back-off from 429 / 503 (crawler.politeness)
    "scrapy.extensions.throttle.AutoThrottle": None,
    "crawler.politeness.PoliteThrottle": 0,
    "crawler.extensions.StallMonitor": 500,
    "crawler.extensions.GarbageCollection": 510,
}

CORPUS_DIR = "corpus"
CORPUS_WARC = ""   # off; "written" or "all" (crawler/warc.py)
REVISIT_AFTER = 0  # hours; 0: seeds and hubs are never fetched again (crawler/revisit.py)
RETRY_FAILED_AFTER = 0  # hours; 0: a page whose fetch failed is not fetched by a later run
RETRY_FAILED_TIMES = 3
STATE_DIR = "state"
CRAWL_LOG = None  # default: <CORPUS_DIR>/crawl-log.jsonl
EXTRACTION_METHOD = "auto"
EXTRACTION_FAVOR = "balanced"
EXTRACTION_PRUNE = None  # selectors, or {host: selectors} (crawler/prune_rules.py)
EXTRACTION_TARGET = None  # the same forms
RELEVANCE_THRESHOLD = None
RELEVANCE_AUTO_THRESHOLD = True
FEATURE_AUTO_ACCEPT = 0.1
FEATURE_LEARN_FROM = "written"
RELEVANCE_MIN_CONCEPTS = None
RELEVANCE_CATEGORY_WEIGHTS = None
CORPUS_SHARD_DOCS = 1000
CORPUS_COMPRESS = ""   # or "gzip" (crawler/corpus.py)
CORPUS_MARKDOWN = False    # extraction/markdown.py
CORPUS_MARKDOWN_LINKS = False
CORPUS_HTML = False        # extraction/html_output.py
CORPUS_COMMENTS = False    # extraction/comments.py
CORPUS_MARKDOWN_IMAGES = False
CORPUS_MAX_LINK_SHARE = 0.5
CORPUS_MIN_CHARS = 200
CORPUS_SINCE = None        # publication-date window of the corpus (crawler/corpus.py)
CORPUS_UNTIL = None
CORPUS_UNDATED = True
FOLLOW_SITEMAPS = True     # the seeds' hosts' robots.txt Sitemap: lines (crawler/sitemaps.py)
FOLLOW_FEEDS = True        # the seed pages' RSS / Atom feeds (crawler/feeds.py)
SITEMAP_MAX_URLS = 10000   # a queued listed URL holds about 4.5 KB
MAX_LINKS_PER_PAGE = 5000   # crawler/links.py
SIBLING_CACHE_PAGES = 8
STALL_TIMEOUT = 300
STATE_SAVE_INTERVAL = 60
ROBOTS_META_OBEY = True
GC_THRESHOLDS = "50000,50,100"
URL_INCLUDE = None          # regexes (list, or a whitespace-separated string); see crawler/scope.py
URL_EXCLUDE = None
MAX_PAGES_PER_HOST = 0      # 0: no cap

LOG_LEVEL = "INFO"
REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
FEED_EXPORT_ENCODING = "utf-8"
