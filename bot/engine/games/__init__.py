"""The games, one module each: its options and its rules as the base's hooks (the shapes
older versions stored are upgraded in ``bot.engine.upgrades``, frozen as that code wrote
them). The registry (``bot.engine.registry``) lists them."""
