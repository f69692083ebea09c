#include "tools/referee_flags.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "referee/base/status_macros.h"
#include "referee/record/game_log.h"
#include "referee/service/limits.h"
#include "web/referee_front.h"
#include "web/web_front.h"

ABSL_FLAG(std::string, host, "localhost",
          "Address to listen on (0.0.0.0 for every interface)");
ABSL_FLAG(int, port, 50051, "Port to listen on; 0 picks a free port");
ABSL_FLAG(std::string, port_file, "",
          "If set, the chosen port is written to this file once serving");
ABSL_FLAG(std::string, log_dir, "logs",
          "Directory for game logs (created if missing)");
ABSL_FLAG(int64_t, decision_time_limit_ms, 10000,
          "Default per-decision time limit in ms for matches that give none; "
          "0 = no limit");
ABSL_FLAG(int64_t, max_decision_time_limit_ms, 600000,
          "Largest time limit a match may ask for; 0 = no maximum");
ABSL_FLAG(int64_t, time_bank_ms, 0,
          "Default time bank per seat in ms for matches that give none "
          "(docs/fault_policy.md); 0 = none");
ABSL_FLAG(int64_t, max_time_bank_ms, 600000,
          "Largest time bank a match may ask for; 0 = no maximum");
ABSL_FLAG(int32_t, max_rejections, 100,
          "Default fault policy: rejected submissions per decision that "
          "settle it as a fault; 0 = no limit");
ABSL_FLAG(int32_t, max_consecutive_timeouts, 3,
          "Default fault policy: timeouts in a row after which a seat is "
          "absent or forfeits (or the match aborts); 0 = no limit");
ABSL_FLAG(int64_t, join_deadline_ms, 0,
          "Default fault policy: ms from creation by which every seat must "
          "have joined; 0 = none");
ABSL_FLAG(int64_t, max_join_deadline_ms, 0,
          "Largest join deadline a match may ask for; 0 = no maximum");
ABSL_FLAG(std::string, fault_action, "substitute",
          "Default fault policy action at a limit: substitute, forfeit or "
          "abort");
ABSL_FLAG(bool, serve_test_games, false,
          "Also serve the test-only games (games/testing/): "
          "for the test suites, never for a real competition");
ABSL_FLAG(bool, disconnect_is_timeout, false,
          "Default fault policy: a seat whose last observation stream closed "
          "times out (after --disconnect_grace_ms)");
ABSL_FLAG(int64_t, disconnect_grace_ms, 2000,
          "With --disconnect_is_timeout: ms a seat may be without an "
          "observation stream before its pending decision times out, so that "
          "a bot can reopen one a network broke; 0 = at once");
ABSL_FLAG(std::vector<std::string>, bot_addresses, {"127.0.0.2"},
          "Callers from these IP addresses are bots, never the organiser, "
          "with or without a credential: a sandboxed bot's forwarder "
          "connects from 127.0.0.2 (cardref_tournament, docs/auth.md); "
          "empty: none");
ABSL_FLAG(std::string, organiser_token_file, "",
          "File holding the organiser's bearer token (mode 600); else "
          "$CARDREF_ORGANISER_TOKEN; with neither, only loopback is served "
          "and every local caller but a bot address's (--bot_addresses) is "
          "the organiser (docs/auth.md)");
ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate chain: serve TLS (needs --tls_key)");
ABSL_FLAG(std::string, tls_key, "", "PEM private key for --tls_cert");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA certificates: require a client certificate signed by one");
ABSL_FLAG(std::string, log_sync, "round",
          "When logs are fdatasynced: event (every record), round (every "
          "round result and the end) or end (docs/recovery.md)");
ABSL_FLAG(int32_t, log_sync_threads, 4,
          "Threads that wait for a round's fdatasync at --log_sync=round, so "
          "that gRPC's threads go on serving other matches; 0: gRPC's "
          "thread waits (docs/recovery.md). At most 64");
ABSL_FLAG(int64_t, evict_after_ms, 5000,
          "How long an ended match stays in memory; then GetMatch reads it "
          "from its log (docs/recovery.md). At most 600000");
ABSL_FLAG(std::string, signing_key_file, "",
          "Ed25519 private key (PEM PKCS#8, mode 0600) that signs every log; "
          "generated there when missing. Default: referee_ed25519.key in the "
          "parent directory of --log_dir");

