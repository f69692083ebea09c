// A seat's observations on a stream: its observation each time it must act,
// and once at the end. WatchObservations sends only these; PlaySeat
// (seat_play_stream.h) sends them between its answers to the seat's
// actions. The seat's decision clock starts when the message is written,
// not when it is built (a busy referee's delay in sending is not the
// seat's); each observation is built on an arena and dropped before the
// next.
#ifndef CARDREF_REFEREE_GRPC_OBSERVATION_STREAM_H_
#define CARDREF_REFEREE_GRPC_OBSERVATION_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cardref/v1/game.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/service/match.h"
#include "referee/service/stream_budget.h"

namespace cardref::grpc_service {

// The first block of a seat stream's message arena: the largest game
// observations with their legal actions take 2 to 4 KiB.
inline constexpr size_t kSeatStreamArenaBytes = 4096;

// What a seat's stream owes it, for the stream's writer to send. Not
// thread-safe: its stream's lock guards it.
class SeatFeed {
 public:
  // `seat`'s token already checked; the first observation holds the
  // actions after `since_version`.
  SeatFeed(std::shared_ptr<service::Match> match, int seat, std::string token,
           uint64_t since_version);

  // The stream is open: counted as the seat's (disconnect detection,
  // docs/fault_policy.md), and `on_change` is called after each change of
  // the match, from any thread, until Close.
  void Open(std::function<void()> on_change);
  // The stream is done: no more calls of `on_change` once this returns
  // (call it without the stream's lock, which on_change takes).
  void Close();

  // What is due now. An observation is built into `fresh()` (called only
  // then); `end`, if set, ends the stream (after that observation, if one
  // is due): a StreamWriter's Next. `fresh()` gives a message on an arena,
  // dropped with it once written: it borrows the match's action records
  // (Match::RecentActions::kBorrowed), and this feed keeps the match.
  struct Due {
    bool observation = false;
    std::optional<grpc::Status> end;
  };
  Due Next(const std::function<v1::Observation*()>& fresh);
  // The observation Next built was written: the seat's decision clock
  // starts now.
  void Written();

  const std::shared_ptr<service::Match>& match() const { return match_; }
  int seat() const { return seat_; }
  const std::string& token() const { return token_; }

 private:
  const std::shared_ptr<service::Match> match_;
  const int seat_;
  const std::string token_;
  int watcher_ = -1;
  uint64_t last_version_ = 0;
  uint64_t since_version_;
};

// Starts streaming `seat`'s observations of `match` (the seat's token
// already checked), with the actions after `since_version` in the first;
// the stream holds `slot` (call_gate.h) until it is done.
grpc::ServerWriteReactor<v1::Observation>* NewObservationStream(
    std::shared_ptr<service::Match> match, int seat, std::string token,
    uint64_t since_version, service::StreamSlot slot = {});

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_OBSERVATION_STREAM_H_
