"""A bounded cache that forgets the least recently used entry first: one implementation for the caches of
evaluations, life verdicts and region values, which must not grow without end in a long analysis or a server."""
from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Hashable, Optional, TypeVar

V = TypeVar("V")


class LruCache(Generic[V]):
    """At most `capacity` entries; `get` marks an entry as used, `put` evicts the least recently used."""

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError("an LRU cache needs room for at least one entry")
        self.capacity = capacity
        self._entries: OrderedDict[Hashable, V] = OrderedDict()

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> Optional[V]:
        """The entry under `key` (now the most recently used), or None."""
        if key not in self._entries:
            return None
        self._entries.move_to_end(key)
        return self._entries[key]

    def put(self, key: Hashable, value: V) -> None:
        """Store `value` under `key` as the most recently used; the oldest entry goes when over capacity."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)
