"""Death by Dice: the seed's attack rules and every ruling, played move by move.

Boards used below (rulings, "Characters"; colour letters R B G W):
    Malice      STR d8 R, AGI d6 W, FOR d10 R, SMA d8 B, CON d12 B, LUCK —    Cheap Shot
    Mayhem      STR d12 R, AGI d8 R, FOR d8 W, SMA —, CON d8 G, LUCK d10 G    Rampage
    Accountant  STR d4 W, AGI d6 B, FOR d6 W, SMA d12 B, CON d10 B, LUCK d8 W Cook the Books
    Knuckles    STR d10 R, AGI d4 W, FOR d12 R, SMA —, CON d6 W, LUCK d8 R    Thick Skull
    Lucky Lou   STR d4 W, AGI d8 G, FOR d4 W, SMA —, CON d10 G, LUCK d12 G    Loaded Dice
    Madame Vex  STR —, AGI d10 B, FOR d8 W, SMA d10 B, CON d12 R, LUCK d8 R   Misdirection
"""
from __future__ import annotations

import json
import re

import pytest

from bot.engine import load
from bot.engine.core import (CHANCE, AmbiguousMoveError, IllegalMoveError, InvalidMoveError,
                             NotYourTurnError, OptionError)
from bot.engine.deathbydice import board as B
from bot.engine.deathbydice.data import CHARACTER_TABLE, ROSTER_NAMES

G = load("deathbydice")


# --- helpers ----------------------------------------------------------------------------------

def new(chars: str = "Malice,Mayhem", players: int = 2, **options):
    return G.new(players, {"characters": chars, **options})


def run(g, *lines: str):
    """Apply a script: `roll ...` is a chance outcome; `@2 defend none` is seat 2's move."""
    events = []
    for line in lines:
        if line.startswith("roll"):
            events += g.apply(CHANCE, line)
        else:
            seat, move = line.split(" ", 1)
            events += g.apply(int(seat[1:]) - 1, move)
    return events


def parse_board(text: str) -> dict[str, int]:
    return {k: int(v) for k, v in (part.split("=") for part in text.split())}


def start(g, *boards: str):
    """Roll exactly these set-up values and place them as written (one board per character,
    in character order); returns the events."""
    values = [parse_board(b) for b in boards]
    rolls = [v[a] for f, v in zip(g.fighters, values) for a in B.boxes(f)]
    events = g.apply(CHANCE, "roll " + " ".join(map(str, rolls)))
    for f, vals, text in zip(g.fighters, values, boards):
        several = sum(1 for h in g.fighters if h["seat"] == f["seat"]) > 1
        events += g.apply(f["seat"], "setup " + (f["id"] + " " if several else "") + text)
    return events


def values(g, i: int) -> dict[str, int | None]:
    return dict(g.fighters[i]["values"])


def texts(events) -> str:
    return "\n".join(e.text for e in events)


def round_trip(g):
    data = g.to_json()
    again = G.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    return again


MALICE = "STR=5 AGI=3 FOR=4 SMA=2 CON=9"            # total 23
MAYHEM = "STR=10 AGI=6 FOR=5 CON=7 LUCK=8"          # total 36


# --- the table and the options ----------------------------------------------------------------

def test_roster_is_the_rulings_table():
    assert ROSTER_NAMES == ("Malice", "Mayhem", "The Accountant", "Knuckles", "Lucky Lou",
                            "Madame Vex")
    assert CHARACTER_TABLE[0] == ("Malice", "d8 R", "d6 W", "d10 R", "d8 B", "d12 B", "—",
                                  "cheap-shot")
    assert CHARACTER_TABLE[4] == ("Lucky Lou", "d4 W", "d8 G", "d4 W", "—", "d10 G",
                                  "d12 G", "loaded-dice")
    assert CHARACTER_TABLE[5] == ("Madame Vex", "—", "d10 B", "d8 W", "d10 B", "d12 R",
                                  "d8 R", "misdirection")
    g = new("The Accountant,Knuckles")
    assert g.fighters[0]["dice"] == {"STR": 4, "AGI": 6, "FOR": 6, "SMA": 12, "CON": 10,
                                     "LUCK": 8}
    assert g.fighters[1]["dice"] == {"STR": 10, "AGI": 4, "FOR": 12, "CON": 6, "LUCK": 8}
    assert g.fighters[1]["colours"]["FOR"] == "R"


def test_options_defaults_and_names():
    g = G.new(2)
    assert g.options == {"characters": "", "best_of": 3, "mode": "duel"}
    assert [f["character"] for f in g.fighters] == ["Malice", "Mayhem"]
    g = new("accountant, lucky lou")
    assert g.options["characters"] == "The Accountant,Lucky Lou"
    assert [f["character"] for f in g.fighters] == ["The Accountant", "Lucky Lou"]


@pytest.mark.parametrize("players,options,needle", [
    (2, {"characters": "Malice,Bob"}, "The roster: Malice, Mayhem, The Accountant, Knuckles, "
                                      "Lucky Lou, Madame Vex."),
    (3, {"characters": "Malice,Mayhem"}, "3 players, 2 character(s) given"),
    (2, {"best_of": 2}, "`best_of` is 1 or 3"),
    (2, {"best_of": 5}, "from 1 to 3"),
    (2, {"mode": "team"}, "duel, boss"),
    (5, {"mode": "boss"}, "2 to 4 players"),
    (2, {"mode": "boss", "characters": "Malice,Mayhem"}, "the Boss and 2 or 3 Minions"),
    (3, {"mode": "boss", "characters": "Malice,Mayhem,Knuckles,Lucky Lou"},
     "not 3"),
    (2, {"colour": "red"}, "Unknown option"),
])
def test_bad_options(players, options, needle):
    with pytest.raises(OptionError) as err:
        G.new(players, options)
    assert needle in str(err.value)


# --- set-up -----------------------------------------------------------------------------------

