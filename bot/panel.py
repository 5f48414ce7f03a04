"""One message's worth of a game's UI (a turn card or a private panel) and how it goes to
Discord: the keyword arguments to send it, and to edit it in place.

Every panel is one Components V2 message (issue #23): a `Container` with the accent colour of
who must act, a `TextDisplay` for the text (and one for the status line, below the picture),
a `MediaGallery` showing the picture (`attachment://<its file name>`, with its alt text), then
the panel's buttons and selects in action rows, in the rows the layout gave them. A V2 message
has no `content`: its text lives in the components, so an edit always sends them all again;
the picture already on a message stays on it when the edit names its file (`kept`)."""
from __future__ import annotations

import dataclasses
import hashlib
import io
from dataclasses import dataclass, field
from typing import Any

import discord


MESSAGE_LIMIT = 2000
V2_TEXT_LIMIT = 4000  # every TextDisplay of a V2 message together
ROW_WIDTH = 5


@dataclass
class Panel:
    """One message's worth of UI: text, components and maybe a picture."""
    content: str
    items: list[discord.ui.Item] = field(default_factory=list)
    picture: Any = None  # rendering.Picture (png bytes + alt text) or None
    # The colour of who must act (0xRRGGBB; `rendering.colours.accent`), None: no bar.
    accent: int | None = None
    # The status line (who must act, and what), shown under the picture.
    status: str = ""
    # (file name, alt text) of the picture already on the message: an edit without a new
    # picture shows that one again.
    kept: tuple[str, str] | None = None

    def signature(self) -> str:
        """What the panel shows: text and components (the picture follows the same view)."""
        ids = [getattr(i, "custom_id", None) or getattr(getattr(i, "item", None), "custom_id", "")
               for i in self.items]
        options = [[o.value for o in getattr(getattr(i, "item", i), "options", [])]
                   for i in self.items]
        text = self.content + (f"\n{self.status}" if self.status else "")
        return hashlib.sha1(repr((text, ids, options)).encode()).hexdigest()[:16]

    def picture_ref(self) -> list[str] | None:
        """[file name, alt text] of the picture this panel shows, to keep with the message's
        record (a later edit without a new picture names it again: `kept`)."""
        if self.picture is not None:
            return [self.picture.filename, self.picture.alt]
        return list(self.kept) if self.kept else None

    def keeping(self, ref: Any) -> "Panel":
        """This panel, showing the picture `ref` ([file name, alt] or a discord.Message whose
        first attachment it is) when it has none of its own; itself, for chaining."""
        if isinstance(ref, discord.Message):
            att = ref.attachments[0] if ref.attachments else None
            ref = [att.filename, att.description or ""] if att is not None else None
        if self.picture is None and ref:
            self.kept = (str(ref[0]), str(ref[1] if len(ref) > 1 else ""))
        return self

    def over(self, message: discord.Message | None) -> "Panel":
        """This panel as an edit of `message` (a panel it sent): the message's accent and
        picture stay when the panel brings none of its own; itself, for chaining."""
        if message is None:
            return self
        if self.accent is None:
            self.accent = Panel.from_message(message).accent
        return self.keeping(message)

    def same_picture_as(self, digest: str | None, ref: Any) -> bool:
        """Is this panel's new picture the very one already on the message (`digest`: the
        `picture_digest` kept with it, `ref`: its [file name, alt text])? Then it is not
        uploaded again: the edit keeps the attachment there and the card shows it again,
        with this picture's alt text (the words may say more than the image)."""
        if (self.picture is None or not digest or not ref
                or picture_digest(self.picture) != digest):
            return False
        self.kept, self.picture = (str(ref[0]), self.picture.alt), None
        return True

    def retired(self) -> "Panel":
        """The same card without its buttons and selects (a past turn, a replaced panel)."""
        return dataclasses.replace(self, items=[], picture=None,
                                   kept=tuple(self.picture_ref() or ()) or None)

    @classmethod
    def from_message(cls, message: discord.Message | None) -> "Panel":
        """What a V2 message sent as a Panel shows (its texts, accent and picture), without
        its components: to edit it again, e.g. to retire it."""
        texts: list[str] = []
        accent = None

        def walk(components):
            nonlocal accent
            for c in components:
                if isinstance(c, discord.components.TextDisplay):
                    texts.append(c.content)
                elif isinstance(c, discord.components.Container):
                    if accent is None and c.accent_colour is not None:
                        accent = c.accent_colour.value
                    walk(c.children)
        walk(getattr(message, "components", None) or [])
        content = getattr(message, "content", "") or ""
        panel = cls(content, accent=accent)
        if texts:
            panel.content = texts[0]
            panel.status = "\n".join(texts[1:])
        return panel.keeping(message) if message is not None else panel

    # ---- the V2 message -------------------------------------------------------------------------
    def layout(self, *, show_picture: bool = True) -> discord.ui.LayoutView:
        """The card: one Container (accent colour), text, the picture, the rows of items."""
        container = discord.ui.Container(accent_colour=self.accent)
        text, status = v2_texts(self.content, self.status)
        if text:
            container.add_item(discord.ui.TextDisplay(text))
        ref = self.picture_ref() if show_picture else None
        if ref:
            filename, alt = ref
            container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
                f"attachment://{filename}", description=alt or None)))
        if status:
            container.add_item(discord.ui.TextDisplay(status))
        if not container.children:  # a container needs something in it
            container.add_item(discord.ui.TextDisplay("…"))
        for row in action_rows(self.items):
            container.add_item(discord.ui.ActionRow(*row))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        return view

    def send_kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"view": self.layout()}
        if self.picture is not None:
            kw["file"] = picture_file(self.picture)
        return kw

    def edit_kwargs(self, *, keep_picture: bool = True) -> dict[str, Any]:
        """Arguments to edit a message into this panel: the whole card always (a V2 edit
        replaces every component; the V2 flag stays). A picture replaces the old one; without
        one the old picture stays when `keep_picture` (it shows the same view: `kept` names
        it, and the card shows it again), else it goes."""
        # content=None clears the text of a message sent before the cards were V2 (a V2
        # message may have none); on a V2 message it changes nothing.
        kw: dict[str, Any] = {"content": None, "view": self.layout(
            show_picture=keep_picture or self.picture is not None)}
        if self.picture is not None:
            kw["attachments"] = [picture_file(self.picture)]
        elif not keep_picture:
            kw["attachments"] = []
        return kw


