"""Endgame analysis: decompose a late-game board into regions, grow local variation trees, score leaves,
and turn each region into a combinatorial game (count, temperature, move value, type)."""