def test_setup_is_secret_until_everyone_confirms():
    g = new()
    events = g.apply(CHANCE, "roll 5 3 4 2 9 10 6 5 7 8")
    private = [e for e in events if not e.public]
    assert [e.to for e in private] == [(0,), (1,)]
    assert "d8 5, d6 3, d10 4, d8 2, d12 9" in private[0].text
    public = [e for e in events if e.public]
    assert all("d8 5" not in e.text and "rolled" not in e.data for e in public)
    assert g.actors() == [0, 1]
    # Malice may swap her two d8 values (STR, SMA) and nothing else.
    assert sorted(g.legal(0)) == ["setup STR=2 AGI=3 FOR=4 SMA=5 CON=9",
                                  "setup STR=5 AGI=3 FOR=4 SMA=2 CON=9"]
    assert len(g.legal(1)) == 6          # Mayhem's three d8 values: 3! ways
    events = g.apply(0, "setup STR=2 AGI=3 FOR=4 SMA=5 CON=9")
    assert g.actors() == [1]
    public = json.dumps([e.to_json() for e in events if e.public])
    assert "SMA=5" not in public and "AGI" not in public
    for seen_by in (None, 1):
        v = g.view(seen_by)
        assert all(c["value"] is None for c in v["fighters"][0]["board"])
        assert v["fighters"][0]["total"] is None
        assert v["fighters"][0]["ready"] is True
        assert "SMA=5" not in g.text(seen_by) and "d8 2" not in g.text(seen_by)
        assert "5, 3, 4" not in json.dumps(v)
    mine = g.view(0)["you"]["setup"][0]
    assert mine["rolled"] == [{"die": 8, "value": 5}, {"die": 6, "value": 3},
                              {"die": 10, "value": 4}, {"die": 8, "value": 2},
                              {"die": 12, "value": 9}]
    assert mine["arranged"] == {"STR": 2, "AGI": 3, "FOR": 4, "SMA": 5, "CON": 9}
    assert g.view(1)["you"]["setup"][0]["character"] == "Mayhem"
    assert all(s["fighter"] != "@1" for s in g.view(1)["you"]["setup"])
    # An error to @2 must not mention @1's secret values.
    with pytest.raises(IllegalMoveError) as err:
        g.apply(1, "setup STR=5 AGI=2 FOR=4 CON=9 LUCK=3")
    assert "SMA=5" not in str(err.value)
    events = g.apply(1, "setup STR=10 AGI=6 FOR=5 CON=7 LUCK=8")
    assert "Malice (Player 1) set up: STR 2, AGI 3, FOR 4, SMA 5, CON 9 (total 23)." in texts(events)
    assert g.view(None)["fighters"][0]["board"][3]["value"] == 5
    assert g.view(None)["order"] == ["Malice (Player 1)", "Mayhem (Player 2)"]   # lowest total first
    assert g.stage == "declare" and g.actors() == [0]


def test_setup_errors():
    g = new()
    g.apply(CHANCE, "roll 5 3 4 2 9 10 6 5 7 8")
    before = g.to_json()
    with pytest.raises(IllegalMoveError, match="d8 dice rolled 2, 5; you placed 5, 5"):
        g.apply(0, "setup STR=5 AGI=3 FOR=4 SMA=5 CON=9")
    with pytest.raises(IllegalMoveError, match="d10 dice rolled 4; you placed 5"):
        g.apply(0, "setup STR=5 AGI=3 FOR=5 SMA=2 CON=9")
    with pytest.raises(IllegalMoveError, match="no die on LUCK"):
        g.apply(0, "setup STR=5 AGI=3 FOR=4 SMA=2 CON=9 LUCK=1")
    with pytest.raises(IllegalMoveError, match="missing: CON"):
        g.apply(0, "setup STR=5 AGI=3 FOR=4 SMA=2")
    with pytest.raises(InvalidMoveError, match="setup STR=5 AGI=2"):
        g.apply(0, "setup STR:5")
    with pytest.raises(InvalidMoveError, match="given twice"):
        g.apply(0, "setup STR=5 STR=5")
    with pytest.raises(InvalidMoveError, match="not an ability"):
        g.apply(0, "setup MUSCLE=5")
    with pytest.raises(IllegalMoveError, match="own character"):
        g.apply(0, "setup @2 STR=10 AGI=6 FOR=5 CON=7 LUCK=8")
    assert g.to_json() == before
    g.apply(0, "setup Strength=5 agi=3 FOR=4 SMA=2 CON=9")      # full names and case are read
    with pytest.raises(NotYourTurnError):
        g.apply(0, "setup STR=5 AGI=3 FOR=4 SMA=2 CON=9")


def test_setup_tie_rerolls_everything():
    g = new()
    events = start(g, MALICE, "STR=12 AGI=1 FOR=1 CON=1 LUCK=8")   # 23 and 23
    assert "Equal totals" in texts(events) and "re-rolls" in texts(events)
    assert g.stage == "setup_roll" and g.actors() == [CHANCE]
    assert all(v is None for v in values(g, 0).values())
    start(g, MALICE, MAYHEM)
    assert g.stage == "declare" and g.active == 0


def test_lowest_total_goes_first():
    g = new()
    start(g, MALICE, "STR=1 AGI=1 FOR=1 CON=1 LUCK=1")
    assert g.active == 1 and g.actors() == [1]
    assert g.view(None)["active"] == "@2"


# --- Ability Attack ---------------------------------------------------------------------------

def test_ability_attack_wins_on_equal():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack ability CON -> @2:CON")
    assert g.stage == "defend" and g.actors() == [1]          # step 3: only the defender acts
    events = run(g, "@2 defend none", "roll 7")
    assert "CON 7 against CON 7: the attack wins (needs equal or greater)" in texts(events)
    assert values(g, 1)["CON"] is None
    assert values(g, 0)["CON"] == 7                            # the attacking die keeps its roll
    last = g.view(None)["last_attack"]
    assert (last["type"], last["target"], last["total"], last["against"], last["result"]) == \
        ("ability", "@2:CON", 7, 7, "won")
    assert last["discarded"] == [{"die": "@2:CON", "value": 7, "why": "hit"}]
    assert g.active == 1


def test_ability_attack_loses_below():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack ability STR -> @2:STR", "@2 defend none", "roll 8")
    assert values(g, 1)["STR"] == 10 and values(g, 0)["STR"] == 8
    assert g.view(None)["last_attack"]["result"] == "lost"
    assert g.view(None)["last_attack"]["discarded"] == []


def test_ability_attack_needs_the_same_ability():
    g = new()
    start(g, MALICE, MAYHEM)
    before = g.to_json()
    with pytest.raises(IllegalMoveError, match="targets the same ability"):
        g.apply(0, "attack ability STR -> @2:CON")
    with pytest.raises(IllegalMoveError, match="Malice has no Luck die"):
        g.apply(0, "attack ability LUCK -> @2:LUCK")
    with pytest.raises(IllegalMoveError, match="no SMA die in play"):
        g.apply(0, "attack ability SMA -> @2:SMA")
    assert g.to_json() == before


# --- Boosted Ability Attack -------------------------------------------------------------------

def test_boosted_attack_loses_on_equal_and_assist_rerolls():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack boosted STR+AGI -> @2:LUCK", "@2 defend none")
    events = run(g, "roll 6")
    assert "STR 6 + 2 = 8 against LUCK 8: the attack fails (needs greater)" in texts(events)
    assert g.stage == "assist_roll"                           # step 6: the assist re-rolls
    assert [d.label for d in g.chance().draws] == ["@1:AGI d6"]
    events = run(g, "roll 1")
    assert "AGI of Malice (Player 1) 3 → 1" in texts(events)
    assert values(g, 0)["STR"] == 6 and values(g, 0)["AGI"] == 1
    assert values(g, 1)["LUCK"] == 8


