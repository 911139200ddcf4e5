"""GLSL sources of the render passes, shipped as package data ``viewer.shaders`` (setup.py maps
this folder into the package; ``viewer.resources`` finds it)."""
