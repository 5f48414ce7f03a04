"""Crazy Die-Man is Unbreakable! (`/diemen ...`): the Discord side of the `diemen` engine.

A thin adapter: every button, menu and command makes one move in the notation
(docs/notation/diemen.md) and hands it to the table; the engine decides, words every move
(`Game.describe`) and computes what the screens show (`view()`: the flick chances in
`shots`, what can fall in `report_items`). What this module adds is the Discord shape:

- the secret banner set-up: the panel's 4-of-6 menu (tag `bn`);
- the Stand Cry (`/diemen standcry`, once per player, kept in the game's `extra`) and the crowd
  vote that answers the engine's "first player" draw;
- the turn message per step: declare flicks, Called Shots, the physical report form (one menu:
  the number rolled and everything that fell, tag `rp`, sent as ONE `result` move), the
  simulated flick's targets (tag `aim`: chances first, then **Flick!**), Accept/Dispute,
  Agree/Refuse, Reposition, customers.

Commands: challenge, standcry, move (the Stand), flick, report, oops, place, mode, play, board,
panel.
"""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import Chance, Game, RuleError
from bot.gamecog import GameCog, Panel, clip, legal_choices, mention, on_component
from bot.names import safe_name
from bot.store import GameRow
from bot.tables import STALE_TEXT, Played
from bot.ui import (ComponentCall, GameItem, MoveButton, MoveSelect, TypeMoveButton, reply,
                    view_of)
from rendering.diemen import render, render_odds

KIND = "diemen"
Style = discord.ButtonStyle

PHASE_WORDS = {"setup": "the secret banner set-up", "first": "the Stand Cry vote",
               "move": "the Move step", "flick": "the Flick step",
               "review": "a report under review", "switch": "a mode-switch proposal",
               "reposition": "the Reposition step", "customers": "the Customers step",
               "over": "the end of the game"}


def _option(game: Game, seat: int, move: str, emoji: str | None = None
            ) -> discord.SelectOption:
    said = game.describe(move, seat)
    return discord.SelectOption(label=said.label[:100], value=move,
                                description=said.effect[:100] or None, emoji=emoji)


def _kind(game: Game, seat: int, verb: str) -> list[dict[str, str]]:
    """The legal moves of one kind (`called`, `oops`, ...), as the engine's view groups them:
    [{"move", "arg"}]."""
    return (game.view(seat)["moves"] or {}).get(verb, [])


def _verb_moves(game: Game, seat: int, verb: str) -> list[str]:
    return [m["move"] for m in _kind(game, seat, verb)]


# ---- the cog ------------------------------------------------------------------------------------

