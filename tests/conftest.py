"""Shared fixtures: the ``../shared`` data folder (tests that need it skip when it is absent)."""
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
