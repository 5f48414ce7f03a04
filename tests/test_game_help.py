"""Each game teaches itself inside Discord: `/<game> help` answers privately with the guide,
and a game's first message says how to win and what to do first."""
import pytest

from bot import guide
from bot.engine import KINDS
from table_play import CHALLENGE_OPTIONS


@pytest.mark.parametrize("kind", KINDS)
async def test_game_help_is_private_and_from_the_guide(fake, world, kind):
    new = await fake.invoke(fake.slash(fake.bot, f"{kind} help", user=world.carol,
                                       channel=world.games))
    [answer] = [r for r in new if r.content]
    assert answer.ephemeral and len(answer.content) <= 2000
    assert guide.goal(kind) in answer.content


@pytest.mark.parametrize("kind", ["slideslam", "diemen"])
async def test_the_first_message_says_how_to_win_and_what_to_do_first(fake, world, kind):
    await fake.invoke(fake.slash(fake.bot, f"{kind} challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob,
                                 **CHALLENGE_OPTIONS.get(kind, {})))
    challenge = fake.messages_in(world.games)[-1]
    accept = next(c for c in challenge.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(challenge, accept, user=world.bob))
    row = (await fake.bot.store.active_games())[-1]
    first = fake.messages_in(row.thread_id)[0].content
    assert guide.goal(kind) in first and guide.first_steps(kind) in first
