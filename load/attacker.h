// cardref_load --attack: a hostile client run against the referee while the
// healthy matches play, so their latency under attack can be set
// against the same run without it. One kind at a time:
//   rejections   one client floods an attacker's match with submissions
//                the referee must refuse (an illegal notation), from four
//                threads on one connection, each waiting for its answer
//                (a synchronous client);
//   async_rejections  the same flood without waiting: 256 calls in flight
//                at once over four connections (one holds at most 100:
//                --max_streams_per_connection), each answer followed at
//                once by another call;
//   streams      hundreds of event streams (WatchMatch) opened on a match
//                that waits for players and never read;
//   connections  raw TCP connections opened as fast as they go, up to a
//                few hundred held at once, the oldest closed to make room.
#ifndef CARDREF_LOAD_ATTACKER_H_
#define CARDREF_LOAD_ATTACKER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace cardref::load {

enum class AttackKind {
  kNone,
  kRejections,
  kAsyncRejections,
  kStreams,
  kConnections
};

// "none", "rejections", "async_rejections", "streams", "connections";
// INVALID_ARGUMENT naming
// them otherwise.
absl::StatusOr<AttackKind> ParseAttackKind(const std::string& name);

class Attacker {
 public:
  // `address` is HOST:PORT of the referee; `token` the organiser's bearer
  // token (empty on a loopback referee without one).
  // Attacks through matches of `game` (its default parameters).
  Attacker(AttackKind kind, std::string address, std::string token,
           std::string game);
  ~Attacker();  // stops the attack

  // Sets the attack up (its match, its streams) and starts it.
  absl::Status Start();
  void Stop();

  // What the attack did: calls refused by the referee (rejections), streams
  // held open (streams) or connections opened (connections).
  int64_t count() const { return count_.load(); }
  const char* unit() const;

 private:
  void FloodRejections();
  void FloodRejectionsAsync();
  v1::SubmitActionRequest RefusedSubmission() const;
  void FloodConnections();

  const AttackKind kind_;
  const std::string address_;
  const std::string token_;
  const std::string game_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Referee::Stub> stub_;
  std::string match_id_;
  std::string seat_token_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> count_{0};
  std::vector<std::thread> threads_;
  // Streams: their connections, and their contexts and readers, never read.
  std::vector<std::unique_ptr<v1::Referee::Stub>> stream_stubs_;
  struct Idle;
  std::vector<std::unique_ptr<Idle>> idle_;
};

}  // namespace cardref::load

#endif  // CARDREF_LOAD_ATTACKER_H_
