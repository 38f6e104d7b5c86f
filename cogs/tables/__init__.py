"""Tables on Discord, as thin cogs: each validates, calls a service, and renders.

- ``lobby``: ``/table open|join|leave|start|top-up|vote-stop|close|kick|status|list|
  invite|uninvite|history`` (the lobby's pages: ``listing``; private tables: ``private``;
  the history: ``past``);
- ``moves``: the move commands, ``/hand``, and the clicks on a table message's buttons;
- ``bets``: ``/bet`` and the "Other amount..." modal;
- ``play``: what they share, the path of one move (not a cog).

The services they call are the bot's typed attributes: ``bot.tables`` (TableService),
``bot.publisher`` (the table messages, DMs, announcements), ``bot.scheduler`` (timers).
"""
