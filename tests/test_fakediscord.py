"""Proves tests/fakediscord.py against a throwaway bot that exercises every seam the real bot uses."""
from __future__ import annotations

import inspect
import io
import re

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from fakediscord import (USER_INSTALL_PERMS, FakeDiscord, NetworkBlocked, RefusedPayload, UnhandledErrors,
                         UnknownRoute, fake_discord_fixture)


# ------------------------------------------------------------------------------ the throwaway bot

class RollButton(discord.ui.DynamicItem[discord.ui.Button], template=r'roll:(?P<game>[0-9]+)'):
    """Persistent: survives restarts because the game id lives in the custom_id."""

    def __init__(self, game: int):
        super().__init__(discord.ui.Button(label='Roll', custom_id=f'roll:{game}', style=discord.ButtonStyle.primary))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match['game']))

    async def callback(self, interaction: discord.Interaction):
        interaction.client.seen['roll'] = (self.game, interaction.user.id)
        await interaction.response.send_message(f'You rolled for game {self.game}', ephemeral=True)


class ModeView(discord.ui.View):
    @discord.ui.select(custom_id='mode', placeholder='Pick a mode', options=[
        discord.SelectOption(label='Fast', value='fast'), discord.SelectOption(label='Slow', value='slow')])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select):
        await interaction.response.edit_message(content=f'Mode: {select.values[0]}', view=None)


class NameModal(discord.ui.Modal, title='Name your table'):
    name = discord.ui.TextInput(label='Name', custom_id='name', max_length=20)

    async def on_submit(self, interaction: discord.Interaction):
        await interaction.response.send_message(f'Table {self.name.value} named', ephemeral=True)


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new('RGB', (8, 8), 'red').save(buf, 'PNG')
    return buf.getvalue()


class DiceBot(commands.Bot):
    def __init__(self):
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default() | discord.Intents(members=True))
        self.seen: dict = {}

    async def setup_hook(self):
        self.add_dynamic_items(RollButton)
        self.setup_ran = True


