"""``python -m bench [name] [options]``: see the package's docstring."""

import sys

from bench import main

raise SystemExit(main(sys.argv[1:]))
