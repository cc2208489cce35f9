"""The network cache: location, listing, verified extraction from the katrain wheel, offline errors."""
import gzip
import hashlib
import subprocess
import zipfile

import pytest

from tengen.eval.katago import weights


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(weights.ENV_VAR, str(tmp_path / "models"))
    return tmp_path / "models"


def _fake_pip(monkeypatch, payload: bytes, returncode: int = 0):
    """Make `pip download` drop a wheel holding `payload` as the default model (no network)."""
    calls = []

    def run(cmd, **kwargs):
        calls.append(cmd)
        if returncode == 0:
            dest = cmd[cmd.index("-d") + 1]
            with zipfile.ZipFile(f"{dest}/katrain-1.20.0-py3-none-any.whl", "w") as zf:
                zf.writestr(f"katrain/models/{weights.DEFAULT_MODEL}", payload)
        return subprocess.CompletedProcess(cmd, returncode, "", "")

    monkeypatch.setattr(weights.subprocess, "run", run)
    return calls


def test_cache_dir_follows_the_environment(cache):
    assert weights.cache_dir() == cache


def test_missing_model_without_download_is_reported(cache):
    with pytest.raises(weights.ModelDownloadError, match="not cached"):
        weights.default_model_path(download=False)


def test_fetch_extracts_and_verifies(cache, monkeypatch):
    payload = gzip.compress(b"pretend network")
    monkeypatch.setattr(weights, "DEFAULT_SHA256", hashlib.sha256(payload).hexdigest())
    calls = _fake_pip(monkeypatch, payload)
    path = weights.default_model_path(progress=False)
    assert path == cache / weights.DEFAULT_MODEL and path.read_bytes() == payload
    assert calls[0][1:4] == ["-m", "pip", "download"] and weights.KATRAIN_REQUIREMENT in calls[0]
    assert "--no-deps" in calls[0]
    weights.default_model_path(progress=False)
    assert len(calls) == 1  # cached and verified: no second download
    listed = weights.list_cached()
    assert [(c.path.name, c.verified) for c in listed] == [(weights.DEFAULT_MODEL, True)]


def test_wrong_checksum_is_refused_and_removed(cache, monkeypatch):
    _fake_pip(monkeypatch, b"tampered")
    with pytest.raises(weights.ModelDownloadError, match="sha256"):
        weights.default_model_path(progress=False)
    assert not (cache / weights.DEFAULT_MODEL).exists()


def test_corrupt_cached_file_is_fetched_again(cache, monkeypatch):
    payload = b"good bytes"
    monkeypatch.setattr(weights, "DEFAULT_SHA256", hashlib.sha256(payload).hexdigest())
    cache.mkdir(parents=True)
    (cache / weights.DEFAULT_MODEL).write_bytes(b"half a downl")
    calls = _fake_pip(monkeypatch, payload)
    assert weights.default_model_path(progress=False).read_bytes() == payload and len(calls) == 1


def test_offline_gives_a_clear_message(cache, monkeypatch):
    _fake_pip(monkeypatch, b"", returncode=1)
    with pytest.raises(weights.ModelDownloadError, match="offline.*--model FILE"):
        weights.default_model_path(progress=False)
