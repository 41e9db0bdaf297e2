"""``python -m wyrd``: the same as the ``wyrd`` command."""

import sys

from wyrd.play.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
