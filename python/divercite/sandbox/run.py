"""Any program in the sandbox: `python3 -m divercite.sandbox.run [limits] PROGRAM [ARGS...]`.

For an engine that is not a course agent (a compiled engine of a student's, a script): the
runner starts this launcher in its place,

    divercite-match -engine cmd=python3 arg=-m arg=divercite.sandbox.run arg=path/to/engine \\
        name=theirs tc=60 -engine cmd=build/bin/divercite name=ours tc=60

and the program speaks the protocol over the same stdin and stdout, in a sandbox whose
writable folder is a private copy of the program's own folder (or of --folder). When a limit
is hit, its processes are killed, the launcher says why on stdout (`info string limit: memory
limit: ...`, which the runner records as the game's termination `limit`) and on stderr, and
exits with 1; otherwise it exits with the program's status.
"""

import argparse
import json
import os
import sys

from .. import sandbox
from .inside import BOOT
from .limits import add_limit_arguments, limits_given

PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="python3 -m divercite.sandbox.run",
        description="Runs PROGRAM in a sandbox: no network, a private copy of its folder, "
                    "limits on memory, processes and cores.",
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    add_limit_arguments(parser)
    parser.add_argument("--folder", help="the folder the program gets a private copy of "
                        "(default: the program's own)")
    parser.add_argument("--readable", action="append", default=[], metavar="DIR",
                        help="a folder the program may read besides (repeatable)")
    parser.add_argument("program", metavar="PROGRAM")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, metavar="ARGS")
    return parser.parse_args(argv)


def fail(message, code=2):
    sys.stderr.write(f"divercite.sandbox.run: {message}\n")
    sys.exit(code)


def main(argv=None):
    arguments = parse_arguments(argv)
    program = os.path.abspath(arguments.program)
    if not os.path.isfile(program) or not os.access(program, os.X_OK):
        fail(f"no program {arguments.program} (a file that can be executed)")
    folder = os.path.abspath(arguments.folder or os.path.dirname(program))
    if os.path.commonpath([folder, program]) != folder:
        fail(f"--folder {folder} does not hold the program {program}")
    limits = sandbox.Limits(**limits_given(arguments))
    try:
        box = sandbox.Sandbox(limits, folder, [], PACKAGE_FOLDER, arguments.readable)
    except (sandbox.SandboxError, OSError) as error:
        fail(str(error))
    boot = [sys.executable, "-c", BOOT, PACKAGE_FOLDER, json.dumps(box.inside_config()),
            program, *arguments.arguments]
    # stdin and stdout are the program's: the protocol passes straight through.
    try:
        process = sandbox.SandboxedProcess(box, boot, os.environ)
    except (sandbox.SandboxError, OSError) as error:
        box.close()
        fail(str(error))
    try:
        status = process.wait()
    except KeyboardInterrupt:
        status = None
    process.kill()
    status = process.wait() if status is None else status
    reason = process.limit_reason()
    box.close()
    if reason is not None:
        print(f"info string limit: {reason}", flush=True)
        fail(reason, code=1)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