def test_boosted_attack_wins_when_greater_and_wraps_the_ring():
    g = new("Mayhem,Malice")
    start(g, "STR=2 AGI=2 FOR=2 CON=2 LUCK=2", MALICE)
    # Mayhem's LUCK is next to STR (the board wraps).
    assert "attack boosted LUCK+STR -> @2:CON" in g.legal(0)
    run(g, "@1 attack boosted LUCK+STR -> @2:CON", "@2 defend none", "roll 8", "roll 5")
    assert values(g, 1)["CON"] is None
    assert values(g, 0)["LUCK"] == 8 and values(g, 0)["STR"] == 5


def test_boosted_attack_needs_an_adjacent_assist():
    g = new()
    start(g, MALICE, MAYHEM)
    with pytest.raises(IllegalMoveError, match="FOR is not next to STR"):
        g.apply(0, "attack boosted STR+FOR -> @2:CON")
    with pytest.raises(IllegalMoveError, match="attacking die and the adjacent"):
        g.apply(0, "attack boosted STR -> @2:CON")


# --- Complex Attack ---------------------------------------------------------------------------

def test_complex_attack_win_discards_target_only():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack complex FOR+STR -> @2:STR", "@2 defend none", "roll 4 7")
    assert values(g, 1)["STR"] is None
    assert values(g, 0)["STR"] == 4 and values(g, 0)["FOR"] == 7
    assert g.view(None)["last_attack"]["dice"] == ["STR", "FOR"]


def test_complex_attack_equal_loses_and_attacker_chooses_the_discard():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack complex STR+FOR -> @2:STR", "@2 defend none")
    events = run(g, "roll 3 7")
    assert "= 10 against STR 10: the attack fails (needs greater)" in texts(events)
    assert g.stage == "discard" and g.actors() == [0]
    assert g.legal(0) == ["discard STR", "discard FOR"]
    assert g.timeout_move(0) == "discard STR"
    with pytest.raises(IllegalMoveError, match="not dice this attack"):
        g.apply(0, "discard CON")
    run(g, "@1 discard FOR")
    assert values(g, 0)["FOR"] is None and values(g, 0)["STR"] == 3
    assert values(g, 1)["STR"] == 10
    assert g.active == 1


def test_complex_attack_needs_linked_dice():
    g = new()
    start(g, MALICE, MAYHEM)
    with pytest.raises(IllegalMoveError, match="Linked dice"):
        g.apply(0, "attack complex STR+AGI -> @2:CON")
    with pytest.raises(IllegalMoveError, match="Linked dice"):
        g.apply(0, "attack complex STR+CON -> @2:CON")
    with pytest.raises(IllegalMoveError, match="2 or more"):
        g.apply(0, "attack complex STR -> @2:CON")
    with pytest.raises(IllegalMoveError, match="same die cannot be used twice"):
        g.apply(0, "attack complex STR+STR -> @2:CON")


def test_complex_doubles_won_two_dice_both_discarded():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack complex SMA+CON -> @2:FOR", "@2 defend none", "roll 4 4")
    assert values(g, 1)["FOR"] is None                          # won: 8 > 5
    assert values(g, 0)["SMA"] is None and values(g, 0)["CON"] is None
    assert [d["die"] for d in g.view(None)["last_attack"]["discarded"]] == \
        ["@2:FOR", "@1:SMA", "@1:CON"]


def test_complex_doubles_lost_two_dice_both_go_once():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack complex SMA+CON -> @2:STR", "@2 defend none", "roll 2 2")
    assert g.stage != "discard"                                  # nothing left to choose
    assert values(g, 0)["SMA"] is None and values(g, 0)["CON"] is None
    assert len(g.view(None)["last_attack"]["discarded"]) == 2   # never the same die twice
    assert values(g, 1)["STR"] == 10


LOU = "STR=3 AGI=6 FOR=2 CON=7 LUCK=15"                         # total 33
KNUCKLES = "STR=5 AGI=2 FOR=6 CON=3 LUCK=4"                     # total 20


def test_complex_three_dice_doubles_lost_discards_pair_and_one_more():
    g = new("Knuckles,Accountant")
    start(g, KNUCKLES, "STR=4 AGI=6 FOR=6 SMA=12 CON=10 LUCK=8")
    run(g, "@1 attack complex STR+FOR+LUCK -> @2:SMA", "@2 defend none")
    run(g, "roll 2 2 5")                                          # 9 < 12, doubles 2-2
    assert g.stage not in ("discard", "thick_skull")             # own discards: no Thick Skull
    assert all(values(g, 0)[a] is None for a in ("STR", "FOR", "LUCK"))
    assert g.fighters[0]["special_used"] is False
    assert sorted(d["die"] for d in g.view(None)["last_attack"]["discarded"]) == \
        ["@1:FOR", "@1:LUCK", "@1:STR"]


def test_complex_three_dice_triple_won_attacker_picks_two():
    g = new("Knuckles,Accountant")
    start(g, KNUCKLES, "STR=4 AGI=6 FOR=6 SMA=12 CON=10 LUCK=8")
    run(g, "@1 attack complex STR+FOR+LUCK -> @2:CON", "@2 defend none", "roll 4 4 4")
    assert values(g, 1)["CON"] is None                            # 12 > 10
    assert g.stage == "discard"
    assert g.legal(0) == ["discard STR+FOR", "discard STR+LUCK", "discard FOR+LUCK"]
    with pytest.raises(IllegalMoveError):
        g.apply(0, "discard STR+FOR+LUCK")
    with pytest.raises(IllegalMoveError):
        g.apply(0, "discard STR")
    run(g, "@1 discard LUCK+STR")
    assert values(g, 0)["STR"] is None and values(g, 0)["LUCK"] is None
    assert values(g, 0)["FOR"] == 4


def test_complex_three_dice_triple_lost_all_three_go():
    g = new("Knuckles,Accountant")
    start(g, KNUCKLES, "STR=4 AGI=6 FOR=6 SMA=12 CON=10 LUCK=8")
    run(g, "@1 attack complex STR+FOR+LUCK -> @2:SMA", "@2 defend none", "roll 1 1 1")
    assert all(values(g, 0)[a] is None for a in ("STR", "FOR", "LUCK"))


