#!/bin/sh
# The infrastructure image's roles: the same files as the one-machine topology
# (deploy/topology.py), their variables filled by envsubst from the container's environment.
set -eu
role=${1:?"a role: etcd, patroni, haproxy, pgbouncer or db-init"}
run=/run/spider
mkdir -p "$run"

case "$role" in
  etcd)
    export ETCD_NAME=${ETCD_NAME:-etcd1} ETCD_DATA_DIR=${ETCD_DATA_DIR:-/var/lib/etcd}
    envsubst < /deploy/etcd/etcd.yml > "$run/etcd.yml"
    exec etcd --config-file "$run/etcd.yml"
    ;;
  patroni)
    # PostgreSQL refuses root: Patroni, and the server it starts, run as postgres.
    mkdir -p "$(dirname "$PATRONI_POSTGRESQL_DATA_DIR")"
    chown -R postgres:postgres "$(dirname "$PATRONI_POSTGRESQL_DATA_DIR")"
    exec runuser -u postgres -- /opt/spider-patroni/bin/patroni /deploy/patroni/patroni.yml
    ;;
  haproxy)
    exec haproxy -db -f /deploy/haproxy/haproxy.cfg
    ;;
  pgbouncer)
    export PGBOUNCER_RUN_DIR=$run
    envsubst < /deploy/pgbouncer/pgbouncer.ini > "$run/pgbouncer.ini"
    printf '"%s" "%s"\n' "$SPIDER_DB_USER" "$SPIDER_DB_PASSWORD" > "$run/userlist.txt"
    chmod 600 "$run/userlist.txt"
    chown -R postgres:postgres "$run"
    exec runuser -u postgres -- pgbouncer "$run/pgbouncer.ini"
    ;;
  db-init)
    # The app's role and database, once, as the superuser on the primary (through HAProxy).
    export PGPASSWORD=$PATRONI_SUPERUSER_PASSWORD
    psql="psql -h $HAPROXY_ADDR -p $PG_PRIMARY_PORT -U postgres -d postgres -v ON_ERROR_STOP=1 -tAc"
    until $psql "SELECT 1" >/dev/null 2>&1; do sleep 1; done
    $psql "SELECT 1 FROM pg_roles WHERE rolname = '$SPIDER_DB_USER'" | grep -q 1 \
      || $psql "CREATE ROLE $SPIDER_DB_USER LOGIN PASSWORD '$SPIDER_DB_PASSWORD'"
    $psql "SELECT 1 FROM pg_database WHERE datname = '$SPIDER_DB'" | grep -q 1 \
      || $psql "CREATE DATABASE $SPIDER_DB OWNER $SPIDER_DB_USER"
    ;;
  *)
    echo "unknown role: $role" >&2
    exit 2
    ;;
esac
