"""Retail-exact viewer for Asheron's Call visual effects and projectiles."""

__version__ = "0.1.0"
