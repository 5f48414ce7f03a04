"""#13.2: learn a game in Discord. `/help`, each game's help and every `/games rules` page fit
Discord's limits, hold no Markdown table and no file path, and page with buttons."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot import guide
from bot.engine import KINDS, load
from bot.validate import validate
from cogs.help import help_for

ROOT = Path(__file__).resolve().parent.parent
MESSAGE_LIMIT = 2000
PAGE_TARGET = 1500  # short pages: one screen on a phone
TABLE = re.compile(r"^\s*\|.*\|\s*$|\|\s*:?-{3,}", re.MULTILINE)
FILE_PATH = re.compile(r"\b[\w./-]+\.(?:md|py|json|txt|toml)\b|\b(?:docs|seeds|tests|bot|cogs)/\w")
SEAT_CODE = re.compile(r"(?<![\w`])@[1-9]\b|\bP[1-9]\b|\b[Pp]layer [1-9]\b")


def readable_problems(text: str) -> list[str]:
    problems = []
    if len(text) > MESSAGE_LIMIT:
        problems.append(f"{len(text)} characters")
    if TABLE.search(text):
        problems.append(f"a Markdown table: {TABLE.search(text).group(0)!r}")
    if FILE_PATH.search(text):
        problems.append(f"a file path: {FILE_PATH.search(text).group(0)!r}")
    if "python -m" in text:
        problems.append("a shell command")
    if SEAT_CODE.search(text):
        problems.append(f"a seat code: {SEAT_CODE.search(text).group(0)!r}")
    return problems


@pytest.mark.parametrize("kind", KINDS)
def test_every_rules_page_is_short_and_plain(kind):
    pages = guide.pages(kind)
    assert len(pages) >= 4, f"{kind}: {len(pages)} pages"
    for n, page in enumerate(pages, 1):
        assert len(page) <= PAGE_TARGET, f"{kind} page {n}: {len(page)} characters"
        assert readable_problems(page) == [], f"{kind} page {n}"
        assert not page.startswith("#"), f"{kind} page {n} is only a title"
        assert len(page.splitlines()) >= 3, f"{kind} page {n} is nearly empty"


@pytest.mark.parametrize("kind", KINDS)
def test_the_first_page_says_how_to_win_and_what_to_do_first(kind):
    goal, first = guide.goal(kind), guide.first_steps(kind)
    assert goal.startswith("🎯 **Goal:**") and "\n" not in goal and len(goal) <= 200
    assert first.startswith("**What to do first:**") and "\n" not in first
    assert len(first) <= 300
    help_page = guide.game_help(kind)
    assert help_page.startswith(goal)
    for heading in ("**How a", "**Buttons and commands**"):
        assert heading in help_page, f"{kind}: no {heading}"
    assert f"/{kind} " in help_page and f"/games rules game:{kind}" in help_page
    assert "Type a move" in help_page and "secret panel" in help_page


@pytest.mark.parametrize("kind", KINDS)
def test_the_referees_rulings_are_marked(kind):
    rulings = [p for p in guide.pages(kind) if "Referee's ruling" in p]
    assert rulings, f"{kind}: no referee's rulings"
    for page in rulings:
        bullets = [line for line in page.splitlines() if line.startswith(("⚖️", "•", "- "))]
        assert bullets and all(line.startswith("⚖️") for line in bullets), page[:200]


def test_general_help_and_every_game_help_fit_a_message():
    for kind in (None, *KINDS):
        text = help_for(kind)
        assert text and readable_problems(text) == [], kind
    text = help_for(None)
    for command in ("/games rules", "/help game:", "challenge", "secret panel", "/games list"):
        assert command in text


def test_a_game_without_a_guide_has_empty_words():
    assert guide.goal("coinflip") == guide.first_steps("coinflip") == ""
    assert guide.pages("../../etc/passwd") == [] and not guide.has_guide("../x")


def test_the_pages_are_package_data():
    """An installed bot has them: they live in the bot.guide package and pyproject ships *.md."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "*.md" in config["tool"]["setuptools"]["package-data"]["bot.guide"]
    assert any(p.startswith("bot") for p in config["tool"]["setuptools"]["packages"]["find"]
               ["include"])
    shipped = {p.name for p in (ROOT / "bot" / "guide").glob("*.md")}
    assert {f"{k}.md" for k in KINDS} | {"help.md"} <= shipped


