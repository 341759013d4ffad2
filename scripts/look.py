"""Make the look's references again, on purpose: after a change to how pages look.

    python scripts/look.py            # every page (tests/web/test_look.py), then git diff

Runs the screenshot tests with ``SPIELTISCH_UPDATE_LOOK=1``, which saves each photograph as
``tests/web/look/<page>-<size>-<theme>-<language>.png`` instead of comparing it. Look at the
new pictures (``git diff --stat tests/web/look`` names them) before committing them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run the look's tests in update mode; pytest's exit code."""
    environment = {**os.environ, "SPIELTISCH_UPDATE_LOOK": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "tests/web/test_look.py", *sys.argv[1:]]  # fmt: skip
    return subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
