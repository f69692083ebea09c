# Sourced by the spy-bot tests (bot_user_test.sh, bot_uids_test.sh).

# Exits 77 (skipped, with a message) unless this runs as root on a machine
# with a user 'nobody'.
require_root_and_nobody() {
  if [ "$(id -u)" != 0 ]; then
    echo "SKIPPED: switching bots to other users needs root"; exit 77
  fi
  if ! id nobody >/dev/null 2>&1; then
    echo "SKIPPED: this machine has no user 'nobody'"; exit 77
  fi
}

# Starts a referee with an organiser token in $TMP: its pid in $REFEREE,
# its port in $TMP/port; exits the test if it does not come up. Needs $BIN.
start_referee() {
  ( umask 077; echo "spy-test-organiser-token-0123456789abcdef" >"$TMP/token" )
  "$BIN/cardref_referee" --port=0 --port_file="$TMP/port" \
    --organiser_token_file="$TMP/token" --log_dir="$TMP/logs" \
    >"$TMP/referee.out" 2>&1 &
  REFEREE=$!
  for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
  [ -s "$TMP/port" ] || { cat "$TMP/referee.out"; exit 1; }
}
