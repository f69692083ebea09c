#!/bin/sh
# Starts PostgreSQL on $PGDATA, creating the cluster, the ladder's role and
# database on first start (docs/scale.md). The password is read from
# $LADDER_DB_PASSWORD (a Kubernetes Secret), never written to a log.
set -eu
: "${PGDATA:?}"
if [ "$(id -u)" = 0 ]; then
  # A fresh volume belongs to root: hand it to postgres, then run as it.
  mkdir -p "$PGDATA"
  chown -R postgres:postgres "$(dirname "$PGDATA")"
  exec runuser -u postgres -- "$0" "$@"
fi
: "${LADDER_DB_PASSWORD:?set it from the ladder-db Secret}"
LADDER_DB_NAME="${LADDER_DB_NAME:-ladder}"
LADDER_DB_USER="${LADDER_DB_USER:-ladder}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  chmod 0700 "$PGDATA"
  initdb -D "$PGDATA" --encoding=UTF8 --locale=C --auth-local=peer \
    --auth-host=scram-sha-256 >/dev/null
  {
    echo "listen_addresses = '*'"
    echo "max_connections = ${LADDER_DB_MAX_CONNECTIONS:-200}"
  } >> "$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  # Create the role and database on a private socket, before any client
  # can connect.
  socket=$(mktemp -d)
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k $socket" -w start >/dev/null
  psql -h "$socket" -d postgres -v ON_ERROR_STOP=1 -q \
    -v user="$LADDER_DB_USER" -v db="$LADDER_DB_NAME" \
    -v password="$LADDER_DB_PASSWORD" <<'SQL'
CREATE ROLE :"user" LOGIN PASSWORD :'password';
CREATE DATABASE :"db" OWNER :"user";
SQL
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  rmdir "$socket"
fi
exec postgres -D "$PGDATA"
