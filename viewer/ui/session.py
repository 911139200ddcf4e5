"""The runtime adapter the panels talk to (filled in as viewer/sim lands)."""

from __future__ import annotations


def open_session(dat=None, scenario=None):
    """A session for ``dat`` / ``scenario``, or None when there is nothing to play."""
    return None
