"""The code's shape, checked with the standard library alone: modules over 400 lines, functions over 80
lines, and import circles between tengen's modules (imports inside functions included: a function-local
import hides a circle from the import system, not from a reader; imports under `if TYPE_CHECKING:` are
for annotations only and never run, so they do not count).

A circle is a strongly connected component (Tarjan's algorithm) of the graph "module A imports module B";
`from tengen.x import y` counts as importing the module tengen.x.y when that is a module, else tengen.x.
Usage: python tools/structure.py [--root src/tengen]; the last line is `circles: N`.
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
REPO = Path(__file__).resolve().parents[1]


def module_names(root: Path) -> dict[str, Path]:
    """Every module under `root` (a package directory) by its dotted name."""
    base = root.parent
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def extension_names(root: Path) -> set[str]:
    """The C extensions under `root` ('tengen.go._native' from go/_native.cpython-311-....so): imported like
    modules, importing nothing of ours."""
    base = root.parent
    return {".".join(path.relative_to(base).parent.parts + (path.name.split(".")[0],))
            for path in root.rglob("*.so")}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The tengen modules `name` imports anywhere in its file (top level or inside functions)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _executed_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(_known_prefix(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.add(sub if sub in known else _known_prefix(source, known))
    found.discard("")
    found.discard(name)
    return found


def _executed_nodes(tree: ast.AST):
    """Every node of `tree` except those under `if TYPE_CHECKING:` (imports for annotations only: never run,
    so never part of a circle)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _names_type_checking(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _names_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _known_prefix(dotted: str, known: set[str]) -> str:
    """The longest prefix of `dotted` that is one of our modules ('' when none: a third-party import)."""
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return ""


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def long_functions(path: Path) -> list[tuple[str, int]]:
    """(qualified name, lines) of the functions in `path` longer than MAX_FUNCTION_LINES."""
    tree = ast.parse(path.read_text(), str(path))
    out = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    lines = child.end_lineno - child.lineno + 1
                    if lines > MAX_FUNCTION_LINES:
                        out.append((name, lines))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=REPO / "src" / "tengen")
    args = parser.parse_args(argv)
    modules = module_names(args.root)
    known = set(modules) | extension_names(args.root)
    graph = {name: imports_of(name, path, known) & set(modules) for name, path in modules.items()}
    big = [(name, len(path.read_text().splitlines())) for name, path in modules.items()]
    big = [(name, n) for name, n in big if n > MAX_MODULE_LINES]
    print(f"modules over {MAX_MODULE_LINES} lines: {len(big)}")
    for name, n in sorted(big, key=lambda x: -x[1]):
        print(f"  {name}: {n}")
    long = [(f"{name}.{fn}", n) for name, path in modules.items() for fn, n in long_functions(path)]
    print(f"functions over {MAX_FUNCTION_LINES} lines: {len(long)}")
    for name, n in sorted(long, key=lambda x: -x[1]):
        print(f"  {name}: {n}")
    found = circles(graph)
    print(f"import circles (imports inside functions included): {len(found)}")
    for component in found:
        print(f"  {len(component)} modules: {', '.join(component)}")
    print(f"circles: {len(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
