"""``python -m vncards`` is the ``vncards`` command."""

from .cli import main

raise SystemExit(main())
