"""``python -m tabletop_core.cli``."""

from tabletop_core.cli import main

raise SystemExit(main())
