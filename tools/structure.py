"""The code's shape, checked with the standard library alone: modules over 400 lines, functions over 80
lines, and import circles between tengen's modules (imports inside functions included: a function-local
import hides a circle from the import system, not from a reader; imports under `if TYPE_CHECKING:` are
for annotations only and never run, so they do not count).

A circle is a strongly connected component (Tarjan's algorithm) of the graph "module A imports module B";
`from tengen.x import y` counts as importing the module tengen.x.y when that is a module, else tengen.x.
Native and front-end sources are listed too: C functions over 80 lines, and files of any language over 400
lines (vendored third-party code aside).
Usage: python tools/structure.py [--root src/tengen]; the last line is `circles: N`.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
OTHER_SOURCES = (".c", ".h", ".js", ".css", ".html")  # besides Python: the native code and the web page
VENDORED = "vendor"  # a folder of third-party code, kept as it came
_C_NOISE = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", re.S)
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


def other_sources(root: Path) -> list[Path]:
    """The non-Python sources under `root`, vendored code aside."""
    return sorted(p for p in root.rglob("*") if p.suffix in OTHER_SOURCES and VENDORED not in p.parts)


def long_c_functions(path: Path) -> list[tuple[str, int]]:
    """(name, lines) of the C functions in `path` longer than MAX_FUNCTION_LINES: a brace block opened at
    file level after a parenthesised header that is no initializer (comments and strings blanked first,
    lines kept)."""
    text = _C_NOISE.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text())
    out, depth, header, start, name = [], 0, "", 0, ""
    for lineno, line in enumerate(text.splitlines(), 1):
        for ch in line:
            if ch == "{":
                if depth == 0:
                    head = header.strip()
                    match = re.search(r"(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$", head)
                    name = match.group(1) if match and "=" not in head.split("(")[0] else ""
                    start = lineno
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    if name and lineno - start + 1 > MAX_FUNCTION_LINES:
                        out.append((name, lineno - start + 1))
                    header, name = "", ""
                    continue
            elif depth == 0:
                header = "" if ch == ";" else header + ch
        if depth == 0:
            header = "" if line.lstrip().startswith("#") else header + " "
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
    base = args.root.parent
    others = [(p, len(p.read_text().splitlines())) for p in other_sources(args.root)]
    print(f"other source files (C, JavaScript, CSS, HTML) over {MAX_MODULE_LINES} lines: "
          f"{sum(n > MAX_MODULE_LINES for _, n in others)}")
    for p, n in sorted(others, key=lambda x: -x[1]):
        if n > MAX_MODULE_LINES:
            print(f"  {p.relative_to(base)}: {n}")
    long_c = [(f"{p.relative_to(base)}:{fn}", n) for p in other_sources(args.root) if p.suffix in (".c", ".h")
              for fn, n in long_c_functions(p)]
    print(f"C functions over {MAX_FUNCTION_LINES} lines: {len(long_c)}")
    for name, n in sorted(long_c, key=lambda x: -x[1]):
        print(f"  {name}: {n}")
    found = circles(graph)
    print(f"import circles (imports inside functions included): {len(found)}")
    for component in found:
        print(f"  {len(component)} modules: {', '.join(component)}")
    print(f"circles: {len(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
