"""Builds the solver's native core (games/solver/native) as ``games.solver._core``.

Everything else about the package is in pyproject.toml; this file only declares the one
C++ extension (setuptools reads extensions from here).
"""

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup

setup(
    ext_modules=[
        Pybind11Extension(
            "games.solver._core",
            # core.cpp compiles the rules and the searches together (see there); the
            # binding is the only file that knows Python.
            ["games/solver/native/core.cpp", "games/solver/native/binding.cpp"],
            include_dirs=["games/solver/native"],
            cxx_std=17,
            # Portable code: no -march=native (the wheel or image may run on another CPU).
            extra_compile_args=["-O2"],
        )
    ],
)
