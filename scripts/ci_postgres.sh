#!/bin/sh
# What CI runs (as root) before the PostgreSQL tests: install Debian's PostgreSQL if it is
# missing, start its cluster, make a password role and an empty test database, and print the
# URL to export as SPIELTISCH_TEST_POSTGRES. The database is dropped and made again on every
# run, so a run always starts from nothing. Usage:
#   export SPIELTISCH_TEST_POSTGRES="$(sh scripts/ci_postgres.sh)"
set -eu

ROLE="${SPIELTISCH_PG_ROLE:-spieltisch}"
PASSWORD="${SPIELTISCH_PG_PASSWORD:-spieltisch}"
DATABASE="${SPIELTISCH_PG_DATABASE:-spieltisch_test}"
PORT="${SPIELTISCH_PG_PORT:-5432}"

say() { echo "ci_postgres: $*" >&2; }

if ! command -v pg_lsclusters >/dev/null 2>&1; then
    say "installing postgresql"
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
fi

# The newest installed cluster (Debian makes "main" on install).
CLUSTER="$(pg_lsclusters --no-header | sort -k1,1n | tail -n 1)"
if [ -z "$CLUSTER" ]; then
    VERSION="$(ls /usr/lib/postgresql | sort -n | tail -n 1)"
    say "creating cluster $VERSION/main"
    pg_createcluster "$VERSION" main --port "$PORT" >&2
    CLUSTER="$(pg_lsclusters --no-header | sort -k1,1n | tail -n 1)"
fi
VERSION="$(echo "$CLUSTER" | awk '{print $1}')"
NAME="$(echo "$CLUSTER" | awk '{print $2}')"
PORT="$(echo "$CLUSTER" | awk '{print $3}')"

if ! echo "$CLUSTER" | grep -q online; then
    say "starting cluster $VERSION/$NAME on port $PORT"
    pg_ctlcluster "$VERSION" "$NAME" start >&2
fi

# Wait (bounded) until the server takes connections.
tries=0
until su postgres -c "pg_isready -q -h 127.0.0.1 -p $PORT"; do
    tries=$((tries + 1))
    if [ "$tries" -gt 60 ]; then
        say "PostgreSQL did not come up on port $PORT"
        exit 1
    fi
    sleep 0.5
done

psql_admin() { su postgres -c "psql -v ON_ERROR_STOP=1 -q -p $PORT -d postgres -c \"$1\"" >&2; }

if su postgres -c "psql -tA -p $PORT -d postgres -c \"SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'\"" | grep -q 1; then
    psql_admin "ALTER ROLE $ROLE WITH LOGIN PASSWORD '$PASSWORD'"
else
    psql_admin "CREATE ROLE $ROLE WITH LOGIN PASSWORD '$PASSWORD' CREATEDB"
fi
psql_admin "DROP DATABASE IF EXISTS $DATABASE WITH (FORCE)"
psql_admin "CREATE DATABASE $DATABASE OWNER $ROLE"

echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DATABASE"
