"""Builds the optional compiled parts of the extraction library: the node walk
(``extraction/_nodewalk``) and the tree-ensemble prediction (``extraction/_forest``).

Everything else is in ``pyproject.toml``.  When the extension cannot be built (no C compiler),
the install still succeeds and the library uses its pure-Python walk and numpy prediction,
which give the same results more slowly.
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
                   include_dirs=lxml.get_include(), optional=True),
         Extension("extraction._forest", ["extraction/_forest.pyx"], optional=True)],
        language_level=3, quiet=True)

setup(ext_modules=extensions)
