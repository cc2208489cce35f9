"""Build the native rules core (a small C extension, no dependencies beyond CPython)."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tengen.go._native",
            sources=["src/tengen/go/_native.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wno-unused-function"],
        )
    ]
)
