"""`python -m railyard ...` runs the `railyard` command."""
import sys

from railyard.cli import main

sys.exit(main())
