#ifndef CARDREF_REFEREE_SERVICE_MATCH_PROGRESS_H_
#define CARDREF_REFEREE_SERVICE_MATCH_PROGRESS_H_

#include <atomic>
#include <cstdint>

#include "cardref/v1/game.pb.h"

namespace cardref::service {

// What a watcher needs to decide whether an observation is due, without
// building one (observations carry legal actions and history).
struct MatchProgress {
  uint64_t version = 0;
  int seat_to_act = -1;
  v1::MatchStatus status = v1::MATCH_STATUS_UNSPECIFIED;
  // Bit s: seat s is absent (docs/fault_policy.md); seats 0..63.
  uint64_t absent_seats = 0;

  bool operator==(const MatchProgress& o) const {
    return version == o.version && seat_to_act == o.seat_to_act &&
           status == o.status && absent_seats == o.absent_seats;
  }
};

// A match's progress as last published, read without the match's lock:
// every seat stream of a match asks at every step, and three of four are
// told nothing new. A sequence lock: one writer at a time (the caller's
// lock), readers never wait for it; a read that overlaps a write is
// retried, so it always returns a snapshot that was published.
class PublishedProgress {
 public:
  // Only under the writer's lock. The fields are stored with release, so
  // a reader that sees one of them also sees the odd sequence stored before
  // it (no standalone fences: ThreadSanitizer does not model them).
  void Publish(const MatchProgress& p) {
    const uint64_t sequence = sequence_.load(std::memory_order_relaxed);
    sequence_.store(sequence + 1, std::memory_order_relaxed);  // odd: busy
    version_.store(p.version, std::memory_order_release);
    seat_and_status_.store(Pack(p.seat_to_act, p.status),
                           std::memory_order_release);
    absent_seats_.store(p.absent_seats, std::memory_order_release);
    sequence_.store(sequence + 2, std::memory_order_release);
  }

  // The fields are loaded with acquire, so the second load of the
  // sequence comes after them and sees any write they overlapped.
  MatchProgress Read() const {
    for (;;) {
      const uint64_t before = sequence_.load(std::memory_order_acquire);
      MatchProgress p;
      p.version = version_.load(std::memory_order_acquire);
      const uint64_t packed =
          seat_and_status_.load(std::memory_order_acquire);
      p.absent_seats = absent_seats_.load(std::memory_order_acquire);
      if ((before & 1) == 0 &&
          sequence_.load(std::memory_order_relaxed) == before) {
        p.seat_to_act = static_cast<int>(static_cast<int32_t>(packed >> 32));
        p.status = static_cast<v1::MatchStatus>(
            static_cast<int32_t>(packed & 0xffffffff));
        return p;
      }
    }
  }

 private:
  static uint64_t Pack(int seat_to_act, v1::MatchStatus status) {
    return (uint64_t{static_cast<uint32_t>(seat_to_act)} << 32) |
           static_cast<uint32_t>(status);
  }

  std::atomic<uint64_t> sequence_{0};  // odd while a write is under way
  std::atomic<uint64_t> version_{0};
  std::atomic<uint64_t> seat_and_status_{
      Pack(-1, v1::MATCH_STATUS_UNSPECIFIED)};
  std::atomic<uint64_t> absent_seats_{0};
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_PROGRESS_H_
