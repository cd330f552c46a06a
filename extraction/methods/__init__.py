"""Registry of extraction methods, selectable by name.

A method is a callable ``(doc, siblings, **options) -> Selection``.  Modules are imported on
first use so that a caller who only needs E1 does not pay for scikit-learn.
"""
from __future__ import annotations

from importlib import import_module
from typing import Callable

# name -> (module, function); aliases map to the same entry.
_REGISTRY: dict[str, tuple[str, str]] = {
    "e1": ("attenuation", "extract_e1"),
    "e2": ("pso_blocks", "extract_e2"),
    "e2-trained": ("pso_blocks", "extract_e2_trained"),
    "e3": ("visual_units", "extract_e3"),
    "e4": ("incremental_clustering", "extract_e4"),
    "e5": ("feature_tree_lcs", "extract_e5"),
    "e6": ("tree_matching", "extract_e6"),
    "auto": ("auto", "extract_auto"),
}
ALIASES = {
    "attenuation": "e1", "pso": "e2", "visual": "e3", "clustering": "e4", "lcs": "e5",
    "stm": "e6",
}
METHOD_NAMES = tuple(_REGISTRY)


def canonical(name: str) -> str:
    if not isinstance(name, str):
        raise ValueError(f"the extraction method must be a name, one of "
                         f"{', '.join(METHOD_NAMES)}; got {name!r}")
    key = name.lower()
    key = ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise ValueError(f"unknown extraction method {name!r}; choose from "
                         f"{', '.join(METHOD_NAMES)} (aliases: {', '.join(ALIASES)})")
    return key


def get_method(name: str) -> Callable:
    module, func = _REGISTRY[canonical(name)]
    return getattr(import_module(f"{__name__}.{module}"), func)
