"""The loopback fake Discord, as the tests import it: ``from tests.fake_discord import ...``.

The implementation lives in ``tools.loopback`` (see its docstring for the whole API) so the
bench can use it from an installed Railyard without pytest. The submodules are aliased too,
so ``tests.fake_discord.models`` / ``.limits`` / ``.server`` are the very same module objects
(one set of classes, one module state) rather than copies.
"""
import sys

from tools.loopback import *  # noqa: F401,F403
from tools.loopback import __all__, limits, models, server  # noqa: F401

for _name, _module in (("limits", limits), ("models", models), ("server", server)):
    sys.modules[f"{__name__}.{_name}"] = _module
