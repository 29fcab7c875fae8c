"""lit configuration: the test suite lives in test/; run it with `lit test`."""

import os
import sys

import lit.formats

from tileas_py.ptx.toolchain import nvidia_bin_dirs

config.name = "tileas-py"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ptx"]
# The suite root is this folder; tests are found under whatever path lit is given (test/).
# Inputs/ and corpus/ hold data that other tests read, not tests of their own.
config.excludes = [
    "Inputs",
    "corpus",
    "Output",
    "__pycache__",
    ".venv",
    "examples",
    "docs",
    "bench",
]

# The venv's scripts (tileas-opt, filecheck) and the real ptxas from the nvidia wheels.
path = [os.path.dirname(sys.executable), *map(str, nvidia_bin_dirs())]
# scripts/snapshot_outputs.py puts a recording filecheck first.
if "snapshot_bin" in lit_config.params:
    path.insert(0, lit_config.params["snapshot_bin"])
config.environment["PATH"] = os.pathsep.join(
    [*path, config.environment.get("PATH", "")]
)

config.substitutions.append(
    (
        "TILEAS_ROUNDTRIP",
        "tileas-opt %s --split-input-file --print-op-generic"
        " | tileas-opt --split-input-file | filecheck %s",
    )
)
config.substitutions.append(
    (
        "TILEAS_GENERIC_ROUNDTRIP",
        "tileas-opt %s --split-input-file --print-op-generic"
        " | filecheck %s --check-prefix=CHECK-GENERIC",
    )
)
