"""The dice referee: a Discord bot that referees five tabletop dice games."""
