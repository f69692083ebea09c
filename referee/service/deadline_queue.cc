#include "referee/service/deadline_queue.h"

#include <utility>

namespace cardref::service {

void DeadlineQueue::PlaceLocked(size_t i, Entry e) {
  e.node->second = i;
  heap_[i] = e;
}

void DeadlineQueue::SiftLocked(size_t i) {
  Entry e = heap_[i];
  // Up, while earlier than its parent.
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (!(e.deadline < heap_[parent].deadline)) break;
    PlaceLocked(i, heap_[parent]);
    i = parent;
  }
  // Down, while a child is earlier.
  for (;;) {
    const size_t left = 2 * i + 1;
    if (left >= heap_.size()) break;
    size_t child = left;
    if (left + 1 < heap_.size() &&
        heap_[left + 1].deadline < heap_[left].deadline) {
      child = left + 1;
    }
    if (!(heap_[child].deadline < e.deadline)) break;
    PlaceLocked(i, heap_[child]);
    i = child;
  }
  PlaceLocked(i, e);
}

void DeadlineQueue::RemoveAtLocked(size_t i) {
  const Entry last = heap_.back();
  heap_.pop_back();
  if (i == heap_.size()) return;  // it was the last
  PlaceLocked(i, last);
  SiftLocked(i);
}

void DeadlineQueue::Set(const std::string& match_id, absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  if (deadline == absl::InfiniteFuture()) {
    auto it = positions_.find(match_id);
    if (it == positions_.end()) return;
    RemoveAtLocked(it->second);
    positions_.erase(it);
    return;
  }
  auto [it, inserted] = positions_.try_emplace(match_id, heap_.size());
  if (inserted) {
    heap_.push_back(Entry{deadline, &*it});
    SiftLocked(heap_.size() - 1);
    return;
  }
  Entry& e = heap_[it->second];
  if (e.deadline == deadline) return;  // no change
  e.deadline = deadline;
  SiftLocked(it->second);
}

std::vector<std::string> DeadlineQueue::PopDue(absl::Time now) {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> due;
  while (!heap_.empty() && heap_.front().deadline <= now) {
    Positions::value_type* node = heap_.front().node;
    due.push_back(node->first);
    RemoveAtLocked(0);
    positions_.erase(due.back());
  }
  return due;
}

absl::Time DeadlineQueue::Next() {
  absl::MutexLock lock(&mu_);
  return heap_.empty() ? absl::InfiniteFuture() : heap_.front().deadline;
}

size_t DeadlineQueue::size() const {
  absl::MutexLock lock(&mu_);
  return positions_.size();
}

size_t DeadlineQueue::heap_size() const {
  absl::MutexLock lock(&mu_);
  return heap_.size();
}

}  // namespace cardref::service
