#!/usr/bin/env bash
# cardref_referee checks every flag before it creates anything: each bad
# value below must exit 2 with a message naming the flag and what it
# accepts, and leave no log directory and no signing key behind.
#   tests/referee_flags_test.sh CARDREF_REFEREE_BINARY
set -uo pipefail
REFEREE=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
unset CARDREF_ORGANISER_TOKEN
failures=0

# refuses EXPECTED_STDERR_SUBSTRING FLAG...
refuses() {
  local expected=$1; shift
  local dir="$TMP/case"
  rm -rf "$dir" && mkdir "$dir"
  local status=0
  timeout 20 "$REFEREE" --port=0 --log_dir="$dir/logs" "$@" \
    >"$dir/stdout" 2>"$dir/stderr" || status=$?
  local problem=""
  if [ "$status" != 2 ]; then
    problem="exit status $status, expected 2"
  elif ! grep -qF -- "$expected" "$dir/stderr"; then
    problem="stderr lacks '$expected'"
  elif [ -e "$dir/logs" ] || [ -e "$dir/referee_ed25519.key" ]; then
    problem="left $(cd "$dir" && ls -d logs referee_ed25519.key 2>/dev/null | tr '\n' ' ')behind"
  fi
  if [ -n "$problem" ]; then
    echo "FAIL $*: $problem; stderr was:"; sed 's/^/  /' "$dir/stderr"
    failures=$((failures + 1))
  else
    echo "ok   $*: $(head -n1 "$dir/stderr")"
  fi
}

refuses "--log_sync_threads must be 0..64, got 65" --log_sync_threads=65
refuses "--port must be 0..65535, got 70000" --port=70000
refuses "--metrics_port must be -1..65535, got -2" --metrics_port=-2
refuses "--max_request_bytes must be 1024..67108864, got -1" --max_request_bytes=-1
refuses "--max_action_bytes must be 1..4096, got 5000" \
  --max_request_bytes=4096 --max_action_bytes=5000
refuses "--max_connections must be 0..2147483647, got -1" --max_connections=-1
refuses "--max_connections_per_address must be 0..2147483647, got -2" --max_connections_per_address=-2
refuses "--handshake_timeout_ms must be 1..600000, got 0" --handshake_timeout_ms=0
refuses "--max_connection_idle_ms must be 0..2147483647, got -1" --max_connection_idle_ms=-1
refuses "--keepalive_ms must be 0..2147483647, got -1" --keepalive_ms=-1
refuses "--keepalive_timeout_ms must be 1..600000, got 0" --keepalive_timeout_ms=0
refuses "--max_streams_per_seat must be 0..2147483647, got -3" --max_streams_per_seat=-3
refuses "--max_streams_per_connection must be 0 (no limit) or at least 4, got 2" \
  --max_streams_per_connection=2
refuses "--max_service_streams_per_connection must be 0..2147483647, got -1" \
  --max_service_streams_per_connection=-1
refuses "--calls_per_second_per_token must be a number of at least 0, got -5" \
  --calls_per_second_per_token=-5
refuses "--burst_per_peer must be a number of at least 0, got nan" --burst_per_peer=nan
refuses "--refusal_delay_ms must be 0..60000, got 600000" --refusal_delay_ms=600000
refuses "--decision_time_limit_ms=700000 exceeds --max_decision_time_limit_ms=600000" \
  --decision_time_limit_ms=700000
refuses "--time_bank_ms=5000 exceeds --max_time_bank_ms=1000" \
  --time_bank_ms=5000 --max_time_bank_ms=1000
refuses "--join_deadline_ms=5000 exceeds --max_join_deadline_ms=1000" \
  --join_deadline_ms=5000 --max_join_deadline_ms=1000
refuses "--max_rejections must be 0..2147483647, got -1" --max_rejections=-1
refuses "--decision_time_limit_ms must be 0..604800000, got -10" --decision_time_limit_ms=-10
refuses "--disconnect_grace_ms must be 0..604800000, got -5" \
  --disconnect_is_timeout --disconnect_grace_ms=-5
refuses "--fault_action must be substitute, forfeit or abort, got 'explode'" \
  --fault_action=explode
refuses "--log_sync:" --log_sync=sometimes
refuses "--evict_after_ms must be 0..600000, got -1" --evict_after_ms=-1
refuses "--shutdown_grace_ms must be 0..604800000, got -1" --shutdown_grace_ms=-1
refuses "--min_free_disk_mb must be 0..1099511627776, got -1" --min_free_disk_mb=-1
refuses "--log_dir must not be empty" --log_dir=
refuses "refusing to listen on 0.0.0.0 without an organiser credential" --host=0.0.0.0
# Loopback is judged on the addresses a name resolves to, for every listener.
refuses "refusing to listen on 127.evil.invalid without an organiser credential" \
  --host=127.evil.invalid
refuses "refusing to listen on 0 without an organiser credential" --host=0
refuses "--metrics_host=0.0.0.0 resolves to 0.0.0.0, which is not loopback" \
  --metrics_port=0 --metrics_host=0.0.0.0
refuses "TLS needs both --tls_cert and --tls_key" --tls_cert=/nonexistent.pem
refuses "--tls_client_ca needs --tls_cert and --tls_key" --tls_client_ca=/nonexistent.pem

if [ "$failures" != 0 ]; then
  echo "$failures case(s) failed"; exit 1
fi
echo "every bad flag refused with exit 2, nothing created"
