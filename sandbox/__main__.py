"""``python -m sandbox``: see the package's docstring."""

import sys

from sandbox import main

raise SystemExit(main(sys.argv[1:]))
