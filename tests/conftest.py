"""Shared fixtures (paths live in datapaths.py so test modules can import them by a unique name)."""
from __future__ import annotations

import pytest

from datapaths import shared_data


@pytest.fixture
def shared():
    return shared_data
