// A cap on open streams per key (a seat, or one key for the whole process):
// Acquire hands out a slot while fewer than `max_per_key` are held, and the
// slot gives itself back when destroyed, so a stream holds one for exactly
// its life.
#ifndef CARDREF_REFEREE_SERVICE_STREAM_BUDGET_H_
#define CARDREF_REFEREE_SERVICE_STREAM_BUDGET_H_

#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace cardref::service {

class StreamBudget;

// Movable; returns its slot to the budget when destroyed.
class StreamSlot {
 public:
  StreamSlot() = default;
  StreamSlot(StreamSlot&& other) noexcept { *this = std::move(other); }
  StreamSlot& operator=(StreamSlot&& other) noexcept;
  ~StreamSlot() { Release(); }

 private:
  friend class StreamBudget;
  StreamSlot(StreamBudget* budget, std::string key)
      : budget_(budget), key_(std::move(key)) {}
  void Release();
  StreamBudget* budget_ = nullptr;
  std::string key_;
};

// Thread-safe; must outlive its slots.
class StreamBudget {
 public:
  // max_per_key <= 0: no cap.
  explicit StreamBudget(int max_per_key) : max_per_key_(max_per_key) {}

  // RESOURCE_EXHAUSTED naming `what` and the cap when `key` holds them all.
  absl::StatusOr<StreamSlot> Acquire(absl::string_view what,
                                     absl::string_view key)
      ABSL_LOCKS_EXCLUDED(mu_);
  int open(absl::string_view key) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  friend class StreamSlot;
  void Release(const std::string& key) ABSL_LOCKS_EXCLUDED(mu_);

  const int max_per_key_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, int> open_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_STREAM_BUDGET_H_
