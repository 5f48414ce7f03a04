"""How the table feels (issue #12): one seeded whole game of each kind through the offline
Discord, counted per turn — thread messages, pings, DM sends and edits, pictures, HTTP requests
per move, and seat codes shown to a person. Keys: `table.<game>.<measure>`."""
from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from bot.engine import KINDS


async def _one(kind: str) -> dict[str, Any]:
    from conftest import World, boot
    from table_play import play_table
    with tempfile.TemporaryDirectory() as tmp:
        fake = await boot(Path(tmp) / "table.db")
        try:
            count = await play_table(fake, World(fake), kind, seed=3)
        finally:
            await fake.stop(check=False)
    return count.per_turn()


def keyed() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in KINDS:
        for key, value in asyncio.run(_one(kind)).items():
            out[f"table.{kind}.{key}"] = value
    return out
