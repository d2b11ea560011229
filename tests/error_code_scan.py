"""Every error code the source can answer with, read from the code itself (AST): the
`code`/`status` of each DomainError subclass, the per-instance codes given to
ConflictError(code=...), RuleRefusedError("code", ...) and BadRequestError("code", ...),
and the codes the API's error handler writes with error_body("code", ...)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "market"
# A per-instance code's status comes from the class it is given to.
PER_INSTANCE = {"ConflictError": 409, "RuleRefusedError": 422, "BadRequestError": 400}
INPUT_GUARD = "UnsafeInputError"  # market/api/input_guard.py: its codes are answered 400


def _classes(trees: dict[Path, ast.Module]) -> dict[str, tuple[str | None, int | None, str]]:
    """name -> (code, status, base) for every class that assigns `code` or `status`."""
    found: dict[str, tuple[str | None, int | None, str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef) or not node.bases:
                continue
            code: str | None = None
            status: int | None = None
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
                    names = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
                    if "code" in names and isinstance(stmt.value.value, str):
                        code = stmt.value.value
                    if "status" in names and isinstance(stmt.value.value, int):
                        status = stmt.value.value
            if node.name in found and code is None:
                continue  # a namesake elsewhere (events' UnknownEventTypeError) has no code
            base = node.bases[0]
            found[node.name] = (code, status, base.id if isinstance(base, ast.Name) else "")
    return found


def _status_of(name: str, classes: dict[str, tuple[str | None, int | None, str]]) -> int | None:
    while name in classes:
        _, status, base = classes[name]
        if status is not None:
            return status
        name = base
    return None


def _is_error_class(name: str, classes: dict[str, tuple[str | None, int | None, str]]) -> bool:
    while name in classes:
        if name == "DomainError":
            return True
        name = classes[name][2]
    return name == "DomainError"


def codes_in_source(root: Path = ROOT) -> dict[str, set[int]]:
    """code -> the statuses the source answers it with."""
    return scan(root)[0]


def dynamic_code_sites(root: Path = ROOT) -> set[str]:
    """`file:ErrorClass` wherever a code is not a literal (the test lists what each gives)."""
    return scan(root)[1]


def scan(root: Path = ROOT) -> tuple[dict[str, set[int]], set[str]]:
    trees = {p: ast.parse(p.read_text(), str(p)) for p in root.rglob("*.py")}
    classes = _classes(trees)
    out: dict[str, set[int]] = {}
    dynamic: set[str] = set()
    for name, (code, _, _) in classes.items():
        if code is not None and _is_error_class(name, classes):
            out.setdefault(code, set()).add(_status_of(name, classes) or 422)
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            fn = node.func.id
            literal = [
                k.value.value
                for k in node.keywords
                if k.arg == "code" and isinstance(k.value, ast.Constant)
            ]
            positional = fn == INPUT_GUARD or (fn in PER_INSTANCE and fn != "ConflictError")
            if positional and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    literal.append(first.value)
            given = [k.value for k in node.keywords if k.arg == "code"]
            if positional and node.args:
                given.append(node.args[0])
            # Only where an error is made: `code=` also names other things (the public
            # check's verification code in url_for and render_template).
            raises = fn == INPUT_GUARD or fn in PER_INSTANCE or _is_error_class(fn, classes)
            if raises and any(not isinstance(v, ast.Constant) for v in given):
                dynamic.add(f"{path.relative_to(root.parent)}:{fn}")
            if fn == INPUT_GUARD and literal:
                out.setdefault(str(literal[0]), set()).add(400)
            elif fn in classes and _is_error_class(fn, classes) and literal:
                status = PER_INSTANCE.get(fn) or _status_of(fn, classes) or 422
                for code in literal:
                    out.setdefault(str(code), set()).add(status)
    return out, dynamic
