"""reelsmith: slot titles to the letter of their rules, with the mathematics that proves them."""

from reelsmith.compiled import configure_cache as _configure_cache

__version__ = "0.1.0"

# Before any module of the package imports numba: its compiled code is cached in a folder this
# user can write (a wheel's site-packages may be read-only); see reelsmith.compiled.
_configure_cache()
