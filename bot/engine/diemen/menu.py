"""What a Die-Man may do now, grouped as a player chooses (`DieMen.menu`).

Each legal move falls in exactly one group, by its kind; the group keys are the short tags the
screens use (`o` an Oops, `c` a Called Shot, `rp` the physical report, `aim` a simulated shot,
`r` a Reposition). The secret set-up has also a several-at-once group (`bn`: 4 of the 6 spots,
making the same `banners` move as its ready-made layouts). Labels and effects are `describe`'s.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..menu import MenuGroup, MenuItem, Pick, Tone
from . import board
from .view import SETUP_SPOTS

if TYPE_CHECKING:
    from .game import DieMen

# key: (title, pick, tone, emoji, hint) in the order a player meets them.
GROUPS = {
    "layout": ("Or pick a whole layout", Pick.SELECT, Tone.MAIN, "",
               "any 4 of your 6 banner spots"),
    "stand": ("Move your Stand (optional)", Pick.BUTTONS, Tone.QUIET, "🏪",
              "your flicks start from your Stand"),
    "flick": ("Declare your flicks", Pick.BUTTONS, Tone.MAIN, "🎲",
              "how many dice you flick this turn"),
    "noflick": ("Flick no dice", Pick.BUTTONS, Tone.QUIET, "", "straight on to Reposition"),
    "c": ("Called Shot before you flick (optional)", Pick.SELECT, Tone.RISKY, "🎯",
          "knock the named banner for double; miss it and the roll counts against you"),
    "rp": ("Report: the number rolled and what fell", Pick.SELECT, Tone.MAIN, "🎲",
           "everything that fell, at once"),
    "aim": ("Choose a target (its chances come first)", Pick.SELECT, Tone.MAIN, "🎯",
            "the referee rolls with the chances shown"),
    "o": ("Oops: a banner of mine fell by hand", Pick.SELECT, Tone.RISKY, "",
          "+6 Property Damage to you for each"),
    "mode": ("Resolve this flick the other way", Pick.BUTTONS, Tone.QUIET, "",
             "your rival must agree"),
    "accept": ("Accept the report", Pick.BUTTONS, Tone.GOOD, "✅", ""),
    "dispute": ("Dispute the report", Pick.BUTTONS, Tone.RISKY, "", "the flick is made again"),
    "agree": ("Agree to the switch", Pick.BUTTONS, Tone.GOOD, "✅", ""),
    "refuse": ("Refuse the switch", Pick.BUTTONS, Tone.QUIET, "", ""),
    "r": ("Reposition a banner", Pick.SELECT, Tone.MAIN, "",
          "each banner moves once; knocked banners go back up first"),
    "done": ("Done repositioning", Pick.BUTTONS, Tone.GOOD, "✅", ""),
    "customer": ("Place a customer", Pick.BUTTONS, Tone.GOOD, "", "customers shield your banners"),
    "end": ("Let the customers go", Pick.BUTTONS, Tone.QUIET, "", "ends your turn"),
}

# What a refusal says you may do instead ("Now you may: ..."), by group.
MAY = {"layout": "set up your banners", "stand": "move your Stand", "flick": "declare your flicks",
       "noflick": "flick no dice", "c": "make a Called Shot", "rp": "report your flick",
       "aim": "choose a target", "o": "report a banner of yours knocked by accident",
       "mode": "propose resolving this flick the other way", "accept": "accept the report",
       "dispute": "dispute it", "agree": "agree to the switch", "refuse": "refuse it",
       "r": "reposition a banner", "done": "finish your Reposition",
       "customer": "place a customer", "end": "let the customers go"}


def kind(g: "DieMen", move: str) -> str:
    """The group a legal move belongs to."""
    verb, _, rest = move.partition(" ")
    if verb == "banners":
        return "layout"
    if verb == "move":
        return "stand"
    if verb == "flick":
        return "noflick" if rest == "0" else "flick"
    if verb == "called":
        return "aim" if g.flick_mode() == "simulated" else "c"
    if verb == "result":
        return "rp"
    if verb == "oops":
        return "o"
    if verb in ("place", "reposition", "supersale"):
        return "r"
    return verb  # aim, mode, accept, dispute, agree, refuse, done, customer, end


def kinds(g: "DieMen", seat: int) -> dict[str, list[str]]:
    """The seat's legal moves by group, in the order the groups are shown."""
    out: dict[str, list[str]] = {}
    for move in g._legal(seat):
        out.setdefault(kind(g, move), []).append(move)
    order = list(GROUPS)
    return {k: out[k] for k in sorted(out, key=order.index)}


def _step(g: "DieMen", seat: int, move: str) -> str:
    """What a long list narrows by: the number rolled, the banner that moves."""
    verb, _, rest = move.partition(" ")
    if verb == "result":
        return f"Rolled {rest.split()[0]}"
    if verb == "place":
        return "A knocked banner"
    if verb == "reposition":
        src = rest.split()[0]
        return ("A Super Sale Banner" if board.parse_spot(src)[1] in board.STAND_SPOTS
                else f"Banner {board.parse_spot(src)[1]}")
    return ""


def groups(g: "DieMen", seat: int) -> list[MenuGroup]:
    out: list[MenuGroup] = []
    found = kinds(g, seat)
    if "layout" in found:
        out.append(MenuGroup(
            "bn", "Choose 4 of your 6 banner spots",
            tuple(MenuItem(s["spot"], f"{s['spot']} — {s['area']}", s["words"])
                  for s in SETUP_SPOTS),
            Pick.SEVERAL, hint="secret until both have set up", compose="banners {}",
            joiner=" ", min_picks=4, max_picks=4))
    for key, moves in found.items():
        title, pick, tone, emoji, hint = GROUPS[key]
        items = tuple(g.menu_item(move, seat, _step(g, seat, move)) for move in moves)
        out.append(MenuGroup(key, title, items, pick, hint, tone, emoji))
    return out


def _either(words: list[str]) -> str:
    """"1", "1 or 2", "1, 2 or 3"."""
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def may(g: "DieMen", seat: int) -> str:
    """'Now you may: ...' in words, from the seat's groups (empty when it may do nothing)."""
    found = kinds(g, seat) if seat in g._actors() else {}
    words = [MAY[k] for k in found]
    if "flick" in found:  # which counts, the Bonus Flick among them only when it is allowed
        counts = [m.split()[1] for m in found["flick"]]
        words[list(found).index("flick")] = (
            f"declare {_either(counts)} flicks"
            + (" (3 is a Bonus Flick)" if "3" in counts else ""))
    return ("Now you may: " + "; ".join(words) + ".") if words else ""
