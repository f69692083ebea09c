#include "referee/service/deadline_queue.h"

#include <algorithm>

namespace cardref::service {

namespace {
// Rebuild once stale entries exceed the live ones by this factor (plus a
// floor, so a small heap is never rebuilt on every Set).
constexpr size_t kStaleFactor = 2;
constexpr size_t kMinHeapForRebuild = 64;
}  // namespace

bool DeadlineQueue::IsCurrentLocked(const Entry& e) const {
  auto it = current_.find(e.match_id);
  return it != current_.end() && it->second.generation == e.generation;
}

void DeadlineQueue::Set(const std::string& match_id, absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  if (deadline == absl::InfiniteFuture()) {
    current_.erase(match_id);  // its heap entries are stale now
  } else {
    auto [it, inserted] = current_.try_emplace(match_id);
    if (!inserted && it->second.deadline == deadline) return;  // no change
    it->second = Current{deadline, next_generation_++};
    heap_.push_back(Entry{deadline, it->second.generation, match_id});
    std::push_heap(heap_.begin(), heap_.end(), Later);
  }
  if (heap_.size() > kMinHeapForRebuild &&
      heap_.size() > kStaleFactor * (current_.size() + 1)) {
    std::vector<Entry> live;
    live.reserve(current_.size());
    for (Entry& e : heap_) {
      if (IsCurrentLocked(e)) live.push_back(std::move(e));
    }
    heap_ = std::move(live);
    std::make_heap(heap_.begin(), heap_.end(), Later);
  }
}

void DeadlineQueue::DropStaleTopLocked() {
  while (!heap_.empty() && !IsCurrentLocked(heap_.front())) {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    heap_.pop_back();
  }
}

std::vector<std::string> DeadlineQueue::PopDue(absl::Time now) {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> due;
  for (DropStaleTopLocked(); !heap_.empty() && heap_.front().deadline <= now;
       DropStaleTopLocked()) {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    current_.erase(heap_.back().match_id);
    due.push_back(std::move(heap_.back().match_id));
    heap_.pop_back();
  }
  return due;
}

absl::Time DeadlineQueue::Next() {
  absl::MutexLock lock(&mu_);
  DropStaleTopLocked();
  return heap_.empty() ? absl::InfiniteFuture() : heap_.front().deadline;
}

size_t DeadlineQueue::size() const {
  absl::MutexLock lock(&mu_);
  return current_.size();
}

size_t DeadlineQueue::heap_size() const {
  absl::MutexLock lock(&mu_);
  return heap_.size();
}

}  // namespace cardref::service