def make_bot() -> DiceBot:
    bot = DiceBot()
    game = app_commands.Group(name='game', description='Dice games')
    admin = app_commands.Group(name='admin', description='Referee tools', parent=game)

    @game.command(name='challenge', description='Challenge a player')
    @app_commands.describe(opponent='Who to play', rounds='How many rounds')
    async def challenge(interaction: discord.Interaction, opponent: discord.Member,
                        rounds: app_commands.Range[int, 1, 5] = 3):
        bot.seen['challenge'] = (interaction.user, interaction.channel, opponent, rounds,
                                 interaction.channel.permissions_for(interaction.user))
        view = discord.ui.View(timeout=None).add_item(RollButton(42))
        await interaction.response.send_message(f'{interaction.user.mention} challenges {opponent.mention} '
                                                f'to {rounds} rounds', view=view)

    @admin.command(name='reset', description='Reset a table')
    async def reset(interaction: discord.Interaction, hard: bool = False):
        await interaction.response.send_message(f'reset hard={hard}', ephemeral=True)

    @bot.tree.command(description='Show your secret hand')
    async def secret(interaction: discord.Interaction):
        bot.seen['secret'] = (interaction.user, interaction.channel)
        await interaction.response.send_message('Your hand: 6 6 1', ephemeral=True)

    @bot.tree.command(description='Whisper to a player')
    @app_commands.guild_only()
    async def whisper(interaction: discord.Interaction, target: discord.Member, text: str):
        try:
            await target.send(f'{interaction.user.display_name} whispers: {text}')
        except discord.Forbidden as e:
            bot.seen['dm_error'] = e.code
            await interaction.response.send_message(f"I can't DM {target.display_name}.", ephemeral=True)
        else:
            await interaction.response.send_message('Sent.', ephemeral=True)

    @bot.tree.command(description='Open a table in a thread')
    async def table(interaction: discord.Interaction, name: str):
        await interaction.response.send_message(f'Table **{name}** opens!')
        starter = await interaction.original_response()
        thread = await starter.create_thread(name=name)
        await thread.add_user(interaction.user)
        board = discord.File(io.BytesIO(png_bytes()), filename='board.png', description='The empty board')
        await thread.send('The board:', file=board)
        bot.seen['thread'] = thread

    @bot.tree.command(description='Private side room')
    async def sideroom(interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)
        thread = await interaction.channel.create_thread(name='side', type=discord.ChannelType.private_thread)
        await interaction.followup.send(f'Side room {thread.mention}', ephemeral=False)

    @bot.tree.command(description='Pick a mode')
    async def mode(interaction: discord.Interaction):
        await interaction.response.send_message('Choose:', view=ModeView())

    @bot.tree.command(description='Name the table')
    async def rename(interaction: discord.Interaction):
        await interaction.response.send_modal(NameModal())

    @bot.tree.command(description='Join a game')
    async def join(interaction: discord.Interaction, game: str):
        await interaction.response.send_message(f'Joined {game}', ephemeral=True)

    @join.autocomplete('game')
    async def join_complete(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=g, value=g) for g in ('yahtzee', 'farkle', 'pig') if current in g]

    @bot.tree.command(description='Announce in the channel')
    async def announce(interaction: discord.Interaction, text: str):
        await interaction.response.defer(ephemeral=True)
        await interaction.channel.send(text)
        await interaction.followup.send('Announced.', ephemeral=True)

    @bot.tree.command(description='Deliberately broken: answers twice')
    async def broken(interaction: discord.Interaction):
        await interaction.response.send_message('one')
        await interaction.response.send_message('two')

    @bot.tree.command(description='Uses an endpoint the fake does not model')
    async def roles(interaction: discord.Interaction):
        await interaction.guild.fetch_roles()

    @bot.tree.command(description='Works wherever the app is: servers, DMs, group DMs')
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def anywhere(interaction: discord.Interaction):
        bot.seen['anywhere'] = interaction
        try:   # the channel itself, over REST: only where the bot is
            await interaction.channel.send('over REST')
        except discord.Forbidden as e:
            bot.seen['rest_error'] = e.code
        await interaction.response.send_message('through the interaction')

    @bot.tree.command(description='Defers, and answers later (or never)')
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def later(interaction: discord.Interaction):
        try:
            await interaction.response.defer(thinking=True)
        except discord.NotFound as e:   # answered after Discord's 3 s
            bot.seen['late'] = e.code
            return
        bot.seen['later'] = interaction

    bot.tree.add_command(game)
    return bot


fake = fake_discord_fixture(make_bot)


@pytest.fixture
def world(fake: FakeDiscord):
    guild = fake.add_guild('Tavern')
    alice, bob, carol = (guild.add_member(fake.add_user(n)) for n in ('alice', 'bob', 'carol'))
    games = guild.add_text_channel('games')
    staff = guild.add_text_channel('staff', hidden_from=[carol])
    return guild, alice, bob, carol, games, staff


# ------------------------------------------------------------------------------ seams

def test_seams_have_not_moved():
    """If this fails, discord.py's internals moved: fix fakediscord.py before trusting any cog test."""
    assert discord.__version__.startswith('2.7.')
    http = inspect.signature(discord.http.HTTPClient.request).parameters
    assert list(http)[:2] == ['self', 'route'] and {'files', 'form', 'kwargs'} <= set(http)
    hook = inspect.signature(discord.webhook.async_.AsyncWebhookAdapter.request).parameters
    assert list(hook)[:3] == ['self', 'route', 'session']
    assert {'payload', 'multipart', 'files', 'params'} <= set(hook)
    assert inspect.iscoroutinefunction(aiohttp.ClientSession._request)
    state = discord.state.ConnectionState
    for parser in ('parse_interaction_create', 'parse_guild_create', 'parse_thread_create',
                   'parse_channel_create', 'parse_guild_member_add', 'parse_message_create'):
        assert list(inspect.signature(getattr(state, parser)).parameters) == ['self', 'data']
    route = discord.http.Route('GET', '/channels/{channel_id}', channel_id=1)
    assert route.path == '/channels/{channel_id}' and route.url == discord.http.Route.BASE + '/channels/1'
    # Interaction replies go through the adapter instance in this context var.
    assert isinstance(discord.webhook.async_.async_context.get(), discord.webhook.async_.AsyncWebhookAdapter)
    assert 'attachment_size_limit' in inspect.getsource(discord.Interaction._from_data)
    # User installs (issue #24): discord.py reads the context and the installs that authorized it.
    assert {'context', 'authorizing_integration_owners'} <= set(
        re.findall(r"data(?:\.get\(|\[)'(\w+)'", inspect.getsource(discord.Interaction._from_data)))
    assert "'CommandTree-invoker'" in inspect.getsource(app_commands.CommandTree._from_interaction)


