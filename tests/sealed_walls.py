"""The sealed 9x9 board the endgame tests draw their first-line shapes under: Black's pass-alive wall on the
left, White's on the right, the first two lines (added by each test) open between them."""

SEALED_TOP = """
. X . X O . O . O
X X X X O O O O O
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
"""
