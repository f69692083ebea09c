// One client's stream of a match's events: a cursor into the match's feed
// (the last event index sent), the delay it is shown with, and its slot
// under the stream caps.
#ifndef CARDREF_WEB_FEED_EVENT_SOURCE_H_
#define CARDREF_WEB_FEED_EVENT_SOURCE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "web/http_server.h"
#include "web/match_feed.h"
#include "web/sse_slots.h"

namespace cardref::web {

// Every write carries at most about this much (at least one event).
inline constexpr size_t kMaxEventBytesPerWrite = size_t{64} * 1024;
// What the stream asks a browser to wait before it reconnects.
inline constexpr int kReconnectMillis = 2000;

class FeedEventSource : public EventSource {
 public:
  FeedEventSource(std::shared_ptr<MatchFeed> feed, uint64_t after_index,
                  uint32_t delay_decisions, SseSlot slot);
  ~FeedEventSource() override;

  std::string Next(bool* done) override;
  void NotifyWhenReady(std::function<void()> wake) override;

 private:
  const std::shared_ptr<MatchFeed> feed_;
  const uint32_t delay_decisions_;
  const int watch_id_;
  SseSlot slot_;
  uint64_t cursor_;
  uint64_t seen_version_ = 0;
  bool started_ = false;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_FEED_EVENT_SOURCE_H_
