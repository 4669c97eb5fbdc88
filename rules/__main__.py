"""``python3 -m rules``: the engine from the command line."""

import sys

from .cli import main

sys.exit(main())
