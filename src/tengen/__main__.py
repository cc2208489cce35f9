"""`python -m tengen ...` is the same as the `tengen` command."""
import sys

from tengen.cli import main

sys.exit(main())
