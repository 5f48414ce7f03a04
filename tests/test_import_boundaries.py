"""The rules, the bots' policies and the pictures never need Discord (issue #21): `bot/engine/`,
`bot/policies/` and `rendering/` run in the render tool, the benches, worker processes and
tests without discord.py, and the cogs adapt them to Discord, never the other way round.

Checked twice: by reading every module's imports (with `ast`, following the project's own
modules and the packages that import them, to name the chain that reaches `discord`), and by
importing all of those modules in a fresh interpreter and looking at `sys.modules`."""
from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUARDED = ("bot/engine", "bot/policies", "rendering")
PROJECT = ("bot", "rendering")                   # the packages whose imports are followed
FORBIDDEN = "discord"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PROJECT for p in (ROOT / package).rglob("*.py")}


def guarded_modules() -> list[str]:
    return sorted(module_name(p) for d in GUARDED for p in (ROOT / d).rglob("*.py"))


MODULES = project_modules()


@cache
def imported(name: str) -> frozenset[str]:
    """Every module the project module `name` imports anywhere in its file (functions and
    `TYPE_CHECKING` blocks included), with the packages each import runs on the way."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                     # relative: from the package, level - 1 up
                anchor = package.rsplit(".", node.level - 1)[0]
                base = f"{anchor}.{node.module}" if node.module else anchor
            found.add(base)
            # `from bot.engine import core` imports the module bot.engine.core
            found |= {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES}
    # importing a.b.c runs a/__init__.py and a/b/__init__.py first
    return frozenset(".".join(mod.split(".")[:i + 1])
                     for mod in found for i in range(mod.count(".") + 1))


def chain_to_forbidden(start: str) -> list[str] | None:
    """The shortest import chain from `start` to `discord` (or a module inside it), or None."""
    seen, queue = {start: [start]}, [start]
    while queue:
        current = queue.pop(0)
        if current not in MODULES:
            continue
        # the packages `current` sits in run before it: a chain may pass through them
        parents = {current.rpartition(".")[0]} - {""}
        for nxt in sorted(imported(current) | parents):
            chain = seen[current] + [nxt]
            if nxt == FORBIDDEN or nxt.startswith(FORBIDDEN + "."):
                return chain
            if nxt not in seen:
                seen[nxt] = chain
                queue.append(nxt)
    return None


def test_the_guarded_packages_are_found():
    names = guarded_modules()
    assert {"bot.engine.core", "bot.policies", "rendering.text"} <= set(names), names


def test_the_import_reader_follows_the_bot_to_discord():
    """The reader is not blind: the cog base and the UI do reach discord."""
    assert chain_to_forbidden("bot.gamecog")
    assert chain_to_forbidden("bot.ui")


@pytest.mark.parametrize("module", guarded_modules())
def test_no_import_reaches_discord(module):
    chain = chain_to_forbidden(module)
    assert chain is None, f"{module} imports discord: " + " -> ".join(chain)


def test_importing_every_guarded_module_loads_no_discord():
    """A fresh interpreter imports all of them; `discord` must not be in `sys.modules`."""
    code = ("import importlib, sys\n"
            f"for name in {guarded_modules()!r}:\n"
            "    importlib.import_module(name)\n"
            f"    assert {FORBIDDEN!r} not in sys.modules, f'importing {{name}} loaded discord'\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
