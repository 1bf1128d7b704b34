"""Builds the Cython extensions only; the metadata lives in pyproject.toml.

Fast directives by default. `TAN_DEBUG=1` builds with bounds checks,
wraparound and C assertions on, so tests can run the checked core.
"""

import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("TAN_DEBUG") == "1"

directives = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "embedsignature": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3", "-march=native", "-funroll-loops"]
macros = [] if DEBUG else [("NDEBUG", "1")]

extensions = [
    Extension(
        f"solver.{name}",
        [f"solver/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        extra_compile_args=compile_args,
        define_macros=macros,
    )
    for name in ("_core", "_search")
    if os.path.exists(f"solver/{name}.pyx")
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False))