def test_complex_three_dice_lost_no_doubles_one_chosen():
    g = new("Knuckles,Accountant")
    start(g, KNUCKLES, "STR=4 AGI=6 FOR=6 SMA=12 CON=10 LUCK=8")
    run(g, "@1 attack complex STR+FOR+LUCK -> @2:SMA", "@2 defend none", "roll 1 2 3")
    assert g.legal(0) == ["discard STR", "discard FOR", "discard LUCK"]
    run(g, "@1 discard FOR")
    assert values(g, 0) == {"STR": 1, "AGI": 2, "FOR": None, "CON": 3, "LUCK": 3}


def test_complex_three_dice_pair_won_pair_goes():
    g = new("Knuckles,Accountant")
    start(g, KNUCKLES, "STR=4 AGI=6 FOR=6 SMA=12 CON=10 LUCK=8")
    run(g, "@1 attack complex STR+FOR+LUCK -> @2:CON", "@2 defend none", "roll 5 9 5")
    assert values(g, 0) == {"STR": None, "AGI": 2, "FOR": 9, "CON": 3, "LUCK": None}


def test_complex_four_dice_lost_with_doubles_pair_and_one_of_the_rest():
    """No roster board has four Linked dice; recolour one to reach the seed's 3+ dice case
    where the one extra die is the attacker's choice."""
    g = new("Knuckles,Accountant")
    start(g, KNUCKLES, "STR=4 AGI=6 FOR=6 SMA=12 CON=10 LUCK=8")
    g.fighters[0]["colours"]["AGI"] = "R"
    run(g, "@1 attack complex STR+AGI+FOR+LUCK -> @2:SMA", "@2 defend none",
        "roll 3 1 3 2")                                           # 9 < 12, doubles STR/FOR
    assert g.legal(0) == ["discard STR+AGI+FOR", "discard STR+FOR+LUCK"]
    run(g, "@1 discard STR+FOR+LUCK")
    assert values(g, 0) == {"STR": None, "AGI": 1, "FOR": None, "CON": 3, "LUCK": None}


# --- defenses ---------------------------------------------------------------------------------

def test_boosted_defense_adds_two_and_the_assist_rerolls():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack ability CON -> @2:CON")
    assert sorted(g.legal(1)) == ["defend boosted LUCK", "defend linked LUCK", "defend none"]
    events = run(g, "@2 defend boosted LUCK", "roll 8")
    assert "CON 7 + 2 (boosted defense from LUCK) = 9: the attack fails" in texts(events)
    assert [d.label for d in g.chance().draws] == ["@2:LUCK d10"]
    run(g, "roll 1")
    assert values(g, 1)["LUCK"] == 1 and values(g, 1)["CON"] == 7
    assert g.view(None)["last_attack"]["rerolled"] == [{"die": "@2:LUCK", "from": 8, "to": 1}]


def test_linked_defense_adds_the_linked_standing_value():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack boosted STR+AGI -> @2:CON", "@2 defend linked LUCK")
    events = run(g, "roll 8")
    assert "STR 8 + 2 = 10 against CON 7 + 8 (linked defense from LUCK) = 15" in texts(events)
    assert [d.label for d in g.chance().draws] == ["@1:AGI d6", "@2:LUCK d10"]
    run(g, "roll 6 2")
    assert values(g, 0)["AGI"] == 6 and values(g, 1)["LUCK"] == 2


def test_defense_choices_must_fit():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack boosted STR+AGI -> @2:FOR")
    before = g.to_json()
    with pytest.raises(IllegalMoveError, match="FOR is white|not white"):
        g.apply(1, "defend linked AGI")
    with pytest.raises(IllegalMoveError, match="next to FOR"):
        g.apply(1, "defend boosted STR")
    with pytest.raises(InvalidMoveError, match="defend none"):
        g.apply(1, "defend harder")
    with pytest.raises(NotYourTurnError):
        g.apply(0, "defend none")
    assert g.to_json() == before
    assert g.timeout_move(1) == "defend none"


def test_no_possible_defense_skips_step_three():
    g = new()
    start(g, MALICE, "STR=10 AGI=6 FOR=5 CON=7 LUCK=8")
    g.fighters[1]["values"]["LUCK"] = None          # an earlier discard: CON stands alone
    events = run(g, "@1 attack ability CON -> @2:CON")
    assert "has no defense to declare" in texts(events)
    assert g.stage == "attack_roll"


# --- specials ---------------------------------------------------------------------------------

def test_cheap_shot_adds_four_once_per_combat():
    g = new()
    start(g, MALICE, MAYHEM)
    assert "special cheap-shot" in g.legal(0)
    run(g, "@1 special cheap-shot")
    assert all(m.startswith("attack boosted") for m in g.legal(0))
    with pytest.raises(IllegalMoveError, match="Cheap Shot is declared"):
        g.apply(0, "attack ability CON -> @2:CON")
    run(g, "@1 attack boosted STR+AGI -> @2:LUCK", "@2 defend none")
    events = run(g, "roll 5", "roll 3")
    assert "STR 5 + 4 = 9 against LUCK 8: the attack wins" in texts(events)
    assert values(g, 1)["LUCK"] is None
    assert g.view(None)["last_attack"]["cheap_shot"] is True
    # @2's turn, then @1 again: Cheap Shot is spent.
    run(g, "@2 attack ability STR -> @1:STR", "@1 defend none", "roll 1")
    assert g.active == 0 and "special cheap-shot" not in g.legal(0)
    with pytest.raises(IllegalMoveError, match="once per combat"):
        g.apply(0, "special cheap-shot")


def test_rampage_after_a_won_complex_attack():
    g = new("Mayhem,Malice")
    start(g, "STR=2 AGI=2 FOR=2 CON=2 LUCK=2", MALICE)
    run(g, "@1 attack complex STR+AGI -> @2:CON", "@2 defend none", "roll 6 7")
    assert g.stage == "rampage" and g.legal(0) == ["special rampage", "pass"]
    run(g, "@1 special rampage")
    assert g.stage == "declare" and g.active == 0
    assert all(m.startswith("attack ability") for m in g.legal(0))
    with pytest.raises(IllegalMoveError, match="must be an Ability Attack"):
        g.apply(0, "attack boosted STR+AGI -> @2:FOR")
    run(g, "@1 attack ability STR -> @2:STR", "@2 defend none", "roll 9")
    assert values(g, 1)["STR"] is None
    assert g.active == 1 and g.turn == 2                          # one turn, two attacks
    assert g.fighters[0]["special_used"]


