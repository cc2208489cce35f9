"""Where the repository and the shared data live, and a helper that skips loudly when data is absent.

Import it as `from datapaths import REPO, shared_data` (tests/ is on pytest's pythonpath). The shared data's
location comes from the one helper, `tengen.files.shared_data_path` ($TENGEN_SHARED_DATA, else
shared/data beside the checkout)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tengen.files import shared_data_path

REPO = Path(__file__).resolve().parents[1]


def shared_data(*parts: str) -> Path:
    """Path under the shared data folder, skipping the test with a visible reason when it is absent."""
    path = shared_data_path(*parts, must_exist=False)
    if not path.exists():
        pytest.skip(f"shared data not available: {path} (set TENGEN_SHARED_DATA)")
    return path
