"""`python -m ackclock` is the `ackclock` command."""

import sys

from ackclock.cli import main

sys.exit(main())