def v2_texts(content: str, status: str) -> tuple[str, str]:
    """The card's two texts within what a V2 message holds (4000 characters together)."""
    status = clip(status, MESSAGE_LIMIT)
    room = V2_TEXT_LIMIT - len(status) - 1  # "…" when the fallback text is used
    return clip(content, max(1, room)), status


def action_rows(items: list[discord.ui.Item]) -> list[list[discord.ui.Item]]:
    """The items in rows as a classic view would place them: an item's `row` when it has one,
    else the first row with room (a select fills a row, a button takes a fifth); order kept
    within a row, empty rows dropped."""
    rows: dict[int, list[discord.ui.Item]] = {}
    used: dict[int, int] = {}
    for item in items:
        width = getattr(item, "width", 1)
        row = item.row
        if row is None:
            row = next(r for r in range(100) if used.get(r, 0) + width <= ROW_WIDTH)
        elif used.get(row, 0) + width > ROW_WIDTH:
            raise ValueError(f"row {row} of the panel is full")
        used[row] = used.get(row, 0) + width
        rows.setdefault(row, []).append(item)
    return [rows[r] for r in sorted(rows)]


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:12] if text else ""


def picture_digest(picture: Any) -> str:
    """What a picture is, by its bytes: two drawings of the same image are one upload."""
    return hashlib.sha1(picture.png).hexdigest()[:16] if picture is not None else ""


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


def split_card(text: str, card_limit: int = V2_TEXT_LIMIT - 100,
               limit: int = MESSAGE_LIMIT) -> list[str]:
    """Cut a turn's text for its card: as many of its last lines as one card holds (a V2
    card's text may be twice a plain message's), the start before it in plain messages."""
    lines = text.split("\n")
    size, cut = 0, len(lines)
    while cut > 0 and size + len(lines[cut - 1]) + 1 <= card_limit + 1:
        size += len(lines[cut - 1]) + 1
        cut -= 1
    if cut == len(lines):  # one line longer than a card: cut it as a plain text is cut
        return split_message(text, limit)
    head = "\n".join(lines[:cut])
    return (split_message(head, limit) if cut else []) + ["\n".join(lines[cut:])]
