"""Cogs adapt the engines to Discord and decide nothing the rulebook decides (issue #10): they
import no rule modules of an engine (only its Game class and the core protocol) and never take
move text apart; the words for a move come from `Game.describe`."""
import ast
import re
from pathlib import Path

import pytest

from bot.engine import KINDS

COGS = Path(__file__).resolve().parent.parent / "cogs"
ALLOWED_ENGINE_IMPORTS = {"bot.engine", "bot.engine.core", "bot.engine.menu"}
TAKING_APART = {"split", "rsplit", "partition", "rpartition", "startswith", "endswith"}


def engine_imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.engine"):
            yield node.lineno, node.module, [a.name for a in node.names]


def move_surgery(tree):
    """Calls like `move.split()` / `move[5:]` on a name that holds move text."""
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in TAKING_APART):
            target = node.func.value
        elif isinstance(node, ast.Subscript):
            target = node.value
        if isinstance(target, ast.Name) and "move" in target.id.lower():
            yield node.lineno, ast.unparse(node)[:60]


@pytest.mark.parametrize("kind", KINDS)
def test_cog_imports_no_rules(kind):
    tree = ast.parse((COGS / f"{kind}.py").read_text())
    bad = []
    for line, module, names in engine_imports(tree):
        if module in ALLOWED_ENGINE_IMPORTS:
            continue
        if module == f"bot.engine.{kind}" and all(n[:1].isupper() and not n.isupper()
                                                    for n in names):
            continue  # the game's class itself
        bad.append(f"line {line}: from {module} import {', '.join(names)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("kind", KINDS)
def test_cog_never_takes_move_text_apart(kind):
    tree = ast.parse((COGS / f"{kind}.py").read_text())
    bad = [f"line {line}: {code}" for line, code in move_surgery(tree)]
    assert not bad, "\n".join(bad)


COG_LINES = 250  # issue #21: a game's cog keeps only what is Discord's own
RULE_NUMBER = re.compile(r"\d")
DISCORD_LIMITS = ("character",)  # "up to 200 characters": Discord's text limits, not rules


@pytest.mark.parametrize("kind", KINDS)
def test_cog_is_small(kind):
    lines = len((COGS / f"{kind}.py").read_text().splitlines())
    assert lines <= COG_LINES, f"cogs/{kind}.py has {lines} lines (at most {COG_LINES})"


def refusals(tree):
    """The literal text of every `RuleError(...)` a cog raises (f-string fields left out)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleError":
            for arg in node.args[:1]:
                parts = []
                for sub in ast.walk(arg):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        parts.append(sub.value)
                yield node.lineno, "".join(parts)


@pytest.mark.parametrize("kind", KINDS)
def test_cog_states_no_rule_numbers(kind):
    """A number in a cog's refusal is a rule fact (a count, a die's faces, a limit of the game):
    the engine states those (`prompt`, `describe`, its own RuleErrors)."""
    tree = ast.parse((COGS / f"{kind}.py").read_text())
    bad = [f"line {line}: {text[:70]!r}" for line, text in refusals(tree)
           if RULE_NUMBER.search(text) and not any(w in text for w in DISCORD_LIMITS)]
    assert not bad, "\n".join(bad)
