"""The offline tools' exit codes and argument parser, shared by `python -m bot` and the tools it
hands off to (`match`, `render`), without importing the bot itself."""
from __future__ import annotations

import argparse
import sys

EXIT_REFUSED = 1  # the input was refused, with one line saying why
EXIT_CONFIG = 2   # the bot cannot start (a setting, the token, the database)
EXIT_BUG = 3      # the referee crashed: a bug to report, never a verdict on the input


class Parser(argparse.ArgumentParser):
    """argparse, except that a refused command line exits 1 ("the input was refused"), not 2,
    which these tools keep for "the bot cannot start"."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_REFUSED, f"{self.prog}: error: {message}\n")
