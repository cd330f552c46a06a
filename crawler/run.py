"""Run ``scrapy crawl topic`` in a child process against a local test web (demo, benchmark).

A Twisted reactor runs once per process, so every crawl gets its own process; the test-web
proxy runs in a thread of the caller and the child reaches it through ``http_proxy``, exactly
as a user would with ``python -m crawler.testweb serve``.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Sequence

FAST_LOCAL = {"AUTOTHROTTLE_ENABLED": "False", "DOWNLOAD_DELAY": "0",
              "CONCURRENT_REQUESTS": "16", "CONCURRENT_REQUESTS_PER_DOMAIN": "16"}


def crawl_command(topic: str | Path, seeds: Sequence[str] | str, settings: dict[str, str],
                  spider_args: dict[str, str] | None = None) -> list[str]:
    seed_arg = seeds if isinstance(seeds, str) else ",".join(seeds)
    cmd = [sys.executable, "-m", "scrapy", "crawl", "topic", "-a", f"seed={seed_arg}",
           "-a", f"topic={topic}"]
    for key, value in (spider_args or {}).items():
        cmd += ["-a", f"{key}={value}"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd


def start_crawl(topic: str | Path, seeds: Sequence[str] | str, settings: dict[str, str], *,
                proxy: str | None = None, spider_args: dict[str, str] | None = None,
                log_file: str | Path | None = None) -> subprocess.Popen:
    """Start the crawl in a child process and return it (the caller waits, or stops it)."""
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="crawler.settings")
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    if proxy:
        env["http_proxy"] = env["HTTP_PROXY"] = proxy
        env["no_proxy"] = env["NO_PROXY"] = ""
    cmd = crawl_command(topic, seeds, settings, spider_args)
    out = open(log_file, "w", encoding="utf-8") if log_file else subprocess.DEVNULL
    try:
        return subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    finally:
        if log_file:
            out.close()                  # the child has its own copy of the descriptor


def run_crawl(topic: str | Path, seeds: Sequence[str] | str, settings: dict[str, str], *,
              proxy: str | None = None, spider_args: dict[str, str] | None = None,
              log_file: str | Path | None = None, timeout: float | None = None
              ) -> subprocess.CompletedProcess:
    """Run the crawl in a child process to its end (killed after ``timeout`` seconds:
    ``subprocess.TimeoutExpired``)."""
    child = start_crawl(topic, seeds, settings, proxy=proxy, spider_args=spider_args,
                        log_file=log_file)
    try:
        child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        raise
    return subprocess.CompletedProcess(child.args, child.returncode)
