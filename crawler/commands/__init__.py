"""The project's Scrapy commands (``COMMANDS_MODULE``): ``crawl`` reports a bad crawl setup in
one line."""
