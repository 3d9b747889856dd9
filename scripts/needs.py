"""Stop a ``make`` target early, naming the extra to install, when a tool it runs is missing.

    python scripts/needs.py TARGET EXTRA MODULE...

exits 0 when every MODULE imports, else prints one line and exits 1, e.g.::

    make docs needs sphinx, furo, myst_parser: pip install '.[docs]' (or '.[all]', as CI does)
"""

from __future__ import annotations

import importlib.util
import sys


def main(argv: list[str]) -> int:
    target, extra, *modules = argv
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return 0
    print(
        f"make {target} needs {', '.join(missing)}: pip install '.[{extra}]' (or '.[all]', as CI does)",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
