"""The optional parts of reelsmith, and the extra that installs each.

The core install (``pip install reelsmith``) serves the games and runs the terminal game, the
rules, the evaluator and the math lab's exact analysis, simulation and tuning. Two options need
more: the PAR sheet's plots are drawn with matplotlib (``reelsmith[lab]``) and simulation on a
cluster runs on Ray (``reelsmith[cluster]``). A command that needs one calls :func:`require`
before it does any work, so a missing extra ends in one line naming the extra to install, not
in a traceback halfway through (or after minutes of analysis).
"""

from __future__ import annotations

import importlib

#: The module each extra brings, by extra (``[project.optional-dependencies]`` in
#: pyproject.toml lists the same; a test keeps the two in step).
EXTRA_MODULES = {"lab": "matplotlib", "cluster": "ray"}


class MissingExtraError(RuntimeError):
    """An optional module a command needs is not installed; the message names the extra."""


def require(extra: str, purpose: str) -> None:
    """Import the module of ``extra`` or raise :class:`MissingExtraError`.

    ``purpose`` says what needs it, e.g. "--report draws the PAR sheet's plots", and begins the
    message: "--report draws the PAR sheet's plots with matplotlib, which is not installed:
    pip install 'reelsmith[lab]'".
    """
    module = EXTRA_MODULES[extra]
    install = f"pip install 'reelsmith[{extra}]'"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:  # the module is there, something it imports is not
            raise MissingExtraError(
                f"{purpose} with {module}, which cannot be imported ({exc}): {install}"
            ) from None
        raise MissingExtraError(
            f"{purpose} with {module}, which is not installed: {install}"
        ) from None
    except ImportError as exc:
        raise MissingExtraError(
            f"{purpose} with {module}, which cannot be imported ({exc}): {install}"
        ) from None
