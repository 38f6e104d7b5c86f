"""The games, one module each: its options, its rules as the base's hooks, its snapshot
upgrades. The registry (``bot.engine.registry``) lists them."""
