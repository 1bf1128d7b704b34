"""The layout holds: imports flow one way between the packages, with no cycles.

`service` and `solver.tools` → `solver.search` and `solver.players` →
`solver.game` and `solver.core`; nothing in `solver` imports `service`,
`benchmarks` or `tests`. Every import counts, also one inside a function, and
the Cython sources (`cimport` included) as well as the Python ones.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Which layers each layer may import (its own included).
ALLOWED: dict[str, set[str]] = {
    "game": {"game"},
    "core": {"game", "core"},
    "search": {"game", "core", "search"},
    "players": {"game", "core", "search", "players"},
    "tools": {"game", "core", "search", "players", "tools"},
    "cli": {"game", "core", "search", "players", "tools", "cli"},
    "service": {"game", "core", "search", "players", "tools", "cli", "service"},
}
FIRST_PARTY = ("solver", "service", "benchmarks", "tests")
_CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\s+\(?([\w\s,]*)|c?import\s+([\w.]+))", re.M)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, list[Path]]:
    """Every module of `solver` and `service` with its source files (a Cython module has two)."""
    found: dict[str, list[Path]] = {}
    for package in ("solver", "service"):
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix in (".py", ".pyx", ".pxd") and "build" not in path.parts:
                found.setdefault(module_name(path), []).append(path)
    return found


MODULES = sources()


def resolve(base: str, name: str | None) -> str:
    """`from base import name`: the submodule when `name` is one, else the package itself."""
    if name is not None and f"{base}.{name}" in MODULES:
        return f"{base}.{name}"
    return base


def imports_of(path: Path) -> set[str]:
    """Every first-party module `path` imports, anywhere in the file."""
    found: set[str] = set()
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.update(resolve(node.module, alias.name) for alias in node.names)
    else:
        for match in _CYTHON_IMPORT.finditer(text):
            if match.group(1):
                names = [name.strip() for name in match.group(2).split(",") if name.strip()]
                found.update(resolve(match.group(1), name) for name in names or [None])
            else:
                found.add(match.group(3))
    return {name for name in found if name.split(".")[0] in FIRST_PARTY}


def layer(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "service":
        return "service"
    if parts[0] != "solver":
        return parts[0]
    return parts[1] if len(parts) > 1 else "solver"


GRAPH = {module: set().union(*(imports_of(path) for path in paths)) for module, paths in MODULES.items()}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_flow_one_way(module: str) -> None:
    if layer(module) == "solver":
        assert GRAPH[module] == set(), "the solver package's own __init__ imports nothing"
        return
    allowed = ALLOWED[layer(module)]
    wrong = sorted(name for name in GRAPH[module] if layer(name) not in allowed)
    assert not wrong, f"{module} ({layer(module)}) may not import {wrong}"


def test_no_import_cycles() -> None:
    """Depth-first search for a back edge among first-party modules."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for name in sorted(GRAPH.get(module, ())):
            if name not in MODULES or module.startswith(name + "."):
                continue  # a package's own __init__ runs before its modules anyway
            if state.get(name) == 1:
                cycle = [*stack[stack.index(name):], name]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if name not in state:
                visit(name, [*stack, name])
        state[module] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module, [module])


def test_the_graph_sees_the_real_imports(tmp_path: Path) -> None:
    """A guard on the parser itself: it finds known edges of each kind."""
    assert "solver.game.bout" in GRAPH["solver.game.reference"]
    assert "solver.core._core" in GRAPH["solver.search._tree"]  # a cimport in a .pyx
    assert "solver.search._sampling" in GRAPH["solver.search.sampling"]  # from a package import a module
    late = tmp_path / "late.py"
    late.write_text("def f():\n    import benchmarks.speed\n    from service.errors import ApiError\n")
    assert imports_of(late) == {"benchmarks.speed", "service.errors"}  # imports inside a function
