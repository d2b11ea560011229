"""Every error code the source can answer with: the classes under DomainError (one class
per code, found by importing every module of market/ and walking the subclasses), and
the codes the API's handler and input guard write themselves (read from their source).
Also where a code is still given per instance (`self.code = ...`, `code=`), which the
test allows only where it names it."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import market
from market.domain.errors import DomainError

ROOT = Path(__file__).resolve().parents[1] / "market"
NOT_IMPORTED = {"market.wsgi"}  # builds an app at import; defines no error
# The handler's own answers: market/api/errors.py, its HTTP_CODES, the input guard.
HANDLER_FILES = ("api/errors.py", "validation/error_codes.py", "api/input_guard.py")


def error_classes() -> list[type[DomainError]]:
    """DomainError and every subclass defined anywhere under market/."""
    for info in pkgutil.walk_packages(market.__path__, "market."):
        if info.name not in NOT_IMPORTED:
            importlib.import_module(info.name)
    found: list[type[DomainError]] = [DomainError]
    for cls in found:
        found.extend(c for c in cls.__subclasses__() if c not in found)
    return [c for c in found if c.__module__.startswith("market.")]  # not the tests' own


def class_codes() -> dict[str, list[str]]:
    """code -> the classes that define it (their own `code`, not an inherited one)."""
    out: dict[str, list[str]] = {}
    for cls in error_classes():
        if "code" in vars(cls):
            out.setdefault(cls.code, []).append(f"{cls.__module__}.{cls.__qualname__}")
    return out


def handler_codes(root: Path = ROOT) -> set[str]:
    """The codes written by name in the handler's files: `code("x")`, the values of
    HTTP_CODES, `http_code`'s fallback and the input guard's `UnsafeInputError("x", ...)`."""
    out: set[str] = set()
    for name in HANDLER_FILES:
        for node in ast.walk(ast.parse((root / name).read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                first = node.args[0]
                if node.func.id in ("code", "UnsafeInputError") and isinstance(first, ast.Constant):
                    out.add(str(first.value))
            if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "HTTP_CODES":
                assert isinstance(node.value, ast.Dict)
                out |= {str(v.value) for v in node.value.values if isinstance(v, ast.Constant)}
    return out


def per_instance_sites(root: Path = ROOT) -> set[str]:
    """`file:Class` wherever an error's code is set per instance: `self.code = ...` in a
    class, or a `code=` keyword given to a class under DomainError; and wherever a family
    with no code of its own (RuleRefusedError, BadRequestError, ...) is made directly."""
    classes = {cls.__name__ for cls in error_classes()}
    families = {cls.__name__ for cls in error_classes() if "code" not in vars(cls)}
    out: set[str] = set()
    for path in root.rglob("*.py"):
        where = path.relative_to(root.parent)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Assign) and any(
                        isinstance(t, ast.Attribute) and t.attr == "code" for t in sub.targets
                    ):
                        out.add(f"{where}:{node.name}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in classes
                and (node.func.id in families or any(k.arg == "code" for k in node.keywords))
            ):
                out.add(f"{where}:{node.func.id}")
    return out
