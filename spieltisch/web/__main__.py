"""``python -m spieltisch.web``: the server, as ``spieltisch serve`` starts it."""

from __future__ import annotations

import argparse
import os

from spieltisch.web.common.settings import RP_ID_VARIABLE, SettingsError
from spieltisch.web.routes.serve import WorkersError, serve


def main() -> None:
    """Read the arguments and serve."""
    parser = argparse.ArgumentParser(description="spieltisch's online tables")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default="", help="SQLAlchemy URL (default: SQLite under home)")
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--bot-pause", type=float, default=0.8)
    parser.add_argument("--trust-proxy", action="store_true", help="addresses from X-Forwarded-For")
    parser.add_argument("--stall-ms", type=float, default=0.0, help="log event loop stalls")
    parser.add_argument("--workers", type=int, default=1, help="server processes (PostgreSQL)")
    parser.add_argument(
        "--rp-id", default=os.environ.get(RP_ID_VARIABLE, ""),
        help=f"the host name passkeys belong to (default: ${RP_ID_VARIABLE}, else each page's)",
    )  # fmt: skip
    parser.add_argument(
        "--heavy-bots-for-all", action="store_true",
        help="hosts not signed in may seat the heaviest bot levels too",
    )  # fmt: skip
    args = parser.parse_args()
    try:
        serve(args.host, args.port, args.db, False, args.bot_workers, args.bot_pause,
              args.trust_proxy, args.stall_ms, args.workers, args.rp_id,
              args.heavy_bots_for_all)  # fmt: skip
    except (WorkersError, SettingsError) as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
