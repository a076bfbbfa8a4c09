"""``python -m broker``: the same command line as the ``sharebroker`` script."""

import sys

from broker.cli import main

if __name__ == "__main__":
    sys.exit(main())
