"""A small built-in web (English and Chinese, GBK pages included) to try the crawler on."""
