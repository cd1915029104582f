"""Build the optional compiled part of mtlearn (everything else is in pyproject.toml).

``mtlearn/_meteor_fast.pyx`` is the compiled twin of METEOR's alignment fast path
(see ``mtlearn.meteor_alignment.align_pairs_many``). It is built with Cython when a
C compiler is present; if building fails, installation goes on without it and
mtlearn computes the same alignments in pure Python, more slowly.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing: the compiled part is only an accelerator."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, no Python headers, ...
            self.warn(f"mtlearn: the compiled alignment was not built ({error}); "
                      "METEOR runs in pure Python")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self.warn(f"mtlearn: {ext.name} was not built ({error}); METEOR runs in pure Python")


def extensions() -> list:
    try:
        from Cython.Build import cythonize
    except ImportError:  # Cython is a build requirement; without it, no compiled part
        return []
    return cythonize(
        [Extension("mtlearn._meteor_fast", ["mtlearn/_meteor_fast.pyx"])],
        compiler_directives={"language_level": 3},
        quiet=True,
    )


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