def test_rampage_can_be_declined_and_waits_for_victory_check():
    g = new("Mayhem,Malice")
    start(g, "STR=2 AGI=2 FOR=2 CON=2 LUCK=2", MALICE)
    run(g, "@1 attack complex STR+AGI -> @2:CON", "@2 defend none", "roll 6 7", "@1 pass")
    assert g.active == 1 and not g.fighters[0]["special_used"]
    # A won Complex Attack that ends the combat: no Rampage.
    g = new("Mayhem,Malice", best_of=1)
    start(g, "STR=2 AGI=2 FOR=2 CON=2 LUCK=2", MALICE)
    for a in ("STR", "AGI", "FOR", "SMA"):
        g.fighters[1]["values"][a] = None                       # Malice: only CON is left
    run(g, "@1 attack complex STR+AGI -> @2:CON", "roll 6 7")
    assert g.result is not None and g.stage != "rampage"


def test_cook_the_books_at_turn_start():
    g = new("The Accountant,Mayhem")
    start(g, "STR=1 AGI=2 FOR=6 SMA=3 CON=4 LUCK=5", MAYHEM)
    assert "special cook-the-books AGI+FOR" in g.legal(0)
    with pytest.raises(IllegalMoveError, match="same size"):
        g.apply(0, "special cook-the-books SMA+CON")
    with pytest.raises(IllegalMoveError, match="two dice"):
        g.apply(0, "special cook-the-books AGI")
    run(g, "@1 special cook-the-books FOR+AGI")
    assert values(g, 0)["AGI"] == 6 and values(g, 0)["FOR"] == 2
    assert g.stage == "declare" and not any("special" in m for m in g.legal(0))
    with pytest.raises(IllegalMoveError, match="once per combat"):
        g.apply(0, "special cook-the-books AGI+FOR")


def test_thick_skull_rerolls_instead_of_discarding():
    g = new("Mayhem,Knuckles")
    start(g, "STR=2 AGI=2 FOR=2 CON=2 LUCK=2", KNUCKLES)
    run(g, "@1 attack complex STR+AGI -> @2:FOR", "@2 defend none", "roll 6 7")
    assert g.stage == "thick_skull" and g.actors() == [1]
    assert g.legal(1) == ["special thick-skull", "pass"]
    assert g.timeout_move(1) == "pass"
    run(g, "@2 special thick-skull")
    assert [d.label for d in g.chance().draws] == ["@2:FOR d12"]
    events = run(g, "roll 11")
    assert "keeps FOR, re-rolled 6 → 11" in texts(events)
    assert values(g, 1)["FOR"] == 11
    assert g.stage == "rampage"                                  # the attack still counts as won
    assert g.view(None)["last_attack"]["saved"] == {"die": "@2:FOR", "from": 6, "to": 11}
    run(g, "@1 pass")
    # Once per combat: the next hit is simply discarded.
    run(g, "@2 attack ability STR -> @1:STR", "@1 defend none", "roll 1")
    run(g, "@1 attack ability STR -> @2:STR", "@2 defend none", "roll 12")
    assert values(g, 1)["STR"] is None


def test_thick_skull_can_be_passed():
    g = new("Mayhem,Knuckles")
    start(g, "STR=2 AGI=2 FOR=2 CON=2 LUCK=2", KNUCKLES)
    run(g, "@1 attack ability STR -> @2:STR", "@2 defend none", "roll 9", "@2 nospecial")
    assert values(g, 1)["STR"] is None and not g.fighters[1]["special_used"]


def test_loaded_dice_rerolls_before_doubles_are_checked():
    g = new("Lucky Lou,Knuckles")
    start(g, "STR=1 AGI=1 FOR=1 CON=1 LUCK=1", KNUCKLES)
    run(g, "@1 attack complex CON+LUCK -> @2:FOR", "@2 defend none", "roll 5 5")
    assert g.stage == "loaded" and g.result is None
    assert g.legal(0) == ["special loaded-dice CON", "special loaded-dice LUCK", "pass"]
    assert g.view(None)["attack"]["result"] is None               # not resolved yet
    run(g, "@1 special loaded-dice LUCK", "roll 9")
    # 5 + 9 = 14 > 6: won, and no doubles any more; Knuckles may still save FOR.
    assert g.stage == "thick_skull"
    run(g, "@2 pass")
    assert values(g, 0)["CON"] == 5 and values(g, 0)["LUCK"] == 9
    assert values(g, 1)["FOR"] is None
    assert g.view(None)["last_attack"]["loaded"] == {"die": "LUCK", "from": 5, "to": 9}


def test_loaded_dice_declined_keeps_the_roll():
    g = new("Lucky Lou,Knuckles")
    start(g, "STR=1 AGI=1 FOR=1 CON=1 LUCK=1", KNUCKLES)
    run(g, "@1 attack ability AGI -> @2:AGI", "@2 defend none", "roll 1", "@1 pass")
    assert values(g, 0)["AGI"] == 1 and values(g, 1)["AGI"] == 2
    assert not g.fighters[0]["special_used"]


VEX = "AGI=9 FOR=4 SMA=6 CON=10 LUCK=5"                         # total 34


def test_misdirection_moves_the_attack_to_a_same_size_die():
    g = new("Malice,Madame Vex")
    start(g, MALICE, VEX)
    run(g, "@1 attack boosted STR+AGI -> @2:SMA")
    assert "special misdirection AGI" in g.legal(1)
    with pytest.raises(IllegalMoveError, match="same size"):
        g.apply(1, "special misdirection CON")
    events = run(g, "@2 special misdirection AGI")
    assert "now hits AGI (standing 9)" in texts(events)
    assert g.stage == "defend" and "special misdirection SMA" not in g.legal(1)
    # The defense now fits the new target: AGI's neighbours are STR (none) and FOR.
    assert sorted(g.legal(1)) == ["defend boosted FOR", "defend linked SMA", "defend none"]
    run(g, "@2 defend none", "roll 8", "roll 1")
    assert values(g, 1)["AGI"] is None and values(g, 1)["SMA"] == 6     # 10 > 9
    assert g.view(None)["last_attack"]["misdirected_from"] == "@2:SMA"


def test_misdirection_against_an_ability_attack_uses_the_new_value():
    g = new("Malice,Madame Vex")
    start(g, MALICE, "AGI=9 FOR=4 SMA=6 CON=10 LUCK=1")
    run(g, "@1 attack ability FOR -> @2:FOR", "@2 special misdirection LUCK", "@2 defend none")
    run(g, "roll 1")
    assert values(g, 1)["LUCK"] is None and values(g, 1)["FOR"] == 4   # 1 >= 1


def test_special_refusals():
    g = new()
    start(g, MALICE, MAYHEM)
    with pytest.raises(IllegalMoveError, match="special is Cheap Shot, not Rampage"):
        g.apply(0, "special rampage")
    with pytest.raises(InvalidMoveError, match="not a special"):
        g.apply(0, "special fireball")
    with pytest.raises(IllegalMoveError, match="no passing"):
        g.apply(0, "pass")


