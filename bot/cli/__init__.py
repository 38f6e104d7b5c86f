"""The operator's commands beside ``python -m bot`` (:mod:`bot.__main__`): each module's
``main(argv)`` is one subcommand, imported only when it runs."""

from bot.db import Unusable
from bot.errors import ConfigError

# What a command answers with its one sentence and exit status 2: a wrong setting, or a
# database this code will not use (damaged, newer, another process's file).
REFUSED: tuple[type[Exception], ...] = (ConfigError, Unusable)
