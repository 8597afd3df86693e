"""Builds the solver's native core (games/solver/native) as ``games.solver._core``.

Everything else about the package is in pyproject.toml; this file only declares the one
C++ extension (setuptools reads extensions from here).
"""

from glob import glob

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup

setup(
    ext_modules=[
        Pybind11Extension(
            "games.solver._core",
            sorted(glob("games/solver/native/*.cpp")),
            include_dirs=["games/solver/native"],
            cxx_std=17,
            # Portable code: no -march=native (the wheel or image may run on another CPU).
            # The search's hot loop calls the rules in position.cpp: link-time optimisation
            # inlines them across the two files.
            extra_compile_args=["-O2", "-flto"],
            extra_link_args=["-O2", "-flto"],
        )
    ],
)
