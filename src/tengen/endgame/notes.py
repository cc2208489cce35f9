"""What a region's result says beside its numbers: typed notes.

A `Note` is the sentence a player reads (it is a `str`, so reports, JSON and SGF comments print it as
before) together with its `kind`, which code and tests select by instead of matching the sentence's words.
Every note the analysis writes has one of `KINDS`.
"""
from __future__ import annotations

from typing import Iterable

# kind -> what notes of that kind say
KINDS = {
    "method": "how the value was found (solved exactly, or a grown tree in place of the exact solver)",
    "declined": "why the exact solver gave no value",
    "budget": "a tree or search stopped by its budget",
    "positions": "what the exact search counted (positions, loops valued by fixed points)",
    "engine": "which engine of the exact solver answered, where it was not the native one",
    "repetition": "a ko or repetition beyond the phantom rule decided the value, and how it was valued",
    "superko": "a repetition decided the value: searched again with positional superko on the local line",
    "ko": "a ko in a tree: approximated, or beyond the phantom rule",
    "threat": "a threat that stays unanswered in the tree",
    "follow-up": "threats that left a tree unbounded, valued by the threatening color's next move instead",
    "cold fight": "a number whose first moves start a fight: what each side's best start comes to",
    "diagram": "how a marked diagram's outside was read (trusted walls, neutral points, joined chains)",
    "sealed": "a sealed region whose lines the exact rules end and count",
    "leaves": "how a tree's leaves were counted, where the exact solver valued them",
    "walls": "the evaluator doubts the walls the leaves' counts rest on",
    "oracle": "what the entered variations could not give",
    "move check": "what the network's look at the orthodox move found outside the region",
    "life": "a group whose life the side to move decides",
    "split": "the region was cut from a larger one with several hot spots",
    "kept": "a review kept the region as it was: the move did not come near it",
    "outside move": "a best move outside the region's points, and what it does for the region",
}


class Note(str):
    """A note: the sentence itself (a `str`) and its `kind`, one of `KINDS`."""

    kind: str

    def __new__(cls, kind: str, sentence: str) -> "Note":
        if kind not in KINDS:
            raise ValueError(f"unknown note kind {kind!r} (one of {', '.join(KINDS)})")
        note = super().__new__(cls, sentence)
        note.kind = kind
        return note

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]  # pickling and copies keep the kind
        return self.kind, str(self)

    def __repr__(self) -> str:
        return f"Note({self.kind!r}, {str(self)!r})"


def of_kind(notes: Iterable[str], *kinds: str) -> list[Note]:
    """The notes of the given kinds, in order (a plain string has no kind and is never selected)."""
    return [n for n in notes if isinstance(n, Note) and n.kind in kinds]


def without_kind(notes: Iterable[str], *kinds: str) -> list[str]:
    """The notes of any other kind (plain strings kept)."""
    return [n for n in notes if not (isinstance(n, Note) and n.kind in kinds)]
