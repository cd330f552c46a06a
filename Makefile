# Convenience targets; every one is a plain command you can also run by hand.
PY ?= .venv/bin/python

.venv:
	python3 -m venv .venv && .venv/bin/pip install -q --upgrade pip && .venv/bin/pip install -q -e '.[test,bench]'

setup: .venv

test: .venv
	$(PY) -m pytest -q

demo: .venv
	$(PY) -m crawler.demo

bench-extraction: .venv
	$(PY) bench/extraction.py

bench-crawl: .venv
	$(PY) bench/crawl.py --web ../shared/testweb/wikischools --topic settings/topics/science.toml

train: .venv
	$(PY) -m extraction train e2
	$(PY) -m extraction train e4
	$(PY) -m extraction train auto

.PHONY: setup test demo bench-extraction bench-crawl train
