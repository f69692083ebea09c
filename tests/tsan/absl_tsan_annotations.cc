// ThreadSanitizer lane only (CARDREF_TSAN): teaches TSan that absl::Mutex
// is a lock. Debian's Abseil is not built with TSan, so the atomics inside
// Mutex::Lock/Unlock are invisible to it and every access guarded by an
// absl::Mutex would be reported as a race in project code. This file, linked
// into each test binary, preempts the library's Mutex and CondVar entry
// points: each forwards to the real one (found with dlsym(RTLD_NEXT)) and
// tells TSan about the happens-before edge (__tsan_release before a lock is
// given up, __tsan_acquire after it is taken). Races on data a mutex does
// not guard are still reported; nothing is suppressed.
#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/base/options.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

#define CARDREF_STR2(x) #x
#define CARDREF_STR(x) CARDREF_STR2(x)
#define CARDREF_ABSL_NAMESPACE CARDREF_STR(ABSL_OPTION_INLINE_NAMESPACE_NAME)

namespace {

// "_ZN4absl<len><inline namespace>" + rest: the Itanium mangling of a
// member of absl's inline namespace.
std::string Mangled(const char* rest) {
  const std::string ns = CARDREF_ABSL_NAMESPACE;
  return "_ZN4absl" + std::to_string(ns.size()) + ns + rest;
}

template <typename F>
F Real(const char* rest) {
  void* f = dlsym(RTLD_NEXT, Mangled(rest).c_str());
  if (f == nullptr) {
    std::fprintf(stderr, "absl_tsan_annotations: no %s\n",
                 Mangled(rest).c_str());
    std::abort();
  }
  return reinterpret_cast<F>(f);
}

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

using absl::Condition;

void Mutex::Lock() {
  static auto real = Real<void (*)(Mutex*)>("5Mutex4LockEv");
  real(this);
  __tsan_acquire(this);
}
void Mutex::ReaderLock() {
  static auto real = Real<void (*)(Mutex*)>("5Mutex10ReaderLockEv");
  real(this);
  __tsan_acquire(this);
}
bool Mutex::TryLock() {
  static auto real = Real<bool (*)(Mutex*)>("5Mutex7TryLockEv");
  const bool locked = real(this);
  if (locked) __tsan_acquire(this);
  return locked;
}
bool Mutex::ReaderTryLock() {
  static auto real = Real<bool (*)(Mutex*)>("5Mutex13ReaderTryLockEv");
  const bool locked = real(this);
  if (locked) __tsan_acquire(this);
  return locked;
}
void Mutex::Unlock() {
  static auto real = Real<void (*)(Mutex*)>("5Mutex6UnlockEv");
  __tsan_release(this);
  real(this);
}
void Mutex::ReaderUnlock() {
  static auto real = Real<void (*)(Mutex*)>("5Mutex12ReaderUnlockEv");
  __tsan_release(this);
  real(this);
}
void Mutex::LockWhen(const Condition& cond) {
  static auto real =
      Real<void (*)(Mutex*, const Condition&)>("5Mutex8LockWhenERKNS0_9ConditionE");
  real(this, cond);
  __tsan_acquire(this);
}
void Mutex::ReaderLockWhen(const Condition& cond) {
  static auto real = Real<void (*)(Mutex*, const Condition&)>(
      "5Mutex14ReaderLockWhenERKNS0_9ConditionE");
  real(this, cond);
  __tsan_acquire(this);
}
bool Mutex::LockWhenWithTimeout(const Condition& cond, absl::Duration timeout) {
  static auto real = Real<bool (*)(Mutex*, const Condition&, absl::Duration)>(
      "5Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  const bool met = real(this, cond, timeout);
  __tsan_acquire(this);
  return met;
}
bool Mutex::LockWhenWithDeadline(const Condition& cond, absl::Time deadline) {
  static auto real = Real<bool (*)(Mutex*, const Condition&, absl::Time)>(
      "5Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  const bool met = real(this, cond, deadline);
  __tsan_acquire(this);
  return met;
}
// Await releases the mutex while it waits and holds it again on return.
void Mutex::Await(const Condition& cond) {
  static auto real =
      Real<void (*)(Mutex*, const Condition&)>("5Mutex5AwaitERKNS0_9ConditionE");
  __tsan_release(this);
  real(this, cond);
  __tsan_acquire(this);
}
bool Mutex::AwaitWithTimeout(const Condition& cond, absl::Duration timeout) {
  static auto real = Real<bool (*)(Mutex*, const Condition&, absl::Duration)>(
      "5Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  __tsan_release(this);
  const bool met = real(this, cond, timeout);
  __tsan_acquire(this);
  return met;
}
bool Mutex::AwaitWithDeadline(const Condition& cond, absl::Time deadline) {
  static auto real = Real<bool (*)(Mutex*, const Condition&, absl::Time)>(
      "5Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  __tsan_release(this);
  const bool met = real(this, cond, deadline);
  __tsan_acquire(this);
  return met;
}
void CondVar::Wait(Mutex* mu) {
  static auto real =
      Real<void (*)(CondVar*, Mutex*)>("7CondVar4WaitEPNS0_5MutexE");
  __tsan_release(mu);
  real(this, mu);
  __tsan_acquire(mu);
}
bool CondVar::WaitWithTimeout(Mutex* mu, absl::Duration timeout) {
  static auto real = Real<bool (*)(CondVar*, Mutex*, absl::Duration)>(
      "7CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
  __tsan_release(mu);
  const bool timed_out = real(this, mu, timeout);
  __tsan_acquire(mu);
  return timed_out;
}
bool CondVar::WaitWithDeadline(Mutex* mu, absl::Time deadline) {
  static auto real = Real<bool (*)(CondVar*, Mutex*, absl::Time)>(
      "7CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  __tsan_release(mu);
  const bool timed_out = real(this, mu, deadline);
  __tsan_acquire(mu);
  return timed_out;
}

ABSL_NAMESPACE_END
}  // namespace absl
