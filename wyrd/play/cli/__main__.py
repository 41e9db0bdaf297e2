"""``python -m wyrd.play.cli``: the same as the ``wyrd`` command."""

import sys

from wyrd.play.cli.main import main

sys.exit(main())
