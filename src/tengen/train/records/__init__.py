"""Positions with known winners, built from the shared game-record archives (the winner dataset).

Pipeline: stream every ``*.tar.xz`` in the games folder member by member (`tengen.train.archives`) -> read
each SGF through tengen.go's reader and keep 19x19 games with a recorded winner, counting every skip
(`game`; komi by `komi`) -> replay with tengen's rules core and snapshot the stones and prisoners after moves
30, 80, 130 and 180 (`replay`) -> one compressed checkpoint per chunk of archive members, written
atomically so a killed build resumes where it stopped -> ``assemble`` drops duplicate move sequences across
all collections and writes one ``{train,val,test}.npz`` per split (`build`; layout and loading: `store`).

The split is a pure function of the move sequence (``blake2b`` of setup stones + moves), so a duplicate
always lands in the same split as its original and the test games never move between builds.

Run ``python -m tengen.train.records build`` (``--help`` for options); the cache lives in
``$TENGEN_CACHE/datasets`` (default ``~/.cache/tengen/datasets``) or ``--cache-dir``.
"""
