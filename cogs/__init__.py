"""Discord cogs: one per game, plus `games` (the shared lobby). Thin adapters only."""
