"""Spiders."""