// Resource limits (docs/limits.md); defaults from referee/service/limits.h.
ABSL_FLAG(int32_t, max_request_bytes, cardref::service::Limits().max_request_bytes,
          "Largest request gRPC accepts, in bytes (RESOURCE_EXHAUSTED past "
          "it); 1024..67108864");
ABSL_FLAG(int32_t, max_action_bytes,
          static_cast<int32_t>(cardref::service::Limits().max_action_bytes),
          "Largest submitted action, encoded, in bytes (INVALID_ARGUMENT past "
          "it; logged without the action); at most --max_request_bytes");
ABSL_FLAG(int32_t, max_streams_per_seat,
          cardref::service::Limits().max_streams_per_seat,
          "Open WatchObservations streams per seat; 0 = no cap");
ABSL_FLAG(int32_t, organiser_event_streams,
          cardref::service::Limits().organiser_event_streams,
          "Of --max_event_streams, those kept for the organiser's "
          "WatchMatchFull (spectators share the rest)");
ABSL_FLAG(int32_t, max_event_streams_per_client,
          cardref::service::Limits().max_event_streams_per_client,
          "WatchMatch streams one client (an address; on this machine, a "
          "user at it) may hold at once; 0 = no such cap");
ABSL_FLAG(int32_t, max_event_streams, cardref::service::Limits().max_event_streams,
          "Open WatchMatch/WatchMatchFull streams in all; 0 = no cap");
ABSL_FLAG(int32_t, max_streams_per_connection,
          cardref::service::Limits().max_streams_per_connection,
          "Calls (streams) open at once on one connection, any method "
          "(HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS): a gRPC client waits past "
          "it, one that ignores it loses its connection; 0 = no limit, else "
          "at least 4");
ABSL_FLAG(int32_t, max_service_streams_per_connection,
          cardref::service::Limits().max_service_streams_per_connection,
          "Open Health/Watch and ServerReflectionInfo streams per connection; "
          "0 = no cap");
ABSL_FLAG(int32_t, max_invitation_streams_per_credential,
          cardref::service::Limits().max_invitation_streams_per_credential,
          "WatchInvitations streams one bot credential may hold open at once "
          "(a pool of bot processes takes one each); at least 1");
ABSL_FLAG(int32_t, max_invitations_per_credential,
          cardref::service::Limits().max_invitations_per_credential,
          "Seats sent by invitation to one bot credential whose matches are "
          "not over; a stream asking for more at once is granted this many; "
          "at least 1");
ABSL_FLAG(int64_t, max_latency_allowance_ms, 10000,
          "Largest latency allowance a bot credential may add to its "
          "entrant's decision limit (docs/bots.md, \"Invitations\"); 0 = no "
          "maximum");
ABSL_FLAG(double, calls_per_second_per_token,
          cardref::service::Limits().calls_per_second_per_token,
          "Calls per second per seat token or bearer token; 0 = no limit");
ABSL_FLAG(double, burst_per_token, cardref::service::Limits().burst_per_token,
          "Calls at once per token before --calls_per_second_per_token applies");
ABSL_FLAG(double, calls_per_second_per_peer,
          cardref::service::Limits().calls_per_second_per_peer,
          "Calls per second per client address; 0 = no limit");
ABSL_FLAG(double, burst_per_peer, cardref::service::Limits().burst_per_peer,
          "Calls at once per client address before the rate applies");
ABSL_FLAG(int32_t, max_waiting_matches,
          cardref::service::Limits().max_waiting_matches,
          "Matches waiting for players at once; CreateMatch past it gets "
          "RESOURCE_EXHAUSTED; 0 = no limit");
ABSL_FLAG(int32_t, max_matches_in_progress,
          cardref::service::Limits().max_matches_in_progress,
          "Matches in progress at once, never more: CreateMatch counts "
          "waiting matches too (each may start) and past it gets "
          "RESOURCE_EXHAUSTED; 0 = no limit");
ABSL_FLAG(int32_t, max_rejections_logged,
          cardref::service::Limits().max_rejections_logged_per_decision,
          "Rejected submissions logged in full per seat and decision; the "
          "rest are counted in one RejectionsNotLogged record");
ABSL_FLAG(double, refusals_per_second,
          cardref::service::Limits().refusals_per_second,
          "Refused calls per second per caller answered at once (the "
          "tarpit's free quota); 0 = no tarpit");
