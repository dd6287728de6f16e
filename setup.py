"""`pip install .` (pyproject.toml): setuptools drives CMake, as pybind11's cmake_example does.

CMake configures the project for the Python that runs pip (-DDIVERCITE_PYTHON=sys.executable:
the compiled rules, divercite._core, are built for it) without the tests, and builds only the
extension and the four executables, as a unity build (CMAKE_UNITY_BUILD: each target's files
compiled in batches, each batch as one file, which spares the compiler reading the same headers
again for every file; Clang's tree in scripts/check-levels.sh compiles each file alone, which
checks their includes). The wheel then holds:

- the package `divercite` (python/divercite/, subpackages included) with its `_core`;
- the executables divercite, divercite-perft, divercite-match and divercite-analyze as the
  wheel's scripts, which pip installs into the environment's scripts folder (a venv's bin/)
  and lists in the installed files, so that `pip uninstall divercite` removes them. They are
  the compiled programs themselves, not Python launchers: a match runner starts the engine
  hundreds of times, and a launcher would add a Python start to each (ruff and uv ship their
  binaries the same way). divercite.engine.Engine.popen() finds the engine from the
  package's own place (python/divercite/engine.py, _installed_engine).

Knobs, as scikit-build's and pybind11's example honour them: CMAKE_ARGS (extra configure
arguments, split as a shell would: `CMAKE_ARGS="-DDIVERCITE_ARCH=x86-64-v2"`),
CMAKE_BUILD_PARALLEL_LEVEL (jobs; all processors by default), CMAKE_GENERATOR (Ninja when
`ninja` is on PATH, else CMake's default). The CMake tree is kept under build-pip/, so a
second `pip install .` from the same folder rebuilds only what changed.
"""

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import ExecError, SetupError

ROOT = Path(__file__).resolve().parent
EXECUTABLES = ("divercite", "divercite-perft", "divercite-match", "divercite-analyze")
CMAKE_TARGETS = ("divercite_python_core",) + EXECUTABLES


def project_version() -> str:
    """The version of CMakeLists.txt's project(): the one source of the version."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*divercite\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        raise SetupError("no `project(divercite VERSION x.y.z ...)` in CMakeLists.txt")
    return match.group(1)


def find_cmake() -> str:
    cmake = shutil.which("cmake")
    if cmake is None:
        raise ExecError(
            "divercite is built with CMake (3.22 or later), which is not on PATH: install it "
            "(Debian and Ubuntu: `sudo apt install cmake`; elsewhere your system's package or "
            "`pip install cmake`), with a C++20 compiler and the C++ libraries docs/python.md "
            "lists under \"Python: pip install\"")
    return cmake


class CMakeBuild(build_ext):
    """Configures and builds the CMake project (the extension and the executables) in one tree,
    and copies the extension where setuptools expects it."""

    def run(self) -> None:
        cmake = find_cmake()
        # One tree per Python: two venvs built from one folder do not share a CMake cache.
        digest = hashlib.sha1(sys.executable.encode()).hexdigest()[:8]
        tag = f"{sys.implementation.cache_tag}-{digest}"
        self.cmake_dir = Path(self.build_temp).resolve() / f"cmake-{tag}"
        self.cmake_dir.mkdir(parents=True, exist_ok=True)

        configure = [cmake, "-S", str(ROOT), "-B", str(self.cmake_dir),
                     "-DCMAKE_BUILD_TYPE=Release", "-DDIVERCITE_TESTS=OFF",
                     "-DDIVERCITE_PYTHON_PACKAGE=ON", f"-DDIVERCITE_PYTHON={sys.executable}",
                     "-DCMAKE_UNITY_BUILD=ON"]
        if (not (self.cmake_dir / "CMakeCache.txt").exists()
                and "CMAKE_GENERATOR" not in os.environ and shutil.which("ninja")):
            configure += ["-G", "Ninja"]
        try:  # pybind11 from PyPI (build isolation) knows its CMake files; else the system's
            import pybind11
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))

        build = [cmake, "--build", str(self.cmake_dir), "--config", "Release", "--target",
                 *CMAKE_TARGETS]
        if "CMAKE_BUILD_PARALLEL_LEVEL" not in os.environ:
            build += ["--parallel", str(self.parallel or os.cpu_count() or 1)]

        for command, step in ((configure, "configure"), (build, "build")):
            print(" ".join(shlex.quote(word) for word in command), flush=True)
            if subprocess.run(command).returncode != 0:
                raise ExecError(
                    f"CMake's {step} step failed (its output is above). pip installs no C++ "
                    f"library: docs/python.md, \"Python: pip install\", lists what the system "
                    f"needs (Debian and Ubuntu: sudo apt install cmake ninja-build g++ "
                    f"python3-dev libabsl-dev libmimalloc-dev nlohmann-json3-dev libeigen3-dev)")

        for extension in self.extensions:
            name = os.path.basename(self.get_ext_filename(extension.name))
            built = self.cmake_dir / "python" / "divercite" / name
            if not built.exists():
                raise ExecError(f"CMake built no {built} (the extension for "
                                f"{sys.executable})")
            target = Path(self.get_ext_fullpath(extension.name))
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(built, target)
        # The arena's game page replays with the app's modules, bundled (web/pages/
        # arena_replay.js, which CMake copies into the package it builds): the one file, not a
        # second copy in the source tree.
        replay = Path("divercite", "arena", "pages", "static", "arena", "replay.js")
        (Path(self.build_lib) / replay).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.cmake_dir / "python" / replay, Path(self.build_lib) / replay)


_build_scripts = Distribution().get_command_class("build_scripts")


class CopyExecutables(_build_scripts):
    """The scripts are the executables CMake built (build_ext): copied into the build's
    scripts folder, from which the wheel takes them; nothing in the source tree to copy."""

    def get_source_files(self) -> list:
        return []  # built, not shipped in a source archive

    def run(self) -> None:
        self.run_command("build_ext")
        cmake_dir = self.get_finalized_command("build_ext").cmake_dir
        os.makedirs(self.build_dir, exist_ok=True)
        for name in EXECUTABLES:
            shutil.copy2(cmake_dir / "bin" / name, os.path.join(self.build_dir, name))


setup(
    version=project_version(),
    ext_modules=[Extension("divercite._core", sources=[])],
    # Names only: CopyExecutables supplies the files. Declared so that the wheel has scripts.
    scripts=list(EXECUTABLES),
    cmdclass={"build_ext": CMakeBuild, "build_scripts": CopyExecutables},
    # setuptools' own build folder beside the project's CMake trees (build/ is scripts/build.sh's).
    options={"build": {"build_base": "build-pip"}},
)
