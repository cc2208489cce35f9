"""The bounded cache every layer shares: least recently used entries go first."""
import pytest

from tengen.lru import LruCache


def test_the_least_recently_used_entry_is_evicted_first():
    cache: LruCache[str] = LruCache(2)
    cache.put("a", "A")
    cache.put("b", "B")
    assert cache.get("a") == "A"  # "a" is now the most recently used
    cache.put("c", "C")
    assert "b" not in cache and "a" in cache and "c" in cache and len(cache) == 2
    assert cache.get("b") is None


def test_putting_a_known_key_refreshes_it_without_growing():
    cache: LruCache[int] = LruCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 3)
    cache.put("c", 4)
    assert cache.get("a") == 3 and "b" not in cache and len(cache) == 2


def test_a_cache_without_room_is_refused():
    with pytest.raises(ValueError):
        LruCache(0)