class DieMenCog(GameCog, group_name="diemen",
                group_description="Crazy Die-Man is Unbreakable!: flick dice at your rival's "
                                  "banners"):
    KIND = KIND
    MOVE_EXAMPLE = "result 4 hit=F2,B1"

    # ---- hooks ------------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        view = game.view(seat)
        if seat is not None and view["phase"] == "setup":
            # A private panel changes only with its owner's own facts: the rival's progress
            # with their set-up is in the thread, not drawn here.
            view = dict(view, setup_done=[d if i == seat else None
                                          for i, d in enumerate(view["setup_done"])],
                        waiting_for=[s for s in view["waiting_for"] if s == seat])
        return await self.draw(render, view)

    def wants_vote(self, row: GameRow, game: Game, chance: Chance) -> bool:
        return bool(chance.draws) and chance.draws[0].label == "first player"

    def vote_choices(self, row: GameRow, game: Game, chance: Chance) -> list[tuple[str, str]]:
        return [(str(seat + 1), f"{game.name(seat)}'s Stand Cry"[:80]) for seat in (0, 1)]

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        lines = ["**Whose Stand Cry draws the crowd?** The best one goes first."]
        for seat in (0, 1):
            cry = row.extra.get(f"standcry_{seat + 1}")
            shown = (f"“{discord.utils.escape_mentions(cry)}”" if cry else
                     "*(no Stand Cry shouted: `/diemen standcry`)*")
            lines.append(f"> **{game.name(seat)}**: {shown}")
        return "\n".join(lines) + "\n"

    def panel(self, row: GameRow, game: Game, seat: int, version: str) -> Panel:
        view = game.view(seat)
        if view["phase"] == "setup" and seat in game.actors():
            text = (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)})\n"
                    "Put up your 4 Advertising Banners: choose 4 of your 6 banner spots. The "
                    "front area (F1–F3) is closer to your rival — easier to hit, but a banner "
                    "standing there allows a Bonus Flick. Nobody sees your choice until both "
                    "Die-Men have set up.\n"
                    "Meanwhile, shout your Stand Cry in the game thread with "
                    "`/diemen standcry text:` — the crowd votes who goes first.")
            return Panel(text, [self.banner_select(row, view, seat, version),
                                TypeMoveButton(row.id)])
        return super().panel(row, game, seat, version)

    def banner_select(self, row: GameRow, view: dict[str, Any], seat: int,
                      version: str) -> GameItem:
        options = [discord.SelectOption(label=f"{s['spot']} — {s['area']}", value=s["spot"],
                                        description=s["words"][:100])
                   for s in view["setup_spots"]]
        return GameItem.select(row.id, version, "bn", options,
                               placeholder="Choose 4 banner spots", min_values=4, max_values=4)

    @on_component("bn")
    async def on_banners(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The secret set-up: exactly 4 of the 6 banner spots, one `banners` move."""
        if len(call.values) != 4 or len(set(call.values)) != 4:
            raise RuleError("Choose exactly 4 different banner spots.")
        await self.on_move_component(interaction, call.game_id, call.version,
                                     "banners " + " ".join(call.values))

    def status_line(self, row: GameRow, game: Game) -> str:
        base = super().status_line(row, game)
        if game.outcome() is not None:
            return base
        hint = self.hint(row, game)
        return "\n".join(x for x in (base, hint) if x)

    def hint(self, row: GameRow, game: Game) -> str:
        """What to do now, in words (public: from the public view only)."""
        v = game.view(None)
        phase = v["phase"]
        if phase == "setup":
            if all(row.extra.get(f"standcry_{s + 1}") for s in (0, 1)):
                return ""
            return ("📣 While you choose, shout your Stand Cry with `/diemen standcry text:` "
                    "— the crowd's vote decides who goes first.")
        a = v["active"]
        if a is None:
            return ""
        rival = game.name(1 - a)
        f = v["flick"] or {}
        if phase == "move":
            lock = (" (your Stand stays put this turn: a Super Sale Banner stood on it)"
                    if v["turn_info"]["stand_locked"] else "")
            return f"Move your Stand if you like{lock}, then declare your flicks below."
        if phase == "flick":
            n = f"Flick {f.get('number')} of {f.get('of')}"
            if v["flick_mode"] == "simulated":
                return (f"{n} (the referee rolls): choose a target below — you see the "
                        "chances first, then press **Flick!**")
            return (f"{n} (real die): make a Called Shot first if you like, flick your real "
                    "die, then report the number and what fell in the report menu below.")
        if phase == "review":
            return f"Only {rival} may answer: **Accept** or **Dispute** (silence accepts)."
        if phase == "switch":
            return f"Only {rival} may answer: **Agree** or **Refuse** (silence refuses)."
        if phase == "reposition":
            return ("Reposition with the menu below, then press **Done** (knocked banners "
                    "must go back up first).")
        if phase == "customers":
            return "Place your attracted customers, or let them go."
        return ""

    def turn_items(self, row: GameRow, game: Game, seat: int) -> list[discord.ui.Item]:
        v = game.view(seat)
        phase = v["phase"]
        legal = game.legal(seat)

        def button(move: str, style=Style.primary, emoji: str | None = None) -> GameItem:
            return MoveButton(row.id, row.version, move, game.describe(move, seat).label,
                              style, emoji)

        def select(offers: list[str], placeholder: str, tag: str,
                   emoji: str | None = None) -> list[GameItem]:
            if not offers:
                return []
            return [MoveSelect(row.id, row.version, [_option(game, seat, m, emoji)
                                                     for m in offers[:25]],
                               placeholder, tag=tag)]
        items: list[discord.ui.Item] = []
        if phase == "move":
            items += [button(m, Style.secondary, "🏪") for m in _verb_moves(game, seat, "move")]
            items += [button(m, Style.primary, "🎲") for m in _verb_moves(game, seat, "flick")]
            items += select(_verb_moves(game, seat, "oops"),
                            "Oops: a banner of mine fell by hand", "o")
        elif phase == "flick":
            if v["flick_mode"] == "simulated":
                if v["shots"]:
                    items.append(self.aim_select(row, v))
            else:
                items += select(_verb_moves(game, seat, "called"),
                                "Called Shot before you flick (optional)", "c", "🎯")
                items.append(self.report_select(row, v))
                items += select(_verb_moves(game, seat, "oops"),
                                "Oops: a banner of mine fell by hand", "o")
            items += [button(m, Style.secondary) for m in _verb_moves(game, seat, "mode")]
        elif phase in ("review", "switch"):
            for m in legal:
                items.append(button(m, Style.success if m in ("accept", "agree")
                                    else Style.danger if m == "dispute" else Style.secondary))
        elif phase == "reposition":
            if "done" in legal:
                items.append(button("done", Style.success, "✅"))
            items += select([m for m in legal if m != "done"], "Reposition a banner…", "r")
        elif phase == "customers":
            items += [button(m, Style.success if m != "end" else Style.secondary)
                      for m in legal]
        else:
            return super().turn_items(row, game, seat)
        items.append(TypeMoveButton(row.id))
        return items

    # ---- the physical report: one menu, one move ------------------------------------------------
    def report_select(self, row: GameRow, v: dict[str, Any]) -> GameItem:
        """The number rolled (or "off the floor") and everything that fell, in one menu; the
        choice is sent as one `result` move."""
        options = [discord.SelectOption(label=f"Rolled {n}", value=f"v{n}", emoji="🎲")
                   for n in range(1, 7)]
        options.append(discord.SelectOption(
            label="Off the floor", value="off",
            description="the die left the floor: it counts for nothing"))
        for item in v["report_items"] or []:
            cost = (" (the roll counts against you)" if item["whose"] == "own"
                    or "customer" in item["words"] else "")
            options.append(discord.SelectOption(
                label=f"Fell: {item['words']}"[:100], value=f"h{item['key']}",
                description=cost[2:-1] or None))
        return GameItem.select(row.id, row.version, "rp", options[:25],
                               placeholder="Report: the number rolled + everything that fell",
                               min_values=1, max_values=len(options[:25]))

    @on_component("rp")
    async def on_report(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.find_game(interaction, call.game_id)
        seat = self.player_seat(row, interaction)
        v = game.view(seat)
        items = {f"h{i['key']}": i["token"] for i in v["report_items"] or []}
        rolled = [x for x in call.values if x[:1] == "v"]
        off = "off" in call.values
        fell = [items[x] for x in call.values if x in items]
        if len(rolled) != 1:
            raise RuleError("Pick exactly one number rolled (1–6) — plus everything that "
                            "fell, or “Off the floor”.")
        if off and fell:
            raise RuleError("A die off the floor counts for nothing (what it knocked is stood "
                            "back up): pick the number and “Off the floor” alone.")
        report = f"result {rolled[0][1:]}" + (" off" if off else "") + (
            " hit=" + ",".join(fell) if fell else "")
        await self.on_move_component(interaction, call.game_id, call.version, report)

    # ---- simulated flicks: chances first, then Flick! -----------------------------------------
    def aim_select(self, row: GameRow, v: dict[str, Any]) -> GameItem:
        options = [discord.SelectOption(label=s["label"][:100], value=s["move"],
                                        description=self._chance_line(s)[:100],
                                        emoji="🎯" if s["called"] else "🎲")
                   for s in v["shots"][:25]]
        return GameItem.select(row.id, row.version, "aim", options,
                               placeholder="Choose a target (you see the chances first)")

    @staticmethod
    def _chance_line(shot: dict[str, Any]) -> str:
        if shot["target"] == "middle":
            return "nothing of your rival's can fall"
        return f"{shot['knock_chance']}% chance to knock something of your rival's over"

    @on_component("aim")
    async def on_aim(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.find_game(interaction, call.game_id)
        seat = self.player_seat(row, interaction)
        if row.status != "active" or row.version != call.version:
            raise RuleError(STALE_TEXT)
        if seat not in game.actors():
            raise RuleError(self.not_now(row, game))
        await self.send_preview(interaction, row, game, seat, call.value)

    async def send_preview(self, interaction: discord.Interaction, row: GameRow, game: Game,
                           seat: int, move: str) -> None:
        """The chances of one simulated shot (from the view: what the table rolls), with
        **Flick!** to make it."""
        v = game.view(seat)
        shot = next((s for s in v["shots"] or [] if s["move"] == move), None)
        if shot is None:
            raise RuleError("That is not a target you can choose now; pick one from the menu.")
        f = v["flick"]
        head = ("🎯 **" if shot["called"] else "🎲 **") + shot["label"] + "**"
        lines = [f"{head} — flick {f['number']} of {f['of']}.", shot["effect"] + ".",
                 "Press **Flick!** to flick (the referee rolls)."]
        button = MoveButton(row.id, row.version, move, "Flick!", Style.success, "🎲")
        names = [game.name(s) for s in (0, 1)]
        panel = Panel("\n".join(lines), [button],
                      await self.draw(render_odds, shot["odds"], shot["target"], seat=seat,
                                      names=names))
        await reply(interaction, ephemeral=True, **panel.send_kwargs())

    # ---- shared command plumbing ----------------------------------------------------------------
    def not_now(self, row: GameRow, game: Game) -> str:
        if game.view(None)["phase"] == "first":
            return ("The crowd is still voting on the Stand Cries; the winner goes first. "
                    "Vote buttons are in the game thread.")
        return self.waiting_text(row, game, None)

    async def _mine(self, interaction: discord.Interaction) -> tuple[GameRow, Game, int]:
        row, game = await self.find_game(interaction)
        seat = self.player_seat(row, interaction)
        return row, game, seat

    async def _play(self, interaction: discord.Interaction, move: str, done: Any = None
                    ) -> Played:
        """Play `move` for the caller and confirm privately (`done`: the confirmation, or a
        function of what was played)."""
        row, game = await self.find_game(interaction)
        seat = self.player_seat(row, interaction)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        said = game.describe(move, seat) if seat in game.actors() else None
        played = await self.play_move(row.id, interaction.user.id, move)
        text = done(played) if callable(done) else done
        await interaction.followup.send(clip(text or f"✅ {said or move}"), ephemeral=True)
        return played

    # ---- commands -------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone to Crazy Die-Man")
    @app_commands.describe(opponent="Your rival Die-Man",
                           mode="physical: flick real dice and report; simulated: the referee "
                                "rolls",
                           vote_seconds="How long the Stand Cry vote lasts (default 60)")
    @app_commands.choices(mode=[
        app_commands.Choice(name="physical (real dice, reported)", value="physical"),
        app_commands.Choice(name="simulated (the referee rolls)", value="simulated")])
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        mode: str = "physical",
                        vote_seconds: app_commands.Range[int, 10, 600] = 60) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent,
                                       {"mode": mode, "vote_seconds": vote_seconds})

    @app_commands.command(name="standcry",
                          description="Shout your Stand Cry (once); the crowd votes who goes first")
    @app_commands.describe(text="What you shout at passing customers (up to 200 characters)")
    async def standcry(self, interaction: discord.Interaction,
                       text: app_commands.Range[str, 1, 200]) -> None:
        row, game, seat = await self._mine(interaction)
        text = " ".join(text.split())
        if not text:
            raise RuleError("Your Stand Cry needs some words (up to 200 characters).")
        key = f"standcry_{seat + 1}"
        async with self.bot.tables.lock(row.id):
            row = await self.bot.store.get_game(row.id)
            game = self.engine.from_json(row.state)
            phase = game.view(None)["phase"]
            if row.extra.get(key):
                raise RuleError(f"You already shouted your Stand Cry: “{row.extra[key]}”. "
                                "One each.")
            if phase not in ("setup", "first"):
                first = game.view(None)["first_player"]
                raise RuleError("The Stand Cry vote is over" + (
                    f": {game.name(first)} goes first." if first is not None else "."))
            old_topic = self.vote_topic_text(row, game)
            row.extra = await self.bot.store.update_extra(row.id, **{key: text})
        channel = await self.channel_of(row)
        if channel is not None:
            await channel.send(
                f"📣 **{game.name(seat)}'s Stand Cry**: “{discord.utils.escape_mentions(text)}”",
                allowed_mentions=discord.AllowedMentions.none())
            if phase == "first":
                await self._refresh_vote(row, game, channel, old_topic)
        if phase == "first":
            after = ("The crowd is voting right now: your cry is on the vote message in the "
                     "game thread.")
        else:
            after = ("The crowd votes as soon as both Die-Men have set up their banners.")
        await reply(interaction, f"📣 Your Stand Cry is posted in the game thread. {after}",
                    ephemeral=True)

    async def _refresh_vote(self, row: GameRow, game: Game, channel, old_topic: str) -> None:
        """A cry shouted while the vote is open goes onto the open vote message (which was
        posted showing no cry yet): its topic is replaced, the rest of the message kept."""
        msg_id = row.extra.get("vote_message")
        if not msg_id or row.extra.get("vote_posted") != row.version:
            return
        try:
            msg = await channel.fetch_message(msg_id)
            new_topic = self.vote_topic_text(row, game)
            if old_topic in (msg.content or ""):
                await msg.edit(content=msg.content.replace(old_topic, new_topic),
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            pass  # the cry was posted on its own above; the vote still counts

    @app_commands.command(name="move", description="Move your Stand to another stand spot")
    @app_commands.describe(spot="An open stand spot on your side (S1, S2, S3)")
    async def move_command(self, interaction: discord.Interaction,
                           spot: app_commands.Range[str, 1, 10]) -> None:
        await self._play(interaction, f"move {spot.strip()}")

    @move_command.autocomplete("spot")
    async def move_spot_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._verb_choices(interaction, "move", current)

    async def _verb_choices(self, interaction: discord.Interaction, verb: str,
                            current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete from the legal moves of one kind: the value is the move's argument as
        the view lists it, the name its words."""
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, _ = found
        out = []
        for m in _kind(game, seat, verb):
            if current.strip().lower() in m["arg"].lower():
                out.append(app_commands.Choice(
                    name=game.describe(m["move"], seat).label[:100], value=m["arg"][:100]))
        return out[:25]

    @app_commands.command(name="flick",
                          description="Declare your flicks (and the first flick's shot) in one go")
    @app_commands.describe(
        count="Dice this turn: 0, 1, 2, or 3 as a Bonus Flick (needs a banner of yours in F1-F3)",
        target="Simulated flick: the enemy spot to flick at (or middle)",
        called="A Called Shot: the enemy banner you will knock (double damage; a miss blames you)")
    async def flick(self, interaction: discord.Interaction,
                    count: app_commands.Range[int, 0, 3] | None = None,
                    target: app_commands.Range[str, 1, 20] | None = None,
                    called: app_commands.Range[str, 1, 20] | None = None) -> None:
        row, game, seat = await self._mine(interaction)
        if seat not in game.actors():
            raise RuleError(self.not_now(row, game))
        phase = game.view(seat)["phase"]
        called = called.strip() if called else None
        target = target.strip() if target else None
        if called and target and called.lower() != target.lower():
            raise RuleError("A Called Shot is flicked at the called banner: give `called` "
                            "alone (or the same spot as `target`).")
        shot = f"called {called}" if called else (f"aim {target}" if target else None)
        if phase in ("setup", "first", "over"):
            raise RuleError("Flicks come in your turn, after the banner set-up and the Stand "
                            f"Cry vote (now: {PHASE_WORDS.get(phase, phase)}).")
        if phase not in ("move", "flick") and count is None:
            declared = (game.view(seat)["turn_info"] or {}).get("declared")
            raise RuleError(f"You declared {declared} flick(s) this turn and all are resolved: "
                            "no more flicks. Now reposition (`/diemen place`) and press Done.")
        if phase == "move" or count is not None:
            if count is None:
                # What may be declared now, in the engine's words (the Bonus Flick among them
                # only when the rules allow it).
                choices = "; ".join(game.describe(m, seat).label
                                    for m in _verb_moves(game, seat, "flick"))
                raise RuleError("First declare how many dice you flick this turn (`count`): "
                                f"{choices}.")
            # One move: the declaration and the first flick's shot stand or fall together.
            move = f"flick {count}" + (" bonus" if count == 3 else "") + (
                f" called={called}" if called else (f" aim={target}" if target else ""))
            if shot and game.view(seat)["flick_mode"] == "simulated" and phase == "move":
                # The referee rolls at once: the chances come first, with Flick! to confirm.
                # A dry run on a copy gives the engine's refusal now rather than on Flick!.
                game.copy().apply(seat, move)
                said = game.describe(move, seat)
                lines = [f"🎲 **{said.label}**", said.effect + ".",
                         "Press **Flick!** to declare and flick (the referee rolls)."]
                button = MoveButton(row.id, row.version, move, "Flick!", Style.success, "🎲")
                await reply(interaction, clip("\n".join(lines)), ephemeral=True,
                            view=view_of(button))
                return
            if shot:
                await self._play(interaction, move)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            played = await self.play_move(row.id, interaction.user.id, move)
            after = played.game.view(seat)
            if after["shots"]:
                await self._send_targets(interaction, played.row, after)
            else:
                await interaction.followup.send(clip(f"✅ {game.describe(move, seat)}"),
                                                ephemeral=True)
            return
        v = game.view(seat)
        if shot is None and v["shots"]:
            await self._send_targets(interaction, row, v)
            return
        if shot is None:
            raise RuleError("Flick your real die, then report it with the report menu on the "
                            "turn message (or `/diemen report`).")
        if game.view(seat)["shots"]:
            await self.send_preview(interaction, row, game, seat, shot)
            return
        await self._play(interaction, shot)

    async def _send_targets(self, interaction: discord.Interaction, row: GameRow,
                            v: dict[str, Any]) -> None:
        lines = [f"🎲 Flick {v['flick']['number']} of {v['flick']['of']} (the referee "
                 "rolls). Your targets:"]
        lines += [f"• {s['label']} — {self._chance_line(s)}" for s in v["shots"]]
        lines.append("Choose one below: you see all its chances before **Flick!**")
        await reply(interaction, clip("\n".join(lines)), ephemeral=True,
                    view=view_of(self.aim_select(row, v)))

    @flick.autocomplete("target")
    async def flick_target_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._target_choices(interaction, current, called=False)

    @flick.autocomplete("called")
    async def flick_called_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._target_choices(interaction, current, called=True)

    async def _target_choices(self, interaction: discord.Interaction, current: str,
                              called: bool) -> list[app_commands.Choice[str]]:
        """Targets with their chances while a simulated flick waits (from the view), else the
        rival's standing banner spots."""
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, _ = found
        v = game.view(seat)
        key = current.strip().lower()
        if v["shots"]:
            return [app_commands.Choice(name=f"{s['label']} — {self._chance_line(s)}"[:100],
                                        value=s["spot"])
                    for s in v["shots"] if s["called"] == called
                    and key in s["spot"].lower()][:25]
        if v["active"] != seat:
            return []
        rival = v["sides"][1 - seat]
        verb = "called " if called else "aim "
        return [app_commands.Choice(name=f"{spot} — {rival['name']}'s banner · "
                                         f"{game.describe(verb + spot, seat).label}"[:100],
                                    value=spot)
                for spot, state in rival["spots"].items() if state == "up"
                and key in spot.lower()][:25]

    @app_commands.command(name="report",
                          description="Report your real flick: the roll and what fell")
    @app_commands.describe(rolled="The number the flicked die shows (1-6)",
                           hit="What fell: enemy spots bare (F2,B1), your own as P1:F1, "
                               "customers C1-C3",
                           customers="How many customers fell, besides those named in hit",
                           off="The die landed off the floor (it counts for nothing)")
    async def report(self, interaction: discord.Interaction,
                     rolled: app_commands.Range[int, 1, 6],
                     hit: app_commands.Range[str, 1, 100] | None = None,
                     customers: app_commands.Range[int, 1, 4] | None = None,
                     off: bool = False) -> None:
        move = f"result {rolled}" + (" off" if off else "")
        spots = ",".join(hit.replace(";", ",").replace(",", " ").split()) if hit else ""
        if spots and spots.lower() not in ("none", "nothing", "-"):
            move += f" hit={spots}"
        if customers:
            move += f" customers={customers}"

        def done(played: Played) -> str:
            v = played.game.view(None)
            if v["phase"] == "review":
                rival = played.game.name(1 - v["active"])
                return (f"✅ Reported. {rival} may **Accept** or **Dispute** within 60 s; "
                        "silence accepts.")
            return "✅ Reported and applied: a reflick cannot be disputed."
        await self._play(interaction, move, done)

    @report.autocomplete("hit")
    async def report_hit_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, _ = found
        items = game.view(seat)["report_items"] or []
        parts = [p.strip() for p in current.split(",")]
        done, last = [p for p in parts[:-1] if p], parts[-1].upper()
        left = list(items)
        for d in done:
            for i, it in enumerate(left):
                if it["token"].upper() == d.upper():
                    del left[i]
                    break
        prefix = ",".join(done)
        out: list[app_commands.Choice[str]] = []
        seen = set()
        for it in left:
            if it["token"] in seen or (last and last not in it["token"].upper()):
                continue
            seen.add(it["token"])
            value = f"{prefix},{it['token']}" if prefix else it["token"]
            out.append(app_commands.Choice(name=f"{value} — {it['words']}"[:100],
                                           value=value[:100]))
        if prefix and not last:
            out.insert(0, app_commands.Choice(name=f"{prefix} (that's all)"[:100],
                                              value=prefix[:100]))
        return out[:25]

    @app_commands.command(name="oops",
                          description="Your own banner(s) fell by hand, sleeve or table: +6 each")
    @app_commands.describe(banners="The spots of your banners that fell (F1 or F1,B2; your Stand's "
                                   "spot for a Super Sale Banner)")
    async def oops(self, interaction: discord.Interaction,
                   banners: app_commands.Range[str, 1, 60]) -> None:
        await self._play(interaction, "oops " + ",".join(banners.replace(",", " ").split()))

    @oops.autocomplete("banners")
    async def oops_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._verb_choices(interaction, "oops", current)

    @app_commands.command(name="place",
                          description="Reposition: move a banner, put a knocked one back, or a "
                                      "Super Sale")
    @app_commands.describe(banner="Which banner: a standing one's spot (F1), your Stand's spot for "
                                  "a Super Sale Banner, or 'knocked'",
                           to="Where to: an open banner spot, or your Stand's spot for a Super "
                              "Sale Banner")
    async def place(self, interaction: discord.Interaction,
                    banner: app_commands.Range[str, 1, 20] | None = None,
                    to: app_commands.Range[str, 1, 20] | None = None) -> None:
        row, game, seat = await self._mine(interaction)
        banner, to = (banner or "").strip(), (to or "").strip()
        if banner and to:
            await self._play(interaction, f"place {to}" if banner.lower() in ("knocked", "down")
                             else f"reposition {banner} {to}")
            return
        knocked = _verb_moves(game, seat, "place")
        if banner.lower() in ("knocked", "down"):
            offers = knocked
        elif banner:
            offers = [m["move"] for m in _kind(game, seat, "reposition")
                     if m["args"][0].lower() == banner.lower()]
        else:
            # Knocked banners go back up first (Done waits for them): offer those alone then.
            offers = knocked or [m for m in game.legal(seat) if m != "done"]
        if game.view(None)["phase"] != "reposition" or not offers:
            if banner and game.view(None)["phase"] == "reposition" and seat in game.actors():
                raise RuleError(f"{banner} cannot move now; choose from `/diemen place`.")
            if seat not in game.actors():
                raise RuleError(self.not_now(row, game))
            phase = game.view(None)["phase"]
            raise RuleError("Banners are placed in your Reposition step, after your flicks "
                            f"(now: {PHASE_WORDS.get(phase, phase)}).")
        select = MoveSelect(row.id, row.version, [_option(game, seat, m) for m in offers[:25]],
                            "Where to?", tag="r")
        await reply(interaction, "Choose where the banner goes:", ephemeral=True,
                    view=view_of(select))

    @place.autocomplete("banner")
    async def place_banner_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, _ = found
        out: dict[str, str] = {}
        if _kind(game, seat, "place"):
            out["knocked"] = "knocked — a banner of yours that was knocked down"
        for m in _kind(game, seat, "reposition"):
            src = m["args"][0]
            out.setdefault(src, f"{src} — " + game.describe(m["move"], seat).label)
        key = current.strip().lower()
        return [app_commands.Choice(name=n[:100], value=v) for v, n in out.items()
                if key in v.lower()][:25]

    @place.autocomplete("to")
    async def place_to_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, _ = found
        banner = str(getattr(interaction.namespace, "banner", "") or "").strip()
        if not banner or banner.lower() in ("knocked", "down"):
            dests = [(m["args"][0], m["move"]) for m in _kind(game, seat, "place")]
        else:
            dests = [(m["args"][1], m["move"]) for m in _kind(game, seat, "reposition")
                     if m["args"][0].lower() == banner.lower()]
        key = current.strip().lower()
        return [app_commands.Choice(name=game.describe(mv, seat).label[:100], value=d)
                for d, mv in dict(dests).items() if key in d.lower()][:25]

    @app_commands.command(name="mode", description="Propose resolving this one flick the other way")
    async def mode(self, interaction: discord.Interaction) -> None:
        row, game, seat = await self._mine(interaction)
        offers = _verb_moves(game, seat, "mode")
        if not offers and seat not in game.actors():
            raise RuleError(self.not_now(row, game))
        other = "simulated" if game.view(seat)["flick_mode"] == "physical" else "physical"
        # No switch on offer: the engine says why (not in a flick, already proposed, ...).
        await self._play(interaction, offers[0] if offers else f"mode {other}",
                         f"✅ Proposed. {game.name(1 - seat)} may **Agree** or **Refuse** "
                         "(silence refuses).")

    @app_commands.command(name="play", description="Make any move in the game's notation")
    @app_commands.describe(move="The move, e.g. as listed by autocomplete")
    async def play(self, interaction: discord.Interaction,
                   move: app_commands.Range[str, 1, 200]) -> None:
        await self._play(interaction, move)

    @play.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, legal = found
        return legal_choices(legal, current,
                             lambda m: f"{m} — {game.describe(m, seat).label}")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DieMenCog(bot))
