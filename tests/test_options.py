"""Slash options come from the engine's option table: the ranges, choices and help a player sees
are the engine's, and what they give reaches the game."""
from bot.engine.core import Option
from bot.options import annotation, describe


def test_the_coin_flip_challenge_offers_the_engines_target(fake):
    [cmd] = [c for c in fake.bot.tree.get_commands() if c.name == "coinflip"]
    challenge = next(c for c in cmd.commands if c.name == "challenge").to_dict(fake.bot.tree)
    target = next(o for o in challenge["options"] if o["name"] == "target")
    assert (target["min_value"], target["max_value"], target["required"]) == (1, 9, False)
    assert target["description"] == "Points to win (default 2)"


async def test_a_given_option_reaches_the_game_and_a_missing_one_is_the_default(fake, world):
    await fake.invoke(fake.slash(fake.bot, "coinflip challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob, target=5))
    challenge = fake.messages_in(world.games)[-1]
    accept = next(c for c in challenge.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(challenge, accept, user=world.bob))
    [row] = await fake.bot.store.active_games()
    assert row.options == {"target": 5}


def test_choices_and_switches():
    mode = Option("mode", "physical", "how flicks are resolved", choices=("physical", "simulated"))
    assert "Literal['physical', 'simulated']" in str(annotation(mode))
    assert describe(Option("stun", False, "stunned dice skip a turn")) == \
        "Stunned dice skip a turn (default off)"
