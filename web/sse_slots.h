// The caps on the web front's event streams (docs/limits.md, "The web
// front"): at most `max_total` open at once, and at most `max_per_client`
// from one client address. A stream holds its slot for its whole life.
#ifndef CARDREF_WEB_SSE_SLOTS_H_
#define CARDREF_WEB_SSE_SLOTS_H_

#include <string>

#include "absl/status/statusor.h"
#include "referee/service/stream_budget.h"

namespace cardref::web {

// Movable; gives both slots back when destroyed.
struct SseSlot {
  service::StreamSlot client;
  service::StreamSlot total;
};

// Thread-safe; outlives its slots.
class SseSlots {
 public:
  // A cap <= 0: none.
  SseSlots(int max_total, int max_per_client)
      : total_(max_total), per_client_(max_per_client) {}

  // RESOURCE_EXHAUSTED when `client` holds its share, UNAVAILABLE when the
  // front holds max_total.
  [[nodiscard]] absl::StatusOr<SseSlot> Acquire(const std::string& client);
  int open_total() const { return total_.open(""); }
  int open(const std::string& client) const { return per_client_.open(client); }

 private:
  service::StreamBudget total_;
  service::StreamBudget per_client_;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_SSE_SLOTS_H_