# --- end of combat and the match --------------------------------------------------------------

def test_unable_to_attack_ends_the_combat_even_for_the_higher_total():
    """The character who can no longer attack still wins on the higher total."""
    g = new("Lucky Lou,Madame Vex", best_of=1)
    start(g, "STR=4 AGI=5 FOR=2 CON=7 LUCK=2", "AGI=1 FOR=4 SMA=1 CON=10 LUCK=5")
    for a in ("AGI", "LUCK"):
        g.fighters[0]["values"][a] = None      # earlier losses: Lou keeps STR, FOR, CON
    g.fighters[1]["values"]["FOR"] = None      # and Vex has lost FOR
    assert g.legal(0) == ["attack ability CON -> @2:CON"]
    run(g, "@1 attack ability CON -> @2:CON", "@2 defend none", "roll 1", "@1 pass")
    assert values(g, 0)["CON"] == 1 and values(g, 1)["CON"] == 10
    # Vex wins with doubles (both of her dice go), and Lou loses his only attacking die.
    events = run(g, "@2 attack complex CON+LUCK -> @1:CON", "roll 1 1")
    assert "has no defense to declare" in texts(events)
    assert values(g, 1) == {"AGI": 1, "FOR": None, "SMA": 1, "CON": None, "LUCK": None}
    assert g.combats[0] == {"combat": 1, "winner": 0, "totals": [6, 2],
                            "reason": "Lucky Lou (Player 1) cannot attack; highest total 6"}
    assert g.result == {"winners": [0], "reason": "Lucky Lou (Player 1) won the combat", "ending": "knockout"}


def test_unable_to_attack_after_an_attack():
    g = new("Lucky Lou,Madame Vex", best_of=1)
    start(g, "STR=3 AGI=5 FOR=2 CON=7 LUCK=4", VEX)
    g.fighters[1]["values"]["FOR"] = None          # an earlier hit on Vex's FOR
    g.fighters[0]["values"]["STR"] = None          # and on Lou's STR
    # Lou attacks with all three green dice, loses with doubles: all three go, and his FOR
    # alone can attack nothing (no neighbour, Vex has no FOR left).
    run(g, "@1 attack complex AGI+CON+LUCK -> @2:CON", "@2 defend none", "roll 2 2 1",
        "@1 pass")
    assert g.result == {"winners": [1], "reason": "Madame Vex (Player 2) won the combat", "ending": "knockout"}
    combat = g.combats[0]
    assert combat["winner"] == 1 and combat["totals"] == [2, 30]     # 2 + 2 + 1 = 5 < CON 10
    assert combat["reason"] == "Lucky Lou (Player 1) cannot attack; highest total 30"


def stall(g):
    """Play Malice against Malice until the combat ends: every turn a Boosted Attack from
    STR (rolled 1, +2) on the opponent's CON (12) that must fail; the assist (AGI) re-rolls
    to the value it had. Only STR changes: it becomes 1."""
    combat = g.combat
    while g.result is None and g.combat == combat:
        st = g.stage
        if st == "declare":
            other = "@2" if g.active == 0 else "@1"
            g.apply(g.actors()[0], f"attack boosted STR+AGI -> {other}:CON")
        elif st == "defend":
            g.apply(g.actors()[0], "defend none")
        elif st == "attack_roll":
            g.apply(CHANCE, "roll 1")
        elif st == "assist_roll":
            old = [g.fighters[fi]["values"][d] for fi, d in g.attack["assists"]]
            g.apply(CHANCE, "roll " + " ".join(map(str, old)))
        else:
            raise AssertionError(st)


def test_twenty_turns_each_then_totals():
    g = new("Malice,Malice", best_of=1)
    start(g, "STR=8 AGI=3 FOR=4 SMA=2 CON=12", "STR=7 AGI=3 FOR=4 SMA=2 CON=12")
    assert g.active == 1 and g.turn_limit == 40
    stall(g)
    assert g.turn == 40
    assert [f["turns"] for f in g.fighters] == [20, 20]
    # Both STR are 1 now: equal totals, a draw; with best_of 1 the game is a draw.
    assert g.combats[0]["reason"] == "20 turns each are over; equal highest totals (22)"
    assert g.result == {"winners": [], "reason": "the combat ended with equal totals",
                        "ending": "round_limit"}


def test_best_of_three_with_a_replayed_draw():
    g = new("Malice,Malice")
    draw_boards = ("STR=8 AGI=3 FOR=4 SMA=2 CON=12", "STR=7 AGI=3 FOR=4 SMA=2 CON=12")
    win_boards = ("STR=8 AGI=3 FOR=5 SMA=2 CON=12", "STR=7 AGI=3 FOR=4 SMA=2 CON=12")
    start(g, *draw_boards)
    stall(g)
    assert g.combats[-1]["winner"] is None and g.combat == 2 and g.score == [0, 0]
    assert g.stage == "setup_roll" and g.result is None
    assert g.view(None)["last_attack"] is None
    start(g, *win_boards)
    assert not any(f["special_used"] for f in g.fighters) and g.fighters[0]["turns"] == 0
    stall(g)
    assert g.score == [1, 0] and g.combat == 3
    start(g, *win_boards)
    stall(g)
    assert g.result == {"winners": [0], "reason": "Malice (Player 1) won the match 2–0", "ending": "round_limit"}
    assert [c["winner"] for c in g.combats] == [None, 0, 0]
    assert g.view(None)["score"] == [1 + 1, 0]


def test_five_combats_without_a_match_winner_is_a_draw():
    g = new("Malice,Malice")
    draw_boards = ("STR=8 AGI=3 FOR=4 SMA=2 CON=12", "STR=7 AGI=3 FOR=4 SMA=2 CON=12")
    win_boards = ("STR=8 AGI=3 FOR=5 SMA=2 CON=12", "STR=7 AGI=3 FOR=4 SMA=2 CON=12")
    for boards in (win_boards, draw_boards, draw_boards, draw_boards, draw_boards):
        start(g, *boards)
        stall(g)
    assert g.result == {"winners": [], "reason": "no one won 2 combats in 5 (score 1–0)", "ending": "round_limit"}
    assert len(g.combats) == 5


# --- more than two players --------------------------------------------------------------------