ABSL_FLAG(double, refusal_burst, cardref::service::Limits().refusal_burst,
          "Refused calls at once per caller before --refusals_per_second "
          "applies");
ABSL_FLAG(int32_t, refusal_delay_ms,
          cardref::service::Limits().refusal_delay_ms,
          "How long a refusal past the free quota waits before it is "
          "answered; 0 = no tarpit; at most 60000");
ABSL_FLAG(int32_t, max_delayed_refusals,
          cardref::service::Limits().max_delayed_refusals,
          "Refusals held back at once; past it they are answered at once");
ABSL_FLAG(int32_t, max_connections, cardref::service::Limits().max_connections,
          "Connections held at once, plaintext or TLS (at most half the fd "
          "limit); past it new ones are closed at once; 0 = no cap (gRPC's "
          "listener)");
ABSL_FLAG(int32_t, max_connections_per_address,
          cardref::service::Limits().max_connections_per_address,
          "Connections held at once from one client (an address; on this "
          "machine, a user at it); past it the client's new ones are closed "
          "at once; 0 = no such cap (docs/limits.md)");
ABSL_FLAG(int32_t, handshake_timeout_ms,
          cardref::service::Limits().handshake_timeout_ms,
          "A connection that has not finished its TLS and HTTP/2 handshake "
          "this long after it was accepted is closed; 1 to 600000");
ABSL_FLAG(int32_t, max_connection_idle_ms,
          cardref::service::Limits().max_connection_idle_ms,
          "A connection with no byte either way this long is shut down "
          "(clients reconnect at their next call; a call in progress is "
          "kept alive by pings); 0 = never");
ABSL_FLAG(int32_t, keepalive_ms, cardref::service::Limits().keepalive_ms,
          "A connection with a call in progress is pinged this often, and "
          "closed if a ping is not answered within --keepalive_timeout_ms "
          "(a dead bot machine is seen gone); 0 = gRPC's default (2 hours)");
ABSL_FLAG(int32_t, keepalive_timeout_ms,
          cardref::service::Limits().keepalive_timeout_ms,
          "How long a keepalive ping may go unanswered; 1 to 600000");
ABSL_FLAG(int64_t, min_free_disk_mb, 64,
          "CreateMatch is refused (UNAVAILABLE) while the log directory has "
          "less free space than this, in MiB, kept for matches in progress; "
          "0 = no reserve");
ABSL_FLAG(int64_t, shutdown_grace_ms, 10000,
          "On SIGTERM/SIGINT, how long matches in progress may go on to "
          "finish before they are logged as aborted; at most a week");
ABSL_FLAG(int, metrics_port, -1,
          "Serve Prometheus metrics at http://<metrics_host>:<port>/metrics; "
          "0 picks a free port; -1 = no metrics");
ABSL_FLAG(std::string, metrics_host, "127.0.0.1",
          "Address the metrics endpoint listens on");
ABSL_FLAG(std::string, metrics_port_file, "",
          "If set, the metrics port is written to this file once serving");
ABSL_FLAG(int, http_port, -1,
          "Serve the web front (match pages, JSON API, live event streams: "
          "docs/web.md) at http://<http_host>:<port>/, HTTPS with --tls_cert; "
          "0 picks a free port; -1 = no web front");
ABSL_FLAG(std::string, http_host, "127.0.0.1",
          "Address the web front listens on");
ABSL_FLAG(std::string, http_port_file, "",
          "If set, the web front's port is written to this file once serving");
ABSL_FLAG(int32_t, http_max_streams,
          cardref::web::WebOptions().max_streams,
          "Live event streams the web front holds open at once; past it a "
          "new one is refused (503); 0 = no cap");
ABSL_FLAG(int32_t, http_max_streams_per_client,
          cardref::web::WebOptions().max_streams_per_client,
          "Live event streams open at once from one client address; past it "
          "a new one is refused (429); 0 = no cap");
ABSL_FLAG(uint32_t, http_delay_decisions, 0,
          "The web front shows a match's events once this many further "
          "decisions were made (or the match is over), so that live play "
          "cannot be relayed to a seat; a viewer may ask for more, never "
          "less; at most 100000");


