"""Scrapy settings of the focused crawler (see README, "Settings")."""
BOT_NAME = "focused-crawler"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"
ROBOTSTXT_OBEY = True
