"""One message's worth of a game's UI (a turn card or a private panel) and how it goes to
Discord: the keyword arguments to send it, and to edit it in place."""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import Any

import discord

from .ui import view_of

MESSAGE_LIMIT = 2000


@dataclass
class Panel:
    """One message's worth of UI: text, components and maybe a picture."""
    content: str
    items: list[discord.ui.Item] = field(default_factory=list)
    picture: Any = None  # rendering.Picture (png bytes + alt text) or None

    def signature(self) -> str:
        """What the panel shows: text and components (the picture follows the same view)."""
        ids = [getattr(i, "custom_id", None) or getattr(getattr(i, "item", None), "custom_id", "")
               for i in self.items]
        options = [[o.value for o in getattr(getattr(i, "item", i), "options", [])]
                   for i in self.items]
        return hashlib.sha1(repr((self.content, ids, options)).encode()).hexdigest()[:16]

    def send_kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"content": clip(self.content)}
        if self.items:
            kw["view"] = view_of(*self.items)
        if self.picture is not None:
            kw["file"] = picture_file(self.picture)
        return kw

    def edit_kwargs(self, *, keep_picture: bool = True) -> dict[str, Any]:
        """Arguments to edit a message into this panel: components always replaced (none
        when it has none); a picture replaces the old one, and without one the old picture
        stays when `keep_picture` (it shows the same view), else it goes."""
        kw = self.send_kwargs()
        kw.setdefault("view", None)
        if "file" in kw:
            kw["attachments"] = [kw.pop("file")]
        elif not keep_picture:
            kw["attachments"] = []
        return kw


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:12] if text else ""


def picture_file(picture: Any, filename: str | None = None) -> discord.File:
    """A rendering.Picture as an attachment (its own file name unless `filename`), alt text
    as the description."""
    return discord.File(io.BytesIO(picture.png), filename or picture.filename,
                        description=picture.alt)


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Cut a long text at line ends into messages Discord accepts."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            candidate = line
        current = candidate
    chunks.append(current)
    return chunks


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"
