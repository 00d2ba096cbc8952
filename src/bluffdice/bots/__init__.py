"""Players that are programs: each receives only its view and returns an action."""

from bluffdice.bots.base import Bot, available_bots, load_bot, register_bot

__all__ = ["Bot", "available_bots", "load_bot", "register_bot"]
