"""Monte Carlo tree search (PUCT over `tengen.go`, batched network evaluation) and dynamic komi.

The names below load on first use: `Search` pulls in the network's modules (torch), which a GTP engine
must not pay for at start-up."""
from __future__ import annotations

from typing import Any

__all__ = ["Search", "SearchConfig", "SearchResult", "MoveStats"]


def __getattr__(name: str) -> Any:
    if name == "Search":
        from tengen.search.mcts import Search

        return Search
    if name in ("SearchConfig", "SearchResult", "MoveStats"):
        from tengen.search import results

        return getattr(results, name)
    raise AttributeError(f"module 'tengen.search' has no attribute {name!r}")
