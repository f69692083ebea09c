#include "web/sse_slots.h"

#include <utility>

namespace cardref::web {

absl::StatusOr<SseSlot> SseSlots::Acquire(const std::string& client) {
  SseSlot slot;
  absl::StatusOr<service::StreamSlot> mine =
      per_client_.Acquire("this client address", client);
  if (!mine.ok()) return mine.status();
  slot.client = *std::move(mine);
  absl::StatusOr<service::StreamSlot> any =
      total_.Acquire("the web front", "");
  // The whole front is full: the client is not to blame.
  if (!any.ok()) {
    return absl::UnavailableError(any.status().message());  // `slot.client` is given back
  }
  slot.total = *std::move(any);
  return slot;
}

}  // namespace cardref::web
