"""Build the native rules core, the native exhaustive local solver, the life-and-death prover (df-pn) and the
native playout search (small C extensions, no dependencies beyond CPython and pthreads). The rules core and the playout search share one
board (src/tengen/go/_board_core.h, plain C)."""
from setuptools import Extension, setup

C_FLAGS = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function"]
BOARD_CORE = "src/tengen/go/_board_core.h"

setup(
    ext_modules=[
        Extension(
            "tengen.go._native",
            sources=["src/tengen/go/_native.c"],
            depends=[BOARD_CORE],
            extra_compile_args=C_FLAGS,
        ),
        Extension(
            "tengen.endgame.exact._solver",
            sources=["src/tengen/endgame/exact/_solver.c"],
            depends=["src/tengen/endgame/exact/_solver_thermo.h", "src/tengen/endgame/exact/_solver_store.h",
                     "src/tengen/endgame/exact/_solver_rules.h"],
            extra_compile_args=C_FLAGS,
        ),
        Extension(
            "tengen.life._proof",
            sources=["src/tengen/life/_proof.c"],
            extra_compile_args=C_FLAGS,
        ),
        Extension(
            "tengen.search._uct",
            sources=["src/tengen/search/_uct.c"],
            include_dirs=["src/tengen/go"],
            depends=[BOARD_CORE, "src/tengen/search/_uct_board.h", "src/tengen/search/_uct_patterns.h",
                     "src/tengen/search/_uct_ladder.h", "src/tengen/search/_uct_playout.h",
                     "src/tengen/search/_uct_tree.h",
                     "src/tengen/search/_uct_knowledge.h"],
            extra_compile_args=C_FLAGS + ["-pthread"],
            extra_link_args=["-pthread"],
        ),
    ]
)