# ---- through the harness --------------------------------------------------------------------

async def test_help_command(fake, world):
    [answer] = await fake.invoke(fake.slash(fake.bot, "help", user=world.carol,
                                            channel=world.games))
    assert answer.ephemeral and "/games rules" in answer.content
    [answer] = await fake.invoke(fake.slash(fake.bot, "help", user=world.carol,
                                            channel=world.games, game="diemen"))
    assert answer.ephemeral and answer.content.startswith("❓ **Crazy Die-Man")
    assert guide.goal("diemen") in answer.content


async def test_the_command_tree_with_help_is_valid(fake):
    tree = fake.bot.tree_payload()
    assert "help" in {c["name"] for c in tree}
    assert validate(tree) == []


@pytest.mark.parametrize("kind", ["kaploom", "deathbydice"])
async def test_rules_page_forward_to_the_end_and_back(fake, world, kind):
    pages = guide.pages(kind)
    [answer] = await fake.invoke(fake.slash(fake.bot, "games rules", user=world.alice,
                                            channel=world.games, game=kind))
    msg = [m for m in fake.messages_in(world.games, include_ephemeral=True) if m.ephemeral][-1]
    title = load(kind).TITLE
    for n in range(1, len(pages) + 1):
        assert msg.content.startswith(f"📖 **{title} — rules, page {n}/{len(pages)}**")
        assert pages[n - 1] in msg.content and len(msg.content) <= MESSAGE_LIMIT
        buttons = {c["custom_id"].rsplit(":", 1)[1]: c for c in msg.components()
                   if c.get("custom_id")}
        assert buttons["prev"].get("disabled", False) == (n == 1)
        assert buttons["next"].get("disabled", False) == (n == len(pages))
        if n < len(pages):
            await fake.invoke(fake.click(msg, buttons["next"]["custom_id"], user=world.alice))
    await fake.invoke(fake.click(msg, buttons["prev"]["custom_id"], user=world.alice))
    assert f"page {len(pages) - 1}/{len(pages)}" in msg.content


async def test_the_opening_message_says_how_to_win(fake, world):
    """gamecog puts guide.goal / guide.first_steps into each game's first message."""
    from table_play import CHALLENGE_OPTIONS
    await fake.invoke(fake.slash(fake.bot, "slideslam challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob,
                                 **CHALLENGE_OPTIONS.get("slideslam", {})))
    challenge = fake.messages_in(world.games)[-1]
    accept = next(c for c in challenge.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(challenge, accept, user=world.bob))
    row = (await fake.bot.store.active_games())[-1]
    first = fake.messages_in(row.thread_id)[0].text()
    assert guide.goal("slideslam") in first and guide.first_steps("slideslam") in first


def test_the_death_by_dice_roster_page_matches_the_engine():
    """The roster is written out as a list (Discord shows no tables): it must say what the
    engine plays."""
    from bot.engine.deathbydice.game import DeathByDice
    text = "\n".join(guide.pages("deathbydice"))
    for character in DeathByDice.roster():
        dice = ", ".join(f"d{a['die']} {a['colour']}" if a["die"] else "none"
                         for a in character["board"])
        line = f"• **{character['name']}:** {dice} — *{character['special']['name']}*"
        assert line in text, line


def test_the_kaploom_pages_name_every_action_with_what_it_needs():
    from bot.engine.kaploom import data
    text = "\n".join(guide.pages("kaploom"))
    tables = [t for n, t in vars(data).items() if n.endswith("_TABLE") and isinstance(t, tuple)]
    actions = [a for t in tables for a in t if hasattr(a, "requires")]
    assert len(actions) > 30
    missing = [f"{a.name} ({' '.join(a.requires)})" for a in actions
               if f"{a.name} ({' '.join(a.requires)}" not in text]
    assert missing == []
