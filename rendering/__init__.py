"""Pictures for the dice referee: shared drawing (this package) and one module per game.

Pillow only, with the DejaVu fonts shipped in `fonts/`, so a board looks the same on every
machine. A renderer is a plain function from a game's public view to a `Picture` (PNG + alt
text); cogs run it off the event loop with `await render_async(renderer, view)`.

Modules, one idea each: `colours` (theme, players, KAPLOOM! dice), `fonts`, `text` (fit, wrap),
`shapes` (smooth boxes, arrows), `dice` (a die face), `canvas` (background, title bar),
`picture` (PNG encoding, alt text, threads), `roll` (a plain roll, the smallest renderer).
"""
from rendering.canvas import MARGIN, new_canvas, title_bar, title_bar_height
from rendering.colours import (BACKGROUND, DIE_COLOURS, GRID, HIGHLIGHT, INK, MUTED, PANEL, PAPER,
                               PLAIN_DIE, PLAYER_COLOURS, TEXT, Colour, DieColours, PlayerColour,
                               die_colours, mix, player_colour, readable_on)
from rendering.dice import PIP_LAYOUT, draw_die, face_box, ring_margin, size_tag
from rendering.fonts import font
from rendering.picture import (MAX_ALT_CHARS, MAX_PNG_BYTES, Picture, clip_alt, render_async,
                               shutdown_processes, to_png, use_processes,
                               worker_pids)
from rendering.roll import render_dice_row
from rendering.shapes import draw_arrow, draw_rounded
from rendering.text import draw_centred, draw_wrapped, fit_text, wrap_text

__all__ = [
    "BACKGROUND", "DIE_COLOURS", "GRID", "HIGHLIGHT", "INK", "MARGIN", "MAX_ALT_CHARS",
    "MAX_PNG_BYTES", "MUTED", "PANEL", "PAPER", "PIP_LAYOUT", "PLAIN_DIE", "PLAYER_COLOURS",
    "TEXT", "Colour", "DieColours", "Picture", "PlayerColour", "clip_alt", "die_colours",
    "draw_arrow", "draw_centred", "draw_die", "draw_rounded", "draw_wrapped", "face_box",
    "fit_text", "font", "mix", "new_canvas", "player_colour", "readable_on", "render_async",
    "render_dice_row", "ring_margin", "shutdown_processes", "size_tag", "title_bar",
    "title_bar_height", "to_png", "use_processes", "worker_pids", "wrap_text",
]
