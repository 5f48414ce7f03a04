"""What publishing a move costs through Discord (issue #14). Pictures nobody would see are not
drawn: a panel is compared with what its message shows before its picture is drawn; an
unchanged panel, a closed DM and a publish repeated after a crash draw nothing and send
nothing. A `/<game> move` command reads its game once."""
from __future__ import annotations

import re


def _count_pictures(cog, monkeypatch) -> list:
    drawn: list = []
    real = cog.picture

    async def picture(row, game, seat=None):
        drawn.append(seat)
        return await real(row, game, seat)
    monkeypatch.setattr(cog, "picture", picture)
    return drawn


async def test_publishing_again_draws_and_sends_nothing(fake, world, monkeypatch):
    bot = fake.bot
    created = await bot.tables.create("slideslam", [world.alice.id, world.bob.id],
                                      {"first_player": "random"}, guild_id=world.guild.id,
                                      channel_id=world.games.id, names=["Alice", "Bob"])
    await fake.settle()
    drawn = _count_pictures(bot.game_cogs["slideslam"], monkeypatch)
    played = await bot.tables.play(created.row.id, world.alice.id, "place a1=6")
    await fake.settle()
    assert drawn == [0]   # the first publish drew Alice's panel (its words: no picture)
    assert "You placed" in fake.dms_to(world.alice)[-1].content
    drawn.clear()
    mark = len(fake.requests)
    await bot.game_cogs["slideslam"].publish(played)
    await fake.settle()
    assert drawn == [] and fake.requests[mark:] == []


async def test_a_panel_the_move_did_not_change_is_not_redrawn(fake, world, monkeypatch):
    bot = fake.bot
    played = await bot.tables.create("slideslam", [world.alice.id, world.bob.id],
                                     {"first_player": "random"}, guild_id=world.guild.id,
                                     channel_id=world.games.id, names=["Alice", "Bob"])
    await fake.settle()
    drawn = _count_pictures(bot.game_cogs["slideslam"], monkeypatch)
    bob_dms = len(fake.dms_to(world.bob))
    await bot.tables.play(played.row.id, world.alice.id, "place a1=6")
    await fake.settle()
    assert drawn == [0]  # Alice's own panel; Bob's shows nothing of her placing
    assert len(fake.dms_to(world.bob)) == bob_dms


async def test_a_closed_dm_gets_no_picture(fake, world, monkeypatch):
    bot = fake.bot
    fake.close_dms(world.bob)
    played = await bot.tables.create("slideslam", [world.alice.id, world.bob.id],
                                     {"first_player": "random"}, guild_id=world.guild.id,
                                     channel_id=world.games.id, names=["Alice", "Bob"])
    await fake.settle()
    drawn = _count_pictures(bot.game_cogs["slideslam"], monkeypatch)
    await bot.tables.play(played.row.id, world.bob.id, "place a8=6")
    await bot.tables.play(played.row.id, world.alice.id, "place a1=6")
    await fake.settle()
    assert 1 not in drawn and drawn == [0]


async def test_a_move_command_reads_its_game_once(fake, world):
    bot = fake.bot
    created = await bot.tables.create("slideslam", [world.alice.id, world.bob.id],
                                      {"first_player": "random"}, guild_id=world.guild.id,
                                      channel_id=world.games.id, names=["Alice", "Bob"])
    await fake.settle()
    sql: list[str] = []
    await bot.store.set_trace_callback(lambda s: sql.append(re.sub(r"\s+", " ", s)))
    await fake.invoke(fake.slash(bot, "slideslam move", user=world.alice, channel=world.games,
                                 move="place a1=6"))
    game_reads = [s for s in sql if s.startswith("SELECT id, kind,")]
    assert len(game_reads) == 1, game_reads
    row, _ = await bot.tables.load(created.row.id)
    assert row.version == created.row.version + 1


def test_a_panel_key_is_the_same_however_the_game_was_come_by():
    """The key that spares an unchanged panel its building: the same position keys the same
    whether the game was loaded from the store or had the move applied in place (publishing
    sees the one, the next move's publish compared with a key from the other). Pickled with
    its memo, a string met twice was written once or twice as the view's strings were one
    object or not, and 1 in 5 unchanged panels were built again."""
    import json

    from bot.engine import load, records
    from bot.gamecog import GameCog

    for kind in ("kaploom", "tradeshowdown"):
        engine = load(kind)
        for seed in range(1):
            rec, _ = records.selfplay(kind, seed, players=2)
            game = records.start(rec)
            for entry in rec.entries:
                moved = engine.from_json(json.loads(game.to_text()))
                moved.apply(records.entry_actor(entry, 2), entry["move"])
                game.apply(records.entry_actor(entry, 2), entry["move"])
                loaded = engine.from_json(json.loads(moved.to_text()))
                for seat in range(2):
                    assert GameCog._panel_key(moved, seat, "p1") == \
                        GameCog._panel_key(loaded, seat, "p1"), (kind, seed, entry)
