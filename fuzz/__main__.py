"""``python -m fuzz TARGET [libFuzzer options] [CORPUS_DIR ...]``: one target under atheris.

TARGET is ``codec``, ``serial`` or ``firmware`` (see ``fuzz/__init__.py``); everything after it
goes to libFuzzer unchanged (``-max_total_time=60``, ``-merge=1``, corpus folders, ...). The code
under test is instrumented for coverage as it is imported, so that atheris learns which inputs
reach new branches of the decoder, the serial backend and the bridge.
"""

from __future__ import annotations

import logging
import os
import shlex
import sys

import atheris


def main(argv: list[str]) -> None:
    """Instrument the code under test, pick the target named in ``argv[1]`` and fuzz it."""
    names = ("codec", "serial", "firmware")
    if len(argv) >= 2 and argv[1] in names:
        # libFuzzer re-runs this program without the target name (-merge=1 spawns a child with
        # its own options only), so the name travels in the environment too.
        os.environ["FUZZ_TARGET"] = argv[1]
        argv = [argv[0], *argv[2:]]
    target_name = os.environ.get("FUZZ_TARGET", "")
    if target_name not in names:
        sys.exit(f"usage: python -m fuzz {{{'|'.join(names)}}} [libFuzzer options] [dirs]")
    # The backend logs every line error at WARNING: millions of lines would drown the output.
    logging.disable(logging.CRITICAL)
    with atheris.instrument_imports(include=["firmware_bridge", "scorekeeper.readers", "fuzz"]):
        # imported here, inside the instrumentation, rather than lazily in the target
        import scorekeeper.readers.fake_mfrc522  # noqa: F401
        import scorekeeper.readers.presence  # noqa: F401
        import scorekeeper.readers.serial  # noqa: F401
        from fuzz import targets
    target = targets.TARGETS[target_name]

    def one_input(data: bytes) -> None:
        target(data[: targets.MAX_LEN])

    # libFuzzer runs its child processes (-merge=1) through the shell with argv[0] as the
    # command: this module is not an executable, so name the interpreter and the module.
    program = f"{shlex.quote(sys.executable)} -m fuzz"
    atheris.Setup([program, *argv[1:]], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
