"""The local-move network: from a position, a region and the local moves so far, the next local move of
either color or "no move" (723 outputs on the 19x19 canvas) and whether that move answers the last one."""
