"""Batch analysis of SGF collections (`tengen batch`): jobs and their units, a resumable journal, per-game
outputs (JSON lines, SGF with KaTrain's analysis), a local process pool or Ray as backends. An adapter in
layer 5, beside `tengen.io`."""
