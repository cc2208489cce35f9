"""How every training dataset splits its games (winner, value, local-move, PBN): by a hash of the moves, so
one game lands in the same split in every dataset and no test game is ever trained on by another model."""
from __future__ import annotations

SPLITS: tuple[str, ...] = ("train", "val", "test")
# bucket = key % 100: [0, 15) test, [15, 25) validation, the rest training
TEST_PERCENT, VAL_PERCENT = 15, 10


def split_of(key: int) -> int:
    """0 = train, 1 = val, 2 = test, from the move hash (15 % test, 10 % validation)."""
    bucket = key % 100
    if bucket < TEST_PERCENT:
        return 2
    if bucket < TEST_PERCENT + VAL_PERCENT:
        return 1
    return 0


def split_note() -> str:
    """The split's proportions in words (for the model cards)."""
    return f"{TEST_PERCENT} % test, {VAL_PERCENT} % validation, the rest training"
