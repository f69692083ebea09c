#include "web/feed_event_source.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace cardref::web {

FeedEventSource::FeedEventSource(std::shared_ptr<MatchFeed> feed,
                                 uint64_t after_index,
                                 uint32_t delay_decisions, SseSlot slot)
    : feed_(std::move(feed)),
      delay_decisions_(delay_decisions),
      watch_id_(feed_->NewWatchId()),
      slot_(std::move(slot)),
      cursor_(after_index) {}

FeedEventSource::~FeedEventSource() { feed_->Unwatch(watch_id_); }

std::string FeedEventSource::Next(bool* done) {
  // Read before the events: a change while they are copied wakes us again.
  seen_version_ = feed_->version();
  MatchFeed::Slice slice =
      feed_->After(cursor_, delay_decisions_, kMaxEventBytesPerWrite);
  cursor_ = slice.last_index;
  *done = slice.complete;
  if (!started_) {
    started_ = true;
    return absl::StrCat("retry: ", kReconnectMillis, "\n\n", slice.text);
  }
  return std::move(slice.text);
}

void FeedEventSource::NotifyWhenReady(std::function<void()> wake) {
  feed_->WatchSince(seen_version_, watch_id_, std::move(wake));
}

}  // namespace cardref::web