def test_install_uninstall_restores_everything():
    originals = (discord.http.HTTPClient.request, discord.webhook.async_.AsyncWebhookAdapter.request,
                 aiohttp.ClientSession._request)
    f = FakeDiscord()
    f.install()
    assert discord.http.HTTPClient.request is not originals[0]
    f.uninstall()
    assert (discord.http.HTTPClient.request, discord.webhook.async_.AsyncWebhookAdapter.request,
            aiohttp.ClientSession._request) == originals


# ------------------------------------------------------------------------------ login, sync, gateway

async def test_login_runs_setup_hook_and_sync_works(fake: FakeDiscord, world):
    guild, alice, *_ = world
    bot = fake.bot
    assert bot.setup_ran and bot.user.id == fake.me.id and bot.application_id == fake.app_id
    assert [r.route for r in fake.requests[:2]] == ['/users/@me', '/oauth2/applications/@me']
    synced = await bot.tree.sync()
    assert {c.name for c in synced} >= {'game', 'secret', 'whisper'}
    put = fake.requests[-1]
    assert (put.method, put.route, put.args) == ('PUT', '/applications/{application_id}/commands',
                                                 {'application_id': fake.app_id})
    # Ids survive re-syncs and are used by the payload builder.
    assert {c.id for c in await bot.tree.sync()} == {c.id for c in synced}
    assert fake.slash(bot, 'secret', user=alice)['data']['id'] == str(next(c.id for c in synced if c.name == 'secret'))
    await bot.tree.sync(guild=discord.Object(guild.id))
    assert fake.requests[-1].route == '/applications/{application_id}/guilds/{guild_id}/commands'


