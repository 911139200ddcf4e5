"""The synthetic asset library (written by ``python -m viewer.synthetic.generate``), shipped as
package data ``viewer.assets_synthetic`` (setup.py maps this folder into the package;
``viewer.resources`` finds it)."""