def test_three_players_turn_order_and_any_opponent():
    g = new("Malice,Mayhem,The Accountant", players=3)
    assert g.view(None)["mode"] == "free-for-all" and g.turn_limit == 60
    start(g, MALICE, MAYHEM, "STR=1 AGI=1 FOR=1 SMA=2 CON=1 LUCK=1")   # 23, 36, 7
    assert g.view(None)["order"] == ["The Accountant (Player 3)", "Malice (Player 1)", "Mayhem (Player 2)"]
    assert g.active == 2
    targets = {m.split("-> ")[1].split(":")[0] for m in g.legal(2) if "->" in m}
    assert targets == {"@1", "@2"}
    run(g, "@3 attack boosted SMA+CON -> @1:CON")
    assert g.actors() == [0]                                      # only the defender acts
    run(g, "@1 defend none", "roll 12", "roll 1")
    assert values(g, 0)["CON"] is None
    assert g.active == 0
    with pytest.raises(IllegalMoveError, match="opponent"):
        g.apply(0, "attack ability STR -> @1:STR")


def test_three_players_any_tie_rerolls():
    g = new("Malice,Mayhem,The Accountant", players=3)
    start(g, MALICE, MAYHEM, "STR=4 AGI=1 FOR=1 SMA=5 CON=10 LUCK=2")   # 23, 36, 23
    assert g.stage == "setup_roll"


def test_three_players_combat_ends_when_anyone_cannot_attack():
    g = new("Malice,Mayhem,The Accountant", players=3, best_of=1)
    start(g, MALICE, MAYHEM, "STR=1 AGI=1 FOR=1 SMA=2 CON=1 LUCK=1")
    for a in ("STR", "AGI", "FOR", "SMA"):
        g.fighters[0]["values"][a] = None                          # Malice: CON only
    run(g, "@3 attack ability CON -> @1:CON", "roll 9")
    assert g.combats[0]["reason"] == "Malice (Player 1) cannot attack; highest total 36"
    assert g.combats[0]["totals"] == [0, 36, 15]
    assert g.result == {"winners": [1], "reason": "Mayhem (Player 2) won the combat", "ending": "knockout"}


# --- Bosses & Minions -------------------------------------------------------------------------

def test_boss_dice_are_one_size_larger():
    g = G.new(2, {"mode": "boss", "characters": "Lucky Lou,Malice,Mayhem"})
    boss = g.fighters[0]
    assert boss["role"] == "boss"
    assert boss["dice"] == {"STR": 6, "AGI": 10, "FOR": 6, "CON": 12, "LUCK": 20}
    assert [f["id"] for f in g.fighters] == ["@1", "@2.1", "@2.2"]
    assert [f["seat"] for f in g.fighters] == [0, 1, 1]
    assert g.view(None)["sides"][1]["fighters"] == ["@2.1", "@2.2"]


def boss_game():
    g = G.new(2, {"mode": "boss", "characters": "Malice,Mayhem,Knuckles", "best_of": 1})
    # Boss Malice: STR d10, AGI d8, FOR d12, SMA d8, CON d20.
    start(g, "STR=9 AGI=7 FOR=11 SMA=7 CON=19", "STR=2 AGI=2 FOR=2 CON=2 LUCK=2",
          "STR=1 AGI=1 FOR=1 CON=1 LUCK=1")
    return g


def test_boss_game_sides_alternate_and_minions_take_turns_in_order():
    g = boss_game()
    assert g.view(None)["mode"] == "boss"
    assert g.view(None)["order"] == ["the Minions (Player 2)", "Boss Malice (Player 1)"]      # 15 against 53
    assert g.active == 1 and g.actors() == [1]
    targets = {m.split("-> ")[1].split(":")[0] for m in g.legal(1)}
    assert targets == {"@1"}                                        # Minions attack the Boss
    run(g, "@2 attack ability STR -> @1:STR", "@1 defend none", "roll 1")
    assert g.active == 0
    with pytest.raises(AmbiguousMoveError, match="Mayhem \\(`@2.1`\\), Knuckles \\(`@2.2`\\)"):
        g.apply(0, "attack ability STR -> @2:STR")
    run(g, "@1 attack ability STR -> @2.2:STR", "@2 defend none", "roll 10")
    assert g.stage == "thick_skull" and g.actors() == [1]
    run(g, "@2 pass")
    assert values(g, 2)["STR"] is None
    assert g.active == 2                                           # the second Minion
    with pytest.raises(IllegalMoveError, match="opponent"):
        g.apply(1, "attack ability AGI -> @2.1:AGI")


def test_boss_setup_names_the_minion():
    g = G.new(2, {"mode": "boss", "characters": "Malice,Mayhem,Knuckles"})
    g.apply(CHANCE, "roll " + " ".join(["1"] * 15))
    assert g.legal(1)[0].startswith("setup @2.1 ")
    with pytest.raises(AmbiguousMoveError, match="setup @2.1"):
        g.apply(1, "setup STR=1 AGI=1 FOR=1 CON=1 LUCK=1")
    g.apply(1, "setup @2.1 STR=1 AGI=1 FOR=1 CON=1 LUCK=1")
    g.apply(1, "setup STR=1 AGI=1 FOR=1 CON=1 LUCK=1")       # the only one left
    assert all(f["arranged"] is not None for f in g.fighters[1:])


def test_boss_loses_when_it_cannot_attack():
    g = boss_game()
    for a in ("STR", "AGI", "FOR", "SMA"):
        g.fighters[0]["values"][a] = None                         # the Boss has only CON
    g.fighters[1]["values"]["CON"] = None
    g.fighters[2]["values"]["CON"] = None
    # A Minion's turn: hit the Boss's last die.
    run(g, "@2 attack boosted STR+AGI -> @1:CON", "roll 10", "roll 2")
    assert g.result == {"winners": [1], "reason": "the Minions (Player 2) won the combat", "ending": "knockout"}
    assert g.combats[0]["reason"] == "the Boss cannot attack"


def test_minions_lose_when_none_can_attack_and_unable_minions_are_skipped():
    g = boss_game()
    g.fighters[1]["values"]["CON"] = None      # earlier losses: Mayhem without CON,
    g.fighters[0]["values"]["FOR"] = None      # the Boss without FOR
    # Mayhem loses a Complex Attack with doubles: STR and AGI go; FOR and LUCK alone
    # cannot attack the Boss any more.
    run(g, "@2 attack complex STR+AGI -> @1:CON", "@1 defend none", "roll 3 3")
    assert not g.can_attack(1) and g.result is None
    run(g, "@1 attack boosted STR+AGI -> @2.1:LUCK", "roll 1", "roll 7")
    assert values(g, 1)["LUCK"] is None
    assert g.active == 2                                           # Knuckles' turn
    run(g, "@2 attack ability STR -> @1:STR", "@1 defend none", "roll 1")
    run(g, "@1 attack ability AGI -> @2.2:AGI", "@2 defend none", "roll 1", "@2 pass")
    assert g.active == 2 and g.turn == 5                           # Mayhem is skipped
    for a in ("STR", "AGI", "FOR", "LUCK"):
        g.fighters[2]["values"][a] = None                        # Knuckles: CON only
    run(g, "@2 attack ability CON -> @1:CON", "@1 defend none", "roll 1")
    assert g.result is None
    run(g, "@1 attack ability CON -> @2.2:CON", "roll 20", "@2 pass")
    assert g.combats[0]["reason"] == "no Minion can attack"
    assert g.result == {"winners": [0], "reason": "Boss Malice (Player 1) won the combat", "ending": "knockout"}


