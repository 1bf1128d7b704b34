"""The layout holds: imports flow one way between the packages, with no cycles.

`service` and `solver.tools` → `solver.search` and `solver.players` →
`solver.game` and `solver.core`; nothing in `solver` imports `service`,
`benchmarks` or `tests`. Every import counts, also one inside a function, and
the Cython sources (`cimport` included) as well as the Python ones.

The web page's ES modules (service/static) are read too: on the page data flows
one way (views → actions → store, docs/web.md), so its imports have no cycle either.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterable, Mapping
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


@functools.cache
def graph() -> dict[str, set[str]]:
    """Every module's first-party imports: parsed when a test first asks (once, on the worker that
    runs this file), not when every worker collects it."""
    return {module: set().union(*(imports_of(path) for path in paths)) for module, paths in MODULES.items()}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_flow_one_way(module: str) -> None:
    if layer(module) == "solver":
        assert graph()[module] == set(), "the solver package's own __init__ imports nothing"
        return
    allowed = ALLOWED[layer(module)]
    wrong = sorted(name for name in graph()[module] if layer(name) not in allowed)
    assert not wrong, f"{module} ({layer(module)}) may not import {wrong}"


def find_cycle(
    graph: Mapping[str, Iterable[str]], skip: Callable[[str, str], bool] = lambda _a, _b: False
) -> list[str] | None:
    """The first import cycle of `graph` (module -> the modules it imports), as the path that closes
    it (`[a, b, a]`), or None. Depth-first search for a back edge; an edge `skip(module, name)` says
    is harmless, or one to a module outside the graph, is not followed."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(module: str, stack: list[str]) -> list[str] | None:
        state[module] = 1
        for name in sorted(graph.get(module, ())):
            if name not in graph or skip(module, name):
                continue
            if state.get(name) == 1:
                return [*stack[stack.index(name):], name]
            if name not in state:
                found = visit(name, [*stack, name])
                if found:
                    return found
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module, [module])
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle_and_only_one() -> None:
    """A guard on the finder itself, on made-up graphs: a ring of three, a self-import, a diamond."""
    ring = {"render": {"table"}, "table": {"play"}, "play": {"render", "store"}, "store": set()}
    assert find_cycle(ring) == ["play", "render", "table", "play"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    diamond = {"app": {"view", "action"}, "view": {"store"}, "action": {"store"}, "store": set()}
    assert find_cycle(diamond) is None
    assert find_cycle({"a": {"b"}, "b": {"a"}}, skip=lambda module, name: name == "a") is None


def test_no_import_cycles() -> None:
    """No cycle among first-party modules (a package's own __init__ runs before its modules anyway)."""
    cycle = find_cycle(graph(), skip=lambda module, name: module.startswith(name + "."))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


# The web page's ES modules: `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"`
# and `import("./x.js")`, their names relative to service/static.
STATIC = ROOT / "service" / "static"
_JS_IMPORT = re.compile(
    r"""(?:\b(?:import|export)\b[^;'"`]*?\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"']+)\1""", re.S
)


def js_imports_of(path: Path, root: Path = STATIC) -> set[str]:
    """Every page module `path` imports (static or dynamic), named by its path under `root`."""
    text = path.read_text(encoding="utf-8")
    return {
        (path.parent / match.group(2)).resolve().relative_to(root.resolve()).as_posix()
        for match in _JS_IMPORT.finditer(text)
    }


def js_graph(root: Path = STATIC) -> dict[str, set[str]]:
    """Each page module under `root` and the page modules it imports."""
    paths = sorted(root.rglob("*.js"))
    return {path.relative_to(root).as_posix(): js_imports_of(path, root) for path in paths}


def test_the_page_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """A guard on the page's parser: each form of import is an edge, and the real page's are read."""
    (tmp_path / "js").mkdir()
    (tmp_path / "words.js").write_text("export const WORDS = {};\n")
    (tmp_path / "js" / "a.js").write_text(
        'import {\n  x,\n  y,\n} from "./b.js";\nimport "./c.js";\nexport { z } from \'./d.js\';\n'
        'const later = () => import("./e.js");\nimport { WORDS } from "../words.js";\n'
        "// a comment naming no module: import nothing\n"
    )
    for name in "bcde":
        (tmp_path / "js" / f"{name}.js").write_text("export const x = 1;\n")
    graph = js_graph(tmp_path)
    assert graph["js/a.js"] == {"js/b.js", "js/c.js", "js/d.js", "js/e.js", "words.js"}
    assert graph["js/b.js"] == set()
    real = js_graph()
    assert "js/app.js" in real and "words.js" in real["js/i18n.js"]
    assert "js/api.js" in real["js/follow.js"]


def test_the_page_has_no_import_cycles() -> None:
    """The page's imports run one way (views → actions → store; app.js wires them): no cycle."""
    cycle = find_cycle(js_graph())
    assert cycle is None, "import cycle among the page's modules: " + " -> ".join(cycle or [])


def test_the_graph_sees_the_real_imports(tmp_path: Path) -> None:
    """A guard on the parser itself: it finds known edges of each kind."""
    assert "solver.game.bout" in graph()["solver.game.reference"]
    assert "solver.core._core" in graph()["solver.search._tree"]  # a cimport in a .pyx
    assert "solver.search._sampling" in graph()["solver.search.sampling"]  # from a package import a module
    late = tmp_path / "late.py"
    late.write_text("def f():\n    import benchmarks.speed\n    from service.errors import ApiError\n")
    assert imports_of(late) == {"benchmarks.speed", "service.errors"}  # imports inside a function


# Each page module names its role first in its opening comment; data flows views → actions → store
# (docs/web.md): what each role may import. A mode (the table assistant, the analysis board, a
# followed game) keeps its own state, actions and view in one closure; wiring may import anything.
PAGE_ROLES: dict[str, set[str]] = {
    "Store": set(),
    "Pure": {"Store", "Pure"},  # helpers and selectors (the words read the store's language)
    "Action": {"Store", "Pure", "Action"},
    "View": {"Pure", "View"},  # a view is handed the state and the actions: it imports neither
    "Mode": {"Store", "Pure", "Action", "View", "Mode"},
    "Wiring": {"Store", "Pure", "Action", "View", "Mode", "Wiring"},
}
_ROLE = re.compile(r"\A/\*\s*(\w+):")


def page_role(path: Path) -> str | None:
    """The role a page module's opening comment names (`/* View: …`), or None."""
    found = _ROLE.match(path.read_text(encoding="utf-8"))
    return found.group(1) if found and found.group(1) in PAGE_ROLES else None


def test_each_page_module_names_its_role() -> None:
    unnamed = sorted(name for name in js_graph() if page_role(STATIC / name) is None)
    assert unnamed == [], f"these modules name no role ({', '.join(PAGE_ROLES)}) first: {unnamed}"


def wrong_imports(module: str, graph: Mapping[str, Iterable[str]], root: Path = STATIC) -> list[str]:
    """The imports of `module` its role does not allow, each with the role it has."""
    role = page_role(root / module)
    allowed = PAGE_ROLES[role] if role else set()
    roles = {name: page_role(root / name) for name in graph[module]}
    return sorted(f"{name} ({other})" for name, other in roles.items() if other not in allowed)


@pytest.mark.parametrize("module", sorted(js_graph()))
def test_page_imports_flow_one_way(module: str) -> None:
    wrong = wrong_imports(module, js_graph())
    assert not wrong, f"{module} ({page_role(STATIC / module)}) may not import {wrong}"


def test_the_page_roles_are_read(tmp_path: Path) -> None:
    """A guard on the role reader and the rule, on made-up modules: an action that imports a view
    is refused, a view that imports a pure helper is not."""
    (tmp_path / "view.js").write_text('/* View: draws. */\nimport { words } from "./words.js";\n')
    (tmp_path / "action.js").write_text('/* Action: acts. */\nimport { draw } from "./view.js";\n')
    (tmp_path / "words.js").write_text("/* Pure: words. */\nexport const words = 1;\n")
    (tmp_path / "none.js").write_text("// no role\n")
    roles = [page_role(tmp_path / name) for name in ("view.js", "action.js", "words.js", "none.js")]
    assert roles == ["View", "Action", "Pure", None]
    graph = js_graph(tmp_path)
    assert wrong_imports("action.js", graph, tmp_path) == ["view.js (View)"]
    assert wrong_imports("view.js", graph, tmp_path) == []
    assert page_role(STATIC / "js" / "store.js") == "Store"
    assert page_role(STATIC / "js" / "render.js") == "View"
