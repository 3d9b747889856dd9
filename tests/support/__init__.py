"""Helpers shared by the test modules: position builders and small action shortcuts.

``tests/`` is on ``sys.path`` (pytest's default ``prepend`` import mode puts the rootdir of
``conftest.py`` there), so test modules import these as ``from support.<module> import …``."""
