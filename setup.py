"""Builds the optional compiled node walk of the extraction library (``extraction/_nodewalk``).

Everything else is in ``pyproject.toml``.  When the extension cannot be built (no C compiler),
the install still succeeds and ``extraction.document`` uses its pure-Python walk, which gives
the same node table more slowly.
"""
from setuptools import Extension, setup

try:
    import lxml
    from Cython.Build import cythonize
except ImportError:  # building without Cython or lxml: pure Python
    extensions = []
else:
    extensions = cythonize(
        [Extension("extraction._nodewalk", ["extraction/_nodewalk.pyx"],
                   include_dirs=lxml.get_include(), optional=True)],
        language_level=3, quiet=True)

setup(ext_modules=extensions)
