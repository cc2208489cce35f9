"""Build the native rules core and the native exhaustive local solver (small C extensions, no dependencies
beyond CPython)."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tengen.go._native",
            sources=["src/tengen/go/_native.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wno-unused-function"],
        ),
        Extension(
            "tengen.endgame._solver",
            sources=["src/tengen/endgame/_solver.c"],
            depends=["src/tengen/endgame/_solver_thermo.h", "src/tengen/endgame/_solver_store.h",
                     "src/tengen/endgame/_solver_rules.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wno-unused-function"],
        ),
    ]
)