async def test_guild_cache_and_permissions(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    dguild = fake.bot.get_guild(guild.id)
    assert dguild.me.id == fake.me.id and dguild.chunked
    dcarol = dguild.get_member(carol.id)
    assert fake.bot.get_channel(staff.id).permissions_for(dcarol).view_channel is False
    assert fake.bot.get_channel(games.id).permissions_for(dcarol).send_messages is True
    with pytest.raises(RefusedPayload, match='cannot see'):
        fake.slash(fake.bot, 'secret', user=carol, channel=staff)
    role = guild.add_role('Referee', discord.Permissions(manage_messages=True))
    dave = guild.add_member(fake.add_user('dave'), roles=[role])
    assert dguild.get_member(dave.id).get_role(role.id) is not None


# ------------------------------------------------------------------------------ slash commands

async def test_ephemeral_reply(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    new = await fake.invoke(fake.slash(fake.bot, 'secret', user=alice, channel=games))
    [reply] = new
    assert reply.route == '/interactions/{webhook_id}/{webhook_token}/callback'
    assert reply.callback_type == 4 and reply.flags & 64 and reply.ephemeral
    assert 'Your hand' in reply.content
    user, channel = fake.bot.seen['secret']
    assert isinstance(user, discord.Member) and user.id == alice.id and channel.id == games.id
    assert not any('Your hand' in m.text() for m in fake.messages_in(games))
    assert fake.messages_in(games, include_ephemeral=True)[-1].ephemeral


async def test_subcommand_with_member_and_range(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    await fake.invoke(fake.slash(fake.bot, 'game challenge', user=alice, channel=games, opponent=bob, rounds=5))
    user, channel, opponent, rounds, perms = fake.bot.seen['challenge']
    assert isinstance(opponent, discord.Member) and opponent.id == bob.id and rounds == 5
    assert isinstance(channel, discord.TextChannel) and perms.send_messages
    msg = fake.messages_in(games)[-1]
    assert msg.content == f'{alice.mention} challenges {bob.mention} to 5 rounds' and not msg.ephemeral
    [req] = await fake.invoke(fake.slash(fake.bot, 'game admin reset', user=alice, hard=True))
    assert req.content == 'reset hard=True' and req.ephemeral


async def test_payload_builder_refuses_what_the_client_never_sends(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    slash = fake.slash
    with pytest.raises(RefusedPayload, match='unknown option'):
        slash(fake.bot, 'game challenge', user=alice, opponent=bob, colour='red')
    for bad in (0, 6):
        with pytest.raises(RefusedPayload, match='outside 1..5'):
            slash(fake.bot, 'game challenge', user=alice, opponent=bob, rounds=bad)
    with pytest.raises(RefusedPayload, match='missing'):
        slash(fake.bot, 'game challenge', user=alice)
    with pytest.raises(RefusedPayload, match='wrong type'):
        slash(fake.bot, 'game challenge', user=alice, opponent=bob, rounds='3')
    with pytest.raises(RefusedPayload, match='wrong type'):
        slash(fake.bot, 'game admin reset', user=alice, hard=1)
    with pytest.raises(RefusedPayload, match='name a subcommand'):
        slash(fake.bot, 'game', user=alice)
    with pytest.raises(RefusedPayload, match='no subcommand'):
        slash(fake.bot, 'game nope', user=alice)
    with pytest.raises(RefusedPayload, match='no slash command'):
        slash(fake.bot, 'nope', user=alice)
    with pytest.raises(RefusedPayload, match='not available in DMs'):
        slash(fake.bot, 'whisper', user=alice, channel=fake.dm_channel(alice), target=bob, text='hi')


async def test_interaction_from_dm_channel(fake: FakeDiscord, world):
    guild, alice, *_ = world
    [reply] = await fake.invoke(fake.slash(fake.bot, 'secret', user=alice, channel=fake.dm_channel(alice)))
    user, channel = fake.bot.seen['secret']
    assert type(user) is discord.User and isinstance(channel, discord.DMChannel) and reply.ephemeral


async def test_autocomplete(fake: FakeDiscord, world):
    guild, alice, *_ = world
    payload = fake.autocomplete(fake.bot, 'join', user=alice, focused='game', game='ar')
    [req] = await fake.invoke(payload)
    assert req.callback_type == 8
    assert [c['value'] for c in fake.autocomplete_choices(payload)] == ['farkle']


# ------------------------------------------------------------------------------ DMs

async def test_dm_goes_to_the_right_user(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    await fake.invoke(fake.slash(fake.bot, 'whisper', user=alice, channel=games, target=bob, text='psst'))
    assert [m.content for m in fake.dms_to(bob)] == ['Alice whispers: psst']
    assert fake.dms_to(alice) == [] and fake.interaction_responses()[-1].content == 'Sent.'
    assert [r.route for r in fake.requests[-3:-1]] == ['/users/@me/channels', '/channels/{channel_id}/messages']


async def test_closed_dms_raise_forbidden_50007(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    fake.close_dms(bob)
    await fake.invoke(fake.slash(fake.bot, 'whisper', user=alice, channel=games, target=bob, text='psst'))
    assert fake.bot.seen['dm_error'] == 50007 and fake.dms_to(bob) == []
    failed = fake.requests_since(0, method='POST', route='/channels/{channel_id}/messages')[-1]
    assert failed.status == 403
    reply = fake.interaction_responses()[-1]
    assert reply.ephemeral and "can't DM" in reply.content
    with pytest.raises(discord.Forbidden) as exc:   # the very exception a real 403 produces
        await fake.bot.get_guild(guild.id).get_member(bob.id).send('hi')
    assert exc.value.status == 403 and exc.value.code == 50007


# ------------------------------------------------------------------------------ threads and files

async def test_thread_with_png_and_alt_text(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    await fake.invoke(fake.slash(fake.bot, 'table', user=alice, channel=games, name='Yahtzee'))
    thread = fake.bot.seen['thread']
    assert isinstance(thread, discord.Thread) and fake.bot.get_channel(thread.id) is thread.guild.get_thread(thread.id)
    assert thread.id == fake.messages_in(games)[-1].id      # started from the reply message
    model = fake.channels[thread.id]
    assert alice.id in model.members
    [board] = fake.messages_in(thread.id)
    [f] = board.files
    assert f.filename == 'board.png' and f.description == 'The empty board'
    assert board.payload['attachments'][0]['description'] == 'The empty board'
    assert Image.open(io.BytesIO(f.data)).size == (8, 8)
    # An interaction from inside the thread resolves to the cached Thread.
    await fake.invoke(fake.slash(fake.bot, 'secret', user=bob, channel=model))
    assert isinstance(fake.bot.seen['secret'][1], discord.Thread)


async def test_deferred_followup_fills_the_thinking_message(fake: FakeDiscord, world):
    """Discord: after defer(ephemeral=True) the first followup *edits* the placeholder and stays
    ephemeral, whatever the followup asks for."""
    guild, alice, bob, carol, games, staff = world
    payload = fake.slash(fake.bot, 'sideroom', user=alice, channel=games)
    await fake.invoke(payload)
    defer, followup = fake.interaction_responses(payload)
    assert defer.callback_type == 5 and defer.ephemeral and not followup.ephemeral
    msg = fake.last_message(games)
    assert msg.ephemeral and msg.content.startswith('Side room') and not msg.flags & 128
    [thread] = [c for c in fake.channels.values() if c.type == 12]
    with pytest.raises(RefusedPayload, match='cannot see'):   # private thread, bob not added
        fake.slash(fake.bot, 'secret', user=bob, channel=thread)


# ------------------------------------------------------------------------------ components

async def test_dynamic_button_click_reaches_callback(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    await fake.invoke(fake.slash(fake.bot, 'game challenge', user=alice, channel=games, opponent=bob))
    msg = fake.messages_in(games)[-1]
    assert msg.custom_ids == ['roll:42']
    [reply] = await fake.invoke(fake.click(msg, 'roll:42', user=bob))
    assert fake.bot.seen['roll'] == (42, bob.id) and reply.ephemeral
    with pytest.raises(RefusedPayload, match='no component'):
        fake.click(msg, 'roll:43', user=bob)
    eph = fake.messages_in(games, include_ephemeral=True)[-1]
    assert eph.audience == bob.id
    await fake.invoke(fake.click(msg, label='Roll', user=carol))
    assert fake.bot.seen['roll'] == (42, carol.id)


async def test_select_edits_the_message(fake: FakeDiscord, world):
    guild, alice, *_ = world
    await fake.invoke(fake.slash(fake.bot, 'mode', user=alice))
    msg = fake.last_message()
    with pytest.raises(RefusedPayload, match='not all options'):
        fake.select(msg, 'mode', ['turbo'], user=alice)
    with pytest.raises(RefusedPayload, match='min/max'):
        fake.select(msg, 'mode', ['fast', 'slow'], user=alice)
    [reply] = await fake.invoke(fake.select(msg, 'mode', ['slow'], user=alice))
    assert reply.callback_type == 7
    assert msg.content == 'Mode: slow' and msg.components() == [] and msg.payload['edited_timestamp']


async def test_modal_round_trip(fake: FakeDiscord, world):
    guild, alice, *_ = world
    opened = fake.slash(fake.bot, 'rename', user=alice)
    [req] = await fake.invoke(opened)
    assert req.callback_type == 9
    with pytest.raises(RefusedPayload, match='length'):
        fake.submit_modal(opened, {'name': 'x' * 21})
    [reply] = await fake.invoke(fake.submit_modal(opened, {'name': 'Lucky'}))
    assert reply.content == 'Table Lucky named' and reply.ephemeral


# ------------------------------------------------------------------------------ loud failures

async def test_answering_twice_fails_loudly(fake: FakeDiscord, world):
    guild, alice, *_ = world
    fake.feed(fake.slash(fake.bot, 'broken', user=alice))
    with pytest.raises(UnhandledErrors, match='InteractionResponded'):
        await fake.settle()


async def test_injected_failure_is_loud(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    fake.fail_next('POST', '/channels/{channel_id}/messages', status=500, channel_id=games.id)
    with pytest.raises(UnhandledErrors, match='DiscordServerError'):
        await fake.invoke(fake.slash(fake.bot, 'announce', user=alice, channel=games, text='hi'))
    assert fake.messages_in(games) == []
    await fake.invoke(fake.slash(fake.bot, 'announce', user=alice, channel=games, text='hi'))  # next one works
    assert [m.content for m in fake.messages_in(games)] == ['hi']


async def test_unknown_route_and_network_are_loud(fake: FakeDiscord, world):
    guild, alice, *_ = world
    with pytest.raises(UnhandledErrors, match='fetch_roles|unknown route'):
        await fake.invoke(fake.slash(fake.bot, 'roles', user=alice))
    async with aiohttp.ClientSession() as session:
        with pytest.raises(NetworkBlocked):
            await session.get('https://discord.com/api/v10/gateway')
    with pytest.raises(UnhandledErrors, match='network'):
        fake.check()
    with pytest.raises(UnknownRoute):
        await fake.bot.http.request(discord.http.Route('GET', '/guilds/{guild_id}/bans', guild_id=guild.id))
    fake.errors.clear()


# ------------------------------------------------------------------------------ user install (issue #24)

async def test_group_dm_interaction_comes_from_a_user_install(fake: FakeDiscord, world):
    guild, alice, bob, *_ = world
    fake.user_install(alice)
    gdm = fake.add_group_dm([alice, bob], name='dice night')
    payload = fake.slash(fake.bot, 'anywhere', user=alice, channel=gdm)
    assert payload['context'] == 2 and payload['authorizing_integration_owners'] == {'1': str(alice.id)}
    assert payload['channel']['type'] == 3 and 'guild_id' not in payload and 'member' not in payload
    await fake.invoke(payload)
    ix: discord.Interaction = fake.bot.seen['anywhere']
    assert ix.context.private_channel and not ix.context.guild and not ix.context.dm_channel
    assert ix.is_user_integration() and not ix.is_guild_integration()
    assert ix._integration_owners == {1: alice.id}     # discord.py keeps them, privately, in 2.7
    assert isinstance(ix.channel, discord.GroupChannel) and ix.channel.name == 'dice night'
    assert {u.id for u in ix.channel.recipients} == {alice.id, bob.id}
    assert ix.app_permissions == USER_INSTALL_PERMS and type(ix.user) is discord.User
    # REST to the group DM is refused: the bot is not in it. The interaction's own reply works.
    assert fake.bot.seen['rest_error'] == 50001
    refused = fake.requests_since(0, method='POST', route='/channels/{channel_id}/messages')[-1]
    assert refused.status == 403 and refused.args['channel_id'] == gdm.id
    assert [m.content for m in fake.messages_in(gdm)] == ['through the interaction']
    for call in (fake.bot.fetch_channel(gdm.id), fake.bot.http.get_message(gdm.id, 1),
                 fake.bot.http.start_thread_without_message(gdm.id, name='t', auto_archive_duration=60,
                                                            type=discord.ChannelType.public_thread)):
        with pytest.raises(discord.Forbidden) as exc:
            await call
        assert exc.value.code == 50001


async def test_no_user_install_no_command(fake: FakeDiscord, world):
    guild, alice, bob, carol, *_ = world
    gdm = fake.add_group_dm([alice, bob])
    with pytest.raises(RefusedPayload, match='has not added the app'):
        fake.slash(fake.bot, 'anywhere', user=alice, channel=gdm)
    fake.user_install(alice)
    with pytest.raises(RefusedPayload, match='not in that group DM'):
        fake.user_install(carol) or fake.slash(fake.bot, 'anywhere', user=carol, channel=gdm)
    with pytest.raises(RefusedPayload, match='context 2'):   # /secret says nothing of where it works
        fake.slash(fake.bot, 'secret', user=alice, channel=gdm)
    assert fake.bot.seen == {}


async def test_server_without_the_bot(fake: FakeDiscord, world):
    _, alice, bob, *_ = world
    elsewhere = fake.add_guild('Elsewhere', bot_member=False)
    elsewhere.add_member(alice)
    lounge = elsewhere.add_text_channel('lounge')
    with pytest.raises(RefusedPayload, match='has not added the app'):
        fake.slash(fake.bot, 'anywhere', user=alice, channel=lounge)
    fake.user_install(alice)
    with pytest.raises(RefusedPayload, match='not offered to user installs'):
        fake.slash(fake.bot, 'secret', user=alice, channel=lounge)
    payload = fake.slash(fake.bot, 'anywhere', user=alice, channel=lounge)
    assert payload['context'] == 0 and payload['authorizing_integration_owners'] == {'1': str(alice.id)}
    await fake.invoke(payload)
    ix: discord.Interaction = fake.bot.seen['anywhere']
    assert ix.context.guild and ix.guild_id == elsewhere.id and ix.is_user_integration()
    assert not ix.is_guild_integration() and fake.bot.get_guild(elsewhere.id) is None
    assert isinstance(ix.user, discord.Member) and ix.permissions.send_messages
    assert fake.bot.seen['rest_error'] == 50001
    assert [m.content for m in fake.messages_in(lounge)] == ['through the interaction']
    for call in (fake.bot.fetch_channel(lounge.id), fake.bot.http.get_member(elsewhere.id, alice.id)):
        with pytest.raises(discord.Forbidden) as exc:
            await call
        assert exc.value.code == 50001


async def test_both_installs_in_a_server_that_added_the_bot(fake: FakeDiscord, world):
    guild, alice, bob, carol, games, staff = world
    fake.user_install(alice)
    payload = fake.slash(fake.bot, 'anywhere', user=alice, channel=games)
    assert payload['authorizing_integration_owners'] == {'0': str(guild.id), '1': str(alice.id)}
    bots_dm = fake.slash(fake.bot, 'anywhere', user=bob, channel=fake.dm_channel(bob))
    assert bots_dm['context'] == 1 and bots_dm['authorizing_integration_owners'] == {'0': '0'}
    await fake.invoke(payload)
    ix = fake.bot.seen['anywhere']
    assert ix.is_guild_integration() and ix.is_user_integration() and 'rest_error' not in fake.bot.seen
    assert [m.content for m in fake.messages_in(games)] == ['over REST', 'through the interaction']


async def test_interaction_tokens_expire_on_the_fakes_clock(fake: FakeDiscord, world):
    guild, alice, bob, *_ = world
    fake.user_install(alice)
    gdm = fake.add_group_dm([alice, bob])
    await fake.invoke(fake.slash(fake.bot, 'later', user=alice, channel=gdm))
    ix: discord.Interaction = fake.bot.seen.pop('later')
    fake.advance(minutes=14, seconds=59)
    await ix.edit_original_response(content='still in time')
    await ix.followup.send('a follow-up')
    assert [m.content for m in fake.messages_in(gdm)] == ['still in time', 'a follow-up']
    assert fake.advance(seconds=2) == 15 * 60 + 1
    for call in (ix.followup.send('too late'), ix.edit_original_response(content='too late'),
                 ix.original_response()):
        with pytest.raises(discord.HTTPException) as exc:
            await call
        assert (exc.value.status, exc.value.code) == (401, 50027)
    # The first answer has 3 s: a payload answered later is an unknown interaction.
    payload = fake.slash(fake.bot, 'later', user=alice, channel=gdm)
    fake.advance(seconds=4)
    await fake.invoke(payload)
    assert fake.bot.seen == {'late': 10062}
    fresh = fake.slash(fake.bot, 'later', user=alice, channel=gdm)
    await fake.invoke(fresh)
    assert 'later' in fake.bot.seen
