"""Business cards: the fighters, their digits, and the slashes drawn on them.

Rulings "Fighters (business cards)": a card is a name, its digits (6 to 40) and a 5-digit zip;
each digit holds 0, 1 or 2 slashes (2 = X'd, out); a fighter is defeated when every digit is
X'd; every card fights with the same number of digits L (fair length).
"""
from __future__ import annotations

import re
from typing import Any

from ..core import Option, OptionError

MIN_DIGITS, MAX_DIGITS = 6, 40
ZIP_DIGITS = 5
MAX_NAME = 40
X = 2  # slashes that X a digit out

# Built-in fighters so a game starts with no options (`new(2)`). Issue #10 item 8: with cards
# of different digits the seat whose digits were harder to reach won 94% of games, so every
# seat now fights with the same digits in a different order (mirrored content): main cards
# are an area code from {2, 7, 8} + 555-0149 with a zip from {0, 2, 3, 6, 9}; partners an
# area code from {3, 6, 9} + 555-0127 with a zip from {1, 4, 5, 7, 8}. Any first L digits
# (fair length) of two main cards hold the same digits too. Seat s gets main card 2s (and
# partner 2s+1 under Tag Team). All numbers are fictional (555).
SAMPLE_CARDS: tuple[dict[str, str], ...] = (
    {"name": "Ace Accounting", "digits": "2785550149", "zip": "03692"},
    {"name": "Blue Ox Plumbing", "digits": "3695550127", "zip": "14578"},
    {"name": "Crown Copiers", "digits": "2875550149", "zip": "20963"},
    {"name": "Dynamo Dental", "digits": "3965550127", "zip": "41857"},
    {"name": "Evergreen Realty", "digits": "7285550149", "zip": "36029"},
    {"name": "Falcon Freight", "digits": "6395550127", "zip": "57814"},
    {"name": "Granite Legal", "digits": "7825550149", "zip": "60932"},
    {"name": "Harbor Insurance", "digits": "6935550127", "zip": "75148"},
    {"name": "Ironclad Security", "digits": "8275550149", "zip": "92306"},
    {"name": "Jolly Java Catering", "digits": "9365550127", "zip": "81475"},
    {"name": "Keystone Consulting", "digits": "8725550149", "zip": "96320"},
    {"name": "Lighthouse Media", "digits": "9635550127", "zip": "87541"},
)


def sample_cards(seat: int, tag_team: bool) -> list[dict[str, str]]:
    """The built-in cards of `seat`: its main card, and its partner under Tag Team."""
    main, partner = SAMPLE_CARDS[2 * seat], SAMPLE_CARDS[2 * seat + 1]
    return [dict(main), dict(partner)] if tag_team else [dict(main)]


def deal_cards(saved: list[list[dict[str, str]] | None], tag_team: bool
               ) -> list[list[dict[str, str]] | None] | None:
    """The `cards` option from each seat's saved cards (None: that seat has none). A seat with
    no card keeps its built-in cards (None); under Tag Team a seat with one card gets a
    built-in partner none of the other seats uses. None when nobody saved a card (every seat
    fights with the built-in, mirrored cards)."""
    if all(e is None for e in saved):
        return None
    taken = {c["name"] for s, e in enumerate(saved) if e is None
             for c in sample_cards(s, tag_team)}
    spare = [dict(c) for c in SAMPLE_CARDS if c["name"] not in taken]
    out: list[list[dict[str, str]] | None] = []
    for e in saved:
        if e is None:
            out.append(None)
            continue
        e = [dict(c) for c in e]
        if tag_team and len(e) == 1:
            e.append(spare.pop(0))
        out.append(e[:2] if tag_team else e[:1])
    return out


def check_card(raw: Any, where: str) -> dict[str, str]:
    """One card as given in the `cards` option -> {"name", "digits", "zip"}; OptionError with a
    plain message naming the card (`where`) otherwise."""
    if not isinstance(raw, dict):
        raise OptionError(f"{where}: a card is {{\"name\", \"digits\", \"zip\"}}, not {raw!r}.")
    extra = sorted(set(raw) - {"name", "digits", "zip"})
    if extra:
        raise OptionError(f"{where}: unknown field(s) {', '.join(extra)}; "
                          "a card has name, digits and zip.")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise OptionError(f"{where}: the card needs a name.")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise OptionError(f"{where}: the name is {len(name)} characters; at most {MAX_NAME}.")
    digits = raw.get("digits")
    if not isinstance(digits, str) or not re.fullmatch(r"[0-9]*", digits):
        raise OptionError(f"{where} ({name}): digits must be only the characters 0-9, "
                          f"e.g. \"6035551234\"; got {digits!r}.")
    if not MIN_DIGITS <= len(digits) <= MAX_DIGITS:
        raise OptionError(f"{where} ({name}): a card has {MIN_DIGITS} to {MAX_DIGITS} digits; "
                          f"this one has {len(digits)}.")
    zipcode = raw.get("zip")
    if not isinstance(zipcode, str) or not re.fullmatch(r"[0-9]{%d}" % ZIP_DIGITS, zipcode):
        raise OptionError(f"{where} ({name}): the zip code is exactly {ZIP_DIGITS} digits, "
                          f"e.g. \"03038\"; got {zipcode!r}.")
    return {"name": name, "digits": digits, "zip": zipcode}


