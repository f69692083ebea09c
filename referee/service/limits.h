// Every resource limit of a referee process in one place, with its default.
// Past a limit a client gets RESOURCE_EXHAUSTED (a quota: retry later) or
// INVALID_ARGUMENT (the request itself is too big). docs/limits.md lists
// each one with its flag and the code that enforces it.
#ifndef CARDREF_REFEREE_SERVICE_LIMITS_H_
#define CARDREF_REFEREE_SERVICE_LIMITS_H_

#include <cstddef>
#include <cstdint>

namespace cardref::service {

// Repeated and map fields of a request (fixed, not flags): a request within
// max_request_bytes could still carry thousands of entries, each checked,
// stored or quoted. No game has more than 5 seats or 8 parameters.
inline constexpr int kMaxParamsEntries = 32;
inline constexpr int kMaxSeatAssignments = 16;

struct Limits {
  // gRPC's max receive message size. An action is a few dozen bytes; the
  // largest honest request (CreateMatch with names) is far below this.
  int max_request_bytes = 64 * 1024;
  // A submitted action's encoded size: larger ones are refused with
  // INVALID_ARGUMENT and logged without the action (oversized_bytes).
  size_t max_action_bytes = 1024;

  // Open WatchObservations streams per seat, and per match token (a seat's
  // token identifies its bot; equal for now, kept apart so a later
  // per-player token can share one budget across seats).
  int max_streams_per_seat = 4;
  // Open WatchMatch/WatchMatchFull streams of the whole process; of these,
  // `organiser_event_streams` are kept for the organiser's WatchMatchFull
  // (spectators share the rest), and one client (an address, or one user
  // on this machine) holds at most `max_event_streams_per_client` of the
  // spectators' share. 0: no cap.
  int max_event_streams = 256;
  int organiser_event_streams = 32;
  int max_event_streams_per_client = 16;
  // Streams (calls of any method, unary ones included) one connection may
  // have open at once: HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS. A client
  // that respects it queues its further calls; gRPC refuses the streams of
  // one that does not (RST_STREAM REFUSED_STREAM). With max_connections it
  // bounds every call a client can hold open, including calls whose request
  // never comes. 0 = gRPC's default, no limit.
  int max_streams_per_connection = 100;
  // Health/Watch and ServerReflectionInfo streams open at once on one
  // connection (grpc/health_service.h, grpc/reflection_service.h): a
  // client's health checking opens one per connection, a tool like grpcurl
  // one per command.
  int max_service_streams_per_connection = 4;

  // Calls per second (token bucket: `rate` refills per second, `burst`
  // calls at once) per caller token (a seat's token, the organiser's
  // bearer token) and per peer address. 0 rate = no limit. Generous: one
  // fast 2-seat match makes ~3,500 calls/s per seat and 16 matches ~18,000
  // calls/s from one host (BENCHMARKS.md); a tournament runs every bot on
  // one host.
  double calls_per_second_per_token = 5000;
  double burst_per_token = 10000;
  double calls_per_second_per_peer = 50000;
  double burst_per_peer = 100000;

  // Bot credentials (docs/bots.md, "Invitations"): WatchInvitations streams
  // one credential holds open at once (a pool of bot processes takes one
  // each), and seats sent to one credential's streams whose matches are not
  // over (a stream asking for more at once is granted this many).
  int max_invitation_streams_per_credential = 16;
  int max_invitations_per_credential = 64;

  // Matches waiting for players and matches in progress (0 = no limit).
  int max_waiting_matches = 1000;
  int max_matches_in_progress = 1000;

  // Rejected submissions written in full per seat and decision; the rest
  // are counted in one RejectionsNotLogged record. 0: none in full, all
  // counted; negative: all in full (the old behaviour).
  int max_rejections_logged_per_decision = 8;

  // Incoming connections held at once, plaintext or TLS (counted by the
  // referee's own accept loop); past it new connections are closed at once.
  // 0 = no cap. Kept well below RLIMIT_NOFILE (raised at start).
  int max_connections = 512;
  // Connections held at once from one client (an address; on this machine,
  // the user whose process connected); past it that client's new
  // connections are closed at once, so one client cannot lock out the
  // others. Half of max_connections: a tournament's bots under one user
  // (or a remote runner's) fit up to 256 connections, 50 matches of 5 at
  // once (cardref_tournament's own referee raises it to fit its
  // concurrency); 0 = no such cap (docs/limits.md).
  int max_connections_per_address = 256;
  // A connection that has not finished its handshake (TLS, then HTTP/2's
  // opening SETTINGS) this long after it was accepted is closed, so silent
  // connections do not hold places under max_connections for gRPC's
  // default of two minutes. > 0.
  int handshake_timeout_ms = 10'000;
  // A connection with no byte either way for this long is shut down (the
  // referee's own listener watches TCP_INFO once a second; a client
  // reconnects at its next call). gRPC pings every connection with a call
  // in progress (keepalive_ms), so only connections with nothing to do, or
  // a dead peer, go this quiet. 0 = never (docs/limits.md).
  int max_connection_idle_ms = 60'000;
  // A connection with a call in progress (a seat's observation stream) is
  // pinged after keepalive_ms without a ping and closed if the ping is not
  // answered within keepalive_timeout_ms: a bot whose machine died or whose
  // network dropped is seen gone in half a minute, not after TCP's
  // retransmissions (about 15 minutes). 0 = gRPC's default (two hours).
  int keepalive_ms = 20'000;
  int keepalive_timeout_ms = 10'000;
  // The tarpit for refused calls (grpc/refusal_tarpit.h): per caller,
  // `refusal_burst` refusals answered at once, refilling at
  // `refusals_per_second`; past it each refusal is answered after
  // `refusal_delay_ms`, at most `max_delayed_refusals` held at once (past
  // that, at once). 0 rate or delay = no tarpit. An honest bot is refused a
  // few times per game at most; 4 threads flooding with calls the referee
  // must refuse drop from thousands of calls per second to 40.
  double refusals_per_second = 10;
  double refusal_burst = 20;
  int refusal_delay_ms = 100;
  int max_delayed_refusals = 1000;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_LIMITS_H_