def test_boss_wipes_out_the_minions():
    g = boss_game()
    run(g, "@2 attack ability STR -> @1:STR", "@1 defend none", "roll 1")
    for fi, f in enumerate(g.fighters[1:], start=1):
        for a in f["dice"]:
            if (fi, a) != (2, "CON"):
                f["values"][a] = None                 # earlier losses: Knuckles' CON is left
    run(g, "@1 attack ability CON -> @2.2:CON", "roll 5", "@2 pass")
    assert g.combats[0]["reason"] == "the Minions have no dice left"
    assert g.result["winners"] == [0]


def test_boss_and_minions_unable_at_once_totals_decide():
    g = boss_game()
    run(g, "@2 attack ability STR -> @1:STR", "@1 defend none", "roll 1",
        "@1 attack ability STR -> @2.2:STR", "@2 defend none", "roll 10", "@2 pass")
    assert g.active == 2
    for a in ("STR", "AGI", "FOR"):
        g.fighters[0]["values"][a] = None             # the Boss: SMA 7, CON 3
    g.fighters[0]["values"]["CON"] = 3
    for a in ("STR", "AGI", "CON", "LUCK"):
        g.fighters[1]["values"][a] = None             # Mayhem: FOR 2
    for a in ("AGI", "FOR", "LUCK"):
        g.fighters[2]["values"][a] = None             # Knuckles: CON 1
    run(g, "@2 attack ability CON -> @1:CON", "@1 defend none", "roll 5")
    # The Boss's SMA meets no Smarts die; Mayhem's FOR and Knuckles' CON meet nothing.
    assert g.combats[0]["reason"] == "neither side can attack; equal highest totals (7)"
    assert g.combats[0]["totals"] == [7, 7]
    assert g.result == {"winners": [], "reason": "the combat ended with equal totals",
                        "ending": "knockout"}


def test_boss_resign_gives_the_other_side_the_match():
    g = G.new(3, {"mode": "boss"})
    assert [f["id"] for f in g.fighters] == ["@1", "@2", "@3"]
    events = g.resign(2)
    assert g.result["winners"] == [0] and "resigned" in events[0].text


# --- bad input --------------------------------------------------------------------------------

def test_bad_input_leaves_the_state_unchanged():
    g = new()
    start(g, MALICE, MAYHEM)
    before = g.to_json()
    for move, error in [
        ("", InvalidMoveError), ("dance", InvalidMoveError), ("attack", InvalidMoveError),
        ("attack punch STR -> @2:STR", InvalidMoveError),
        ("attack ability STR -> @2", InvalidMoveError),
        ("attack ability STR -> @9:STR", InvalidMoveError),
        ("attack ability XYZ -> @2:STR", InvalidMoveError),
        ("attack boosted STR++AGI -> @2:STR", InvalidMoveError),
        ("defend none", IllegalMoveError), ("discard STR", IllegalMoveError),
        ("special loaded-dice STR", IllegalMoveError),
        ("setup STR=1", IllegalMoveError),
        ("pass now", InvalidMoveError),
        ("roll 3", InvalidMoveError),
    ]:
        with pytest.raises(error):
            g.apply(0, move)
        assert g.to_json() == before, move
    with pytest.raises(NotYourTurnError):
        g.apply(1, "attack ability STR -> @1:STR")
    run(g, "@1 attack ability STR -> @2:STR", "@2 defend none")
    before = g.to_json()
    with pytest.raises(InvalidMoveError, match="cannot be '9'"):
        g.apply(CHANCE, "roll 9")                                 # Malice's STR is a d8
    with pytest.raises(InvalidMoveError, match="needs 1 outcome"):
        g.apply(CHANCE, "roll 1 2")
    assert g.to_json() == before


def test_error_messages_say_what_is_allowed():
    g = new()
    start(g, MALICE, MAYHEM)
    with pytest.raises(IllegalMoveError) as err:
        g.apply(0, "defend none")
    text = str(err.value)
    assert "A defense is not possible now" in text and "`attack ability STR -> @2:STR`" in text
    run(g, "@1 attack ability CON -> @2:CON")
    with pytest.raises(IllegalMoveError) as err:
        g.apply(1, "defend boosted FOR")
    assert "`defend none`" in str(err.value) and "`defend boosted LUCK`" in str(err.value)


# --- views ------------------------------------------------------------------------------------

def test_public_view_keys_and_text():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack boosted STR+AGI -> @2:CON")
    v = g.view(None)
    assert set(v) == {"kind", "title", "mode", "players", "best_of", "combat", "max_combats",
                      "score", "sides", "stage", "to_act", "prompt", "turn", "turn_limit",
                      "active", "order", "fighters", "attack", "last_attack", "combats",
                      "result", "names", "boost", "armed", "attack_groups"}
    assert "you" in g.view(0) and "you" not in v
    f = v["fighters"][0]
    assert f["special"] == {"key": "cheap-shot", "name": "Cheap Shot", "used": False}
    assert f["board"][5] == {"ability": "LUCK", "name": "Luck", "die": None, "colour": None,
                             "value": None, "state": "none"}
    assert f["board"][0] == {"ability": "STR", "name": "Strength", "die": 8, "colour": "R",
                             "value": 5, "state": "standing"}
    assert v["attack"]["target"] == "@2:CON" and v["attack"]["assist"] == "AGI"
    assert v["to_act"] == [1] and "defense for CON" in v["prompt"]
    text = g.text(None)
    assert len(text) < 1500
    assert "Malice (Player 1) [Cheap Shot: ready] total 23" in text
    assert "STR d8R 5 · AGI d6W 3" in text and "LUCK —" in text
    assert ("Attack: Malice (Player 1): boosted attack with STR (+2 from AGI) on CON of "
            "Mayhem (Player 2)") in text
    assert not re.search(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b(?!\))", text)
    json.dumps(v)


def test_round_trip_mid_attack():
    g = new("Lucky Lou,Knuckles")
    start(g, "STR=1 AGI=1 FOR=1 CON=1 LUCK=1", KNUCKLES)
    run(g, "@1 attack complex CON+LUCK -> @2:FOR", "@2 defend none", "roll 5 5")
    again = round_trip(g)
    assert again.legal(0) == g.legal(0)
    run(again, "@1 pass")
    assert again.stage == "thick_skull"
