"""`python -m tengen.train.pbn build|train|card`."""
import sys

from tengen.train.pbn.training import main

sys.exit(main())
