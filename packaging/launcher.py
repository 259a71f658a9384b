"""The bundle's entry point: the same ``dealer-assist`` command an installed copy has."""

import sys

from dealer_assist.cli import main

if __name__ == "__main__":
    sys.exit(main())
