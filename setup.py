"""Build the native rules core, the native exhaustive local solver and the native playout search (small C
extensions, no dependencies beyond CPython and pthreads)."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tengen.go._native",
            sources=["src/tengen/go/_native.c"],
            depends=["src/tengen/go/_board_core.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wno-unused-function"],
        ),
        Extension(
            "tengen.endgame._solver",
            sources=["src/tengen/endgame/_solver.c"],
            depends=["src/tengen/endgame/_solver_thermo.h", "src/tengen/endgame/_solver_store.h",
                     "src/tengen/endgame/_solver_rules.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wno-unused-function"],
        ),
        Extension(
            "tengen.go._uct",
            sources=["src/tengen/go/_uct.c"],
            depends=["src/tengen/go/_uct_board.h", "src/tengen/go/_uct_patterns.h", "src/tengen/go/_uct_playout.h",
                     "src/tengen/go/_uct_tree.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wno-unused-function", "-pthread"],
            extra_link_args=["-pthread"],
        ),
    ]
)
