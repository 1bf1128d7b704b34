"""Builds the Cython extensions only; the metadata lives in pyproject.toml.

- `solver.core._core` (solver/core/_core.pyx): the fast game state and playouts.
- `solver.search._model`: the learned value and policy.
- `solver.search._sampling`: the sampler of the worlds a seat cannot tell apart.
- `solver.search._endgame`: the exact endgame solver.
- `solver.search._greedy`: the greedy policy (its per-move helpers inline in
  _greedy.pxd), its playouts and its training examples.
- `solver.search._tree`: the tree search, SO-ISMCTS and PIMC.
- `solver.search._beliefs`: weighing worlds by what the other seats did.

The C array sizes (most seats, the repetition history) are defined once, as
bounds in solver/game/bounds.py, and handed to the C compiler as macros.

Flags: portable by default (`-O3`), so a wheel runs on any machine of its
architecture. `TAN_NATIVE=1` adds `-march=native` for the machine that
builds (the Makefile does, for `make build`). `TAN_DEBUG=1` builds with bounds
checks, wraparound and C assertions on, so tests can run the checked core.
"""

import os
import runpy

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("TAN_DEBUG") == "1"
NATIVE = os.environ.get("TAN_NATIVE") == "1"
BOUNDS = runpy.run_path(os.path.join("solver", "game", "bounds.py"))

directives = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "embedsignature": True,
}
if DEBUG:
    compile_args = ["-O0", "-g"]
else:
    compile_args = ["-O3", "-funroll-loops"] + (["-march=native"] if NATIVE else [])
macros = [(f"TAN_{name}", str(BOUNDS[name])) for name in BOUNDS["C_CONSTANTS"]]
if not DEBUG:
    macros.append(("NDEBUG", "1"))

extensions = [
    Extension(
        f"solver.{package}.{name}",
        [os.path.join("solver", package, f"{name}.pyx")],
        extra_compile_args=compile_args,
        define_macros=macros,
        # Not in the C sources' own dependencies: the constants' file and the flags. A change to
        # either compiles every module again (`make build` compiles only what changed).
        depends=[os.path.join("solver", "game", "bounds.py"), "setup.py"],
    )
    for package, name in (
        ("core", "_core"),
        ("search", "_model"),
        ("search", "_sampling"),
        ("search", "_endgame"),
        ("search", "_greedy"),
        ("search", "_tree"),
        ("search", "_beliefs"),
    )
]

# The modules compile in parallel, one a core (the search is several small modules), both under
# `make build` and under pip. `TAN_NO_EXTENSIONS=1` installs the Python code alone: the Makefile's
# editable install does, while `make build` compiles the extensions in place beside it (pip would
# compile them again in a throwaway folder).
JOBS = os.cpu_count() or 1
if os.environ.get("TAN_NO_EXTENSIONS") == "1":
    setup()
else:
    setup(
        ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False, nthreads=JOBS),
        options={"build_ext": {"parallel": JOBS}},
    )