# A phone number as people write it: these are dropped before the digits are checked.
SEPARATORS = re.compile(r"[\s\-.()/+]")
SEPARATOR_NOTE = ("Spaces, dashes, dots, slashes and brackets are dropped for you; everything "
                  "else must be a digit 0-9.")
_FIRST = ("Apex", "Blue Ox", "Copperline", "Dynamo", "Evergreen", "Falcon", "Granite",
          "Harbor", "Ironclad", "Jolly", "Keystone", "Lighthouse", "Maverick", "Northwind",
          "Octagon", "Pinnacle", "Quickstep", "Redwood", "Summit", "Titan", "Union", "Vanguard",
          "Wildcat", "Zenith")
_TRADE = ("Accounting", "Plumbing", "Copiers", "Dental", "Realty", "Freight", "Legal",
          "Insurance", "Security", "Catering", "Consulting", "Media", "Roofing", "Bakery",
          "Logistics", "Printing", "Staffing", "Auto Body", "Landscaping", "Locksmiths")


def typed_card(name: str, digits: str, zip_code: str) -> dict[str, str]:
    """A card as a person types it (a phone number with dashes, a zip with spaces around) ->
    the checked card; the refusal of badly typed digits says what is dropped for them."""
    raw = {"name": name, "digits": SEPARATORS.sub("", digits), "zip": zip_code.strip()}
    try:
        return check_card(raw, "Your card")
    except OptionError as e:
        text = e.message
        if "digit" in text and "zip code" not in text:
            text += f" {SEPARATOR_NOTE}"
        raise OptionError(text) from None


def random_card(rng: Any) -> dict[str, str]:
    """A made-up fighter from `rng` (a random.Random): a street number, then a fictional
    555-01xx phone number."""
    name = f"{rng.choice(_FIRST)} {rng.choice(_TRADE)}"
    street = str(rng.randint(1, 9999))
    phone = f"{rng.randint(2, 9)}{rng.randint(0, 99):02d}55501{rng.randint(0, 99):02d}"
    return check_card({"name": name, "digits": street + phone,
                       "zip": f"{rng.randint(0, 99999):05d}"}, "Random card")


def check_cards(value: Any) -> list[list[dict[str, str]] | None]:
    """The `cards` option: a list with one entry per seat (seat 1 first); an entry is a card,
    a list of 1 or 2 cards, or null (that seat fights with built-in sample cards)."""
    if not isinstance(value, list):
        raise OptionError("Option `cards` is a list with one entry per player "
                          "(a card, a list of cards, or null).")
    out: list[list[dict[str, str]] | None] = []
    for s, entry in enumerate(value):
        if entry is None:
            out.append(None)
            continue
        given = [entry] if isinstance(entry, dict) else entry
        if not isinstance(given, list) or not 1 <= len(given) <= 2:
            raise OptionError(f"Player {s + 1}'s cards: give one card {{name, digits, zip}}, "
                              "a list of two with Tag Team, or null for a sample card.")
        out.append([check_card(c, f"Player {s + 1}'s card {i + 1}")
                    for i, c in enumerate(given)])
    return out


class CardsOption(Option):
    """The `cards` option, checked card by card (tag-team counts and seats checked later)."""

    def check(self, value: Any) -> Any:
        return check_cards(value)


def fair_digits(digits: str, length: int) -> str:
    """Rulings "Fair length": a longer card uses its first L digits, a shorter one repeats its
    digits from the start."""
    return (digits * (length // len(digits) + 1))[:length]


def new_fighter(card: dict[str, str], length: int) -> dict[str, Any]:
    return {"name": card["name"], "zip": card["zip"], "printed": card["digits"],
            "digits": [int(c) for c in fair_digits(card["digits"], length)],
            "slashes": [0] * length, "out": False}


def down(fighter: dict[str, Any]) -> bool:
    """Defeated: every digit X'd."""
    return all(n >= X for n in fighter["slashes"])


def room(fighter: dict[str, Any]) -> int:
    """Slashes the card can still take before it is defeated."""
    return sum(X - n for n in fighter["slashes"])


def room_for(fighter: dict[str, Any], value: int) -> int:
    """Slashes the card's digits of `value` can still take."""
    return sum(X - n for d, n in zip(fighter["digits"], fighter["slashes"]) if d == value)


def open_values(fighter: dict[str, Any], reach: int) -> list[int]:
    """Distinct digit values the card still has un-X'd, up to `reach` (a set's height)."""
    return sorted({d for d, n in zip(fighter["digits"], fighter["slashes"])
                   if d <= reach and n < X})


def instances(fighter: dict[str, Any], value: int) -> list[int]:
    """Positions of every digit of `value` on the card, in reading order (X'd ones too, so the
    n-th 6 is always the same digit)."""
    return [i for i, d in enumerate(fighter["digits"]) if d == value]


def pick(fighter: dict[str, Any], value: int) -> int | None:
    """The digit `slash 6` means: among the card's 6s that are not X'd, the least slashed,
    the first in reading order on a tie. None when there is none."""
    best = None
    for i in instances(fighter, value):
        n = fighter["slashes"][i]
        if n < X and (best is None or n < fighter["slashes"][best]):
            best = i
    return best


def mark(fighter: dict[str, Any]) -> str:
    """The card as text: `6/` one slash, `X` X'd, a bare digit untouched."""
    out = []
    for d, n in zip(fighter["digits"], fighter["slashes"]):
        out.append("X" if n >= X else f"{d}/" if n else str(d))
    return " ".join(out)
