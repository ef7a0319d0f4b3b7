"""``python -m skstruct.cli``: the ``skstruct`` command without the console script."""

import sys

from . import main

sys.exit(main())