namespace cardref::cli {
namespace {

// The longest any time flag may be: a week. Longer is a typo (seconds
// given as ms), and far longer would overflow a deadline.
constexpr int64_t kMaxMillis = int64_t{7} * 24 * 3600 * 1000;
constexpr int32_t kMaxInt32 = std::numeric_limits<int32_t>::max();

template <typename T>
absl::StatusOr<T> InRange(const absl::Flag<T>& flag, T lo, T hi) {
  const T value = absl::GetFlag(flag);
  // Written so that NaN is out of every range.
  if (value >= lo && value <= hi) return value;
  return absl::InvalidArgumentError(absl::StrCat(
      "--", absl::GetFlagReflectionHandle(flag).Name(), " must be ", lo, "..",
      hi, ", got ", value));
}

absl::StatusOr<double> NonNegative(const absl::Flag<double>& flag) {
  const double value = absl::GetFlag(flag);
  if (std::isfinite(value) && value >= 0) return value;
  return absl::InvalidArgumentError(absl::StrCat(
      "--", absl::GetFlagReflectionHandle(flag).Name(),
      " must be a number of at least 0, got ", value));
}

// A default that its own maximum refuses would fail every CreateMatch that
// relies on it, with a message about a field the caller never set.
absl::Status DefaultWithinMaximum(const absl::Flag<int64_t>& value,
                                  const absl::Flag<int64_t>& maximum) {
  const int64_t v = absl::GetFlag(value);
  const int64_t max = absl::GetFlag(maximum);
  if (max == 0 || v <= max) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "--", absl::GetFlagReflectionHandle(value).Name(), "=", v,
      " exceeds --", absl::GetFlagReflectionHandle(maximum).Name(), "=", max,
      ": every match that does not set its own would be refused"));
}

// <parent of log_dir>/referee_ed25519.key: beside the logs, not among them.
std::string DefaultKeyFile(const std::string& log_dir) {
  std::filesystem::path dir =
      std::filesystem::absolute(log_dir).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "logs/" -> "logs"
  return (dir.parent_path() / "referee_ed25519.key").string();
}

absl::StatusOr<v1::FaultPolicy> FaultPolicyFromFlags() {
  v1::FaultPolicy policy;
  ASSIGN_OR_RETURN(const int32_t rejections,
                   InRange(FLAGS_max_rejections, 0, kMaxInt32));
  policy.set_max_rejections_per_decision(rejections);
  ASSIGN_OR_RETURN(const int32_t timeouts,
                   InRange(FLAGS_max_consecutive_timeouts, 0, kMaxInt32));
  policy.set_max_consecutive_timeouts(timeouts);
  ASSIGN_OR_RETURN(const int64_t join_deadline,
                   InRange(FLAGS_join_deadline_ms, int64_t{0}, kMaxMillis));
  policy.set_join_deadline_millis(join_deadline);
  policy.set_disconnect_is_timeout(absl::GetFlag(FLAGS_disconnect_is_timeout));
  ASSIGN_OR_RETURN(const int64_t grace,
                   InRange(FLAGS_disconnect_grace_ms, int64_t{0}, kMaxMillis));
  // Only with the rule it belongs to: a policy without it has no grace.
  if (policy.disconnect_is_timeout()) policy.set_disconnect_grace_millis(grace);
  const std::string action = absl::GetFlag(FLAGS_fault_action);
  if (action == "substitute") {
    policy.set_action(v1::FAULT_ACTION_SUBSTITUTE);
  } else if (action == "forfeit") {
    policy.set_action(v1::FAULT_ACTION_FORFEIT);
  } else if (action == "abort") {
    policy.set_action(v1::FAULT_ACTION_ABORT);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "--fault_action must be substitute, forfeit or abort, got '",
        action.substr(0, 40), "'"));
  }
  return policy;
}

