"""discord.py cogs: slash commands and components in, calls to the host out."""
