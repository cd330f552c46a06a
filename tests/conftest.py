"""Shared fixtures: the ``../shared`` data folder and its test web (tests that need them skip when absent)."""
from __future__ import annotations

import pytest

from extraction.datasets import extraction_dir, shared_dir


@pytest.fixture(scope="session")
def shared():
    path = shared_dir()
    if not (path / "extraction").is_dir():
        pytest.skip(f"shared data not found at {path} (set SHARED_DIR)")
    return path


@pytest.fixture(scope="session")
def extraction_data(shared):
    return extraction_dir()


@pytest.fixture(scope="session")
def wikischools(shared):
    """The labelled test web ``../shared/testweb/wikischools``, loaded once per session."""
    from crawler.testweb import load_web

    path = shared / "testweb" / "wikischools"
    if not (path / "web.warc.gz").is_file():
        pytest.skip(f"no test web at {path}")
    return load_web(path)
