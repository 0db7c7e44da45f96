"""`python -m tilegen.cache list|clear|dir`, also installed as the command tilegen-cache."""

import sys

from ._cache import main

if __name__ == "__main__":
    sys.exit(main())