absl::StatusOr<service::Limits> LimitsFromFlags() {
  service::Limits limits;
  ASSIGN_OR_RETURN(limits.max_request_bytes,
                   InRange(FLAGS_max_request_bytes, 1024, 64 << 20));
  ASSIGN_OR_RETURN(const int32_t action_bytes,
                   InRange(FLAGS_max_action_bytes, 1, limits.max_request_bytes));
  limits.max_action_bytes = static_cast<size_t>(action_bytes);
  ASSIGN_OR_RETURN(limits.max_streams_per_seat,
                   InRange(FLAGS_max_streams_per_seat, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.max_event_streams,
                   InRange(FLAGS_max_event_streams, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.organiser_event_streams,
                   InRange(FLAGS_organiser_event_streams, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.max_event_streams_per_client,
                   InRange(FLAGS_max_event_streams_per_client, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.max_streams_per_connection,
                   InRange(FLAGS_max_streams_per_connection, 0, kMaxInt32));
  // A streaming bot holds its observation stream and a call at once, a
  // few more while it reconnects: fewer would stall honest bots.
  if (limits.max_streams_per_connection > 0 &&
      limits.max_streams_per_connection < 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_streams_per_connection must be 0 (no limit) or at least 4, "
        "got ",
        limits.max_streams_per_connection,
        ": a bot holds its observation stream and a call at once"));
  }
  ASSIGN_OR_RETURN(
      limits.max_service_streams_per_connection,
      InRange(FLAGS_max_service_streams_per_connection, 0, kMaxInt32));
  ASSIGN_OR_RETURN(
      limits.max_invitation_streams_per_credential,
      InRange(FLAGS_max_invitation_streams_per_credential, 1, kMaxInt32));
  ASSIGN_OR_RETURN(limits.max_invitations_per_credential,
                   InRange(FLAGS_max_invitations_per_credential, 1, kMaxInt32));
  ASSIGN_OR_RETURN(limits.calls_per_second_per_token,
                   NonNegative(FLAGS_calls_per_second_per_token));
  ASSIGN_OR_RETURN(limits.burst_per_token, NonNegative(FLAGS_burst_per_token));
  ASSIGN_OR_RETURN(limits.calls_per_second_per_peer,
                   NonNegative(FLAGS_calls_per_second_per_peer));
  ASSIGN_OR_RETURN(limits.burst_per_peer, NonNegative(FLAGS_burst_per_peer));
  ASSIGN_OR_RETURN(limits.max_waiting_matches,
                   InRange(FLAGS_max_waiting_matches, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.max_matches_in_progress,
                   InRange(FLAGS_max_matches_in_progress, 0, kMaxInt32));
  // Negative is meaningful here: every rejection in full.
  limits.max_rejections_logged_per_decision =
      absl::GetFlag(FLAGS_max_rejections_logged);
  ASSIGN_OR_RETURN(limits.max_connections,
                   InRange(FLAGS_max_connections, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.max_connections_per_address,
                   InRange(FLAGS_max_connections_per_address, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.handshake_timeout_ms,
                   InRange(FLAGS_handshake_timeout_ms, 1, 600'000));
  ASSIGN_OR_RETURN(limits.max_connection_idle_ms,
                   InRange(FLAGS_max_connection_idle_ms, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.keepalive_ms,
                   InRange(FLAGS_keepalive_ms, 0, kMaxInt32));
  ASSIGN_OR_RETURN(limits.keepalive_timeout_ms,
                   InRange(FLAGS_keepalive_timeout_ms, 1, 600'000));
  ASSIGN_OR_RETURN(limits.refusals_per_second,
                   NonNegative(FLAGS_refusals_per_second));
  ASSIGN_OR_RETURN(limits.refusal_burst, NonNegative(FLAGS_refusal_burst));
  ASSIGN_OR_RETURN(limits.refusal_delay_ms,
                   InRange(FLAGS_refusal_delay_ms, 0, 60'000));
  ASSIGN_OR_RETURN(limits.max_delayed_refusals,
                   InRange(FLAGS_max_delayed_refusals, 0, kMaxInt32));
  return limits;
}

}  // namespace

absl::StatusOr<RefereeConfig> RefereeConfigFromFlags() {
  RefereeConfig config;
  grpc_service::ServerOptions& server = config.server;
  server.host = absl::GetFlag(FLAGS_host);
  ASSIGN_OR_RETURN(server.port, InRange(FLAGS_port, 0, 65535));
  ASSIGN_OR_RETURN(server.metrics_port, InRange(FLAGS_metrics_port, -1, 65535));
  server.metrics_host = absl::GetFlag(FLAGS_metrics_host);
  server.bot_addresses.clear();
  for (const std::string& address : absl::GetFlag(FLAGS_bot_addresses)) {
    if (!address.empty()) server.bot_addresses.push_back(address);
  }
  server.serve_test_games = absl::GetFlag(FLAGS_serve_test_games);
  server.tls.cert_file = absl::GetFlag(FLAGS_tls_cert);
  server.tls.key_file = absl::GetFlag(FLAGS_tls_key);
  server.tls.client_ca_file = absl::GetFlag(FLAGS_tls_client_ca);
  ASSIGN_OR_RETURN(const int http_port, InRange(FLAGS_http_port, -1, 65535));
  if (http_port >= 0) {
    web::WebOptions web;
    web.port = http_port;
    web.host = absl::GetFlag(FLAGS_http_host);
    ASSIGN_OR_RETURN(web.max_streams,
                     InRange(FLAGS_http_max_streams, 0, 100000));
    ASSIGN_OR_RETURN(web.max_streams_per_client,
                     InRange(FLAGS_http_max_streams_per_client, 0, 100000));
    ASSIGN_OR_RETURN(web.delay_decisions,
                     InRange(FLAGS_http_delay_decisions, uint32_t{0},
                             uint32_t{100000}));
    server.front_end = web::RefereeFrontEnd(std::move(web));
  }

  service::ManagerOptions& manager = server.manager;
  manager.log_dir = absl::GetFlag(FLAGS_log_dir);
  if (manager.log_dir.empty()) {
    return absl::InvalidArgumentError("--log_dir must not be empty");
  }
  ASSIGN_OR_RETURN(manager.min_free_disk_mb,
                   InRange(FLAGS_min_free_disk_mb, int64_t{0},
                           int64_t{1} << 40));
  ASSIGN_OR_RETURN(manager.default_decision_time_limit_millis,
                   InRange(FLAGS_decision_time_limit_ms, int64_t{0},
                           kMaxMillis));
  ASSIGN_OR_RETURN(manager.max_decision_time_limit_millis,
                   InRange(FLAGS_max_decision_time_limit_ms, int64_t{0},
                           kMaxMillis));
  RETURN_IF_ERROR(DefaultWithinMaximum(FLAGS_decision_time_limit_ms,
                                       FLAGS_max_decision_time_limit_ms));
  ASSIGN_OR_RETURN(manager.default_time_bank_millis,
                   InRange(FLAGS_time_bank_ms, int64_t{0}, kMaxMillis));
  ASSIGN_OR_RETURN(manager.max_time_bank_millis,
                   InRange(FLAGS_max_time_bank_ms, int64_t{0}, kMaxMillis));
  RETURN_IF_ERROR(DefaultWithinMaximum(FLAGS_time_bank_ms,
                                       FLAGS_max_time_bank_ms));
  ASSIGN_OR_RETURN(manager.max_join_deadline_millis,
                   InRange(FLAGS_max_join_deadline_ms, int64_t{0}, kMaxMillis));
  ASSIGN_OR_RETURN(manager.default_fault_policy, FaultPolicyFromFlags());
  ASSIGN_OR_RETURN(manager.max_latency_allowance_millis,
                   InRange(FLAGS_max_latency_allowance_ms, int64_t{0},
                           kMaxMillis));
  RETURN_IF_ERROR(DefaultWithinMaximum(FLAGS_join_deadline_ms,
                                       FLAGS_max_join_deadline_ms));
  ASSIGN_OR_RETURN(manager.limits, LimitsFromFlags());
  absl::StatusOr<record::SyncPolicy> log_sync =
      record::ParseSyncPolicy(absl::GetFlag(FLAGS_log_sync));
  if (!log_sync.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--log_sync: ", log_sync.status().message()));
  }
  manager.log_sync = *log_sync;
  config.log_sync = absl::GetFlag(FLAGS_log_sync);
  ASSIGN_OR_RETURN(manager.log_sync_threads,
                   InRange(FLAGS_log_sync_threads, 0, 64));
  ASSIGN_OR_RETURN(const int64_t evict_after_ms,
                   InRange(FLAGS_evict_after_ms, int64_t{0}, int64_t{600'000}));
  manager.evict_after = absl::Milliseconds(evict_after_ms);

  ASSIGN_OR_RETURN(const int64_t grace_ms,
                   InRange(FLAGS_shutdown_grace_ms, int64_t{0}, kMaxMillis));
  config.shutdown_grace = absl::Milliseconds(grace_ms);
  config.organiser_token_file = absl::GetFlag(FLAGS_organiser_token_file);
  config.signing_key_file = absl::GetFlag(FLAGS_signing_key_file);
  if (config.signing_key_file.empty()) {
    config.signing_key_file = DefaultKeyFile(manager.log_dir);
  }
  config.port_file = absl::GetFlag(FLAGS_port_file);
  config.metrics_port_file = absl::GetFlag(FLAGS_metrics_port_file);
  config.http_port_file = absl::GetFlag(FLAGS_http_port_file);
  return config;
}

}  // namespace cardref::cli
