"""Focused crawler (Scrapy project) built on the :mod:`extraction` library."""
