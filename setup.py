"""Builds the optional compiled parts of the extraction library: the node walk
(``extraction/_nodewalk``) and the tree-ensemble prediction (``extraction/_forest``).

Everything else is in ``pyproject.toml``.  When the extension cannot be built (no C compiler),
the install still succeeds and the library uses its pure-Python walk and numpy prediction,
which give the same results more slowly.
"""
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """``build_ext`` whose every failure is a warning: ``optional=True`` catches a compile
    error, not a missing compiler (``CC`` naming no program: FileNotFoundError, or one that
    fails to start)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - any failure leaves the pure-Python library
            self.warn(f"compiled extensions not built ({err}); the pure-Python code is used")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as err:  # noqa: BLE001
            self.warn(f"{ext.name} not built ({err}); the pure-Python code is used")

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

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
