"""Players' names as the table shows them: a person's display name, made safe to print.

The engine words every text with these names, and they go into messages, buttons, alt text and
pictures, so a name must not be able to ping anyone, break Markdown, or overflow a label.
"""
from __future__ import annotations

import re
import unicodedata

NAME_MAX = 24  # characters: fits a button label beside the move, and a picture's name plate

_MENTIONISH = re.compile(r"@(everyone|here)|<[@#&!:/a-z]*\d+>", re.IGNORECASE)
_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()])")


def safe_name(name: str | None, fallback: str = "a player") -> str:
    """A display name fit for any text: control and invisible characters dropped, mentions
    defused, Markdown escaped, at most NAME_MAX characters (clipped with an ellipsis)."""
    text = "".join(ch for ch in str(name or "")
                   if unicodedata.category(ch)[0] != "C" and ch not in "\u200b\u2060")
    text = " ".join(text.split())
    text = _MENTIONISH.sub(lambda m: m.group(0).replace("@", "@\u200b").replace("<", "‹"), text)
    if len(text) > NAME_MAX:
        text = text[:NAME_MAX - 1].rstrip() + "…"
    text = _MARKDOWN.sub(r"\\\1", text)
    return text or fallback


def plain_name(name: str) -> str:
    """A safe name without its Markdown escapes: for pictures and alt text, which are not
    Markdown."""
    return re.sub(r"\\(.)", r"\1", name)
