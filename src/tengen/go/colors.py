"""Color constants: one meaning everywhere (Black = 1 = Left = positive)."""

BLACK = 1
WHITE = -1
EMPTY = 0

COLOR_NAMES = {BLACK: "black", WHITE: "white", EMPTY: "empty"}


def opponent(color: int) -> int:
    """The other player."""
    return -color


def parse_color(text: str) -> int:
    """Parse 'b', 'black', 'w', 'white' (any case) into BLACK / WHITE; ValueError otherwise."""
    t = text.strip().lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise ValueError(f"not a color: {text!r}")
