"""Where the repository and the shared data live, and a helper that skips loudly when data is absent.

Import it as `from datapaths import REPO, shared_data` (tests/ is on pytest's pythonpath)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("TENGEN_SHARED_DATA", REPO.parent / "shared" / "data"))


def shared_data(*parts: str) -> Path:
    """Path under ../shared/data, skipping the test with a visible reason when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path
