// Requests made with a client's retry key (JoinMatchRequest.retry_key,
// CreateMatchRequest.retry_key), so that a resend of a request whose answer
// was lost finds what the first one did instead of doing it again
// (docs/bots.md, "When the network fails"; docs/status_codes.md, "Retries").
//
// A key's entry is `pending` while its first request is being made: a
// resend then is told to wait, so concurrent resends never do the work
// twice. Entries hold their match weakly: those whose match left memory
// are dropped whenever the table has doubled since the last sweep, so it
// holds about one entry per request whose match is in memory. Not
// thread-safe: the manager calls it under its lock.
#ifndef CARDREF_REFEREE_SERVICE_RETRY_KEYS_H_
#define CARDREF_REFEREE_SERVICE_RETRY_KEYS_H_

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace cardref::service {

class Match;

// Short keys could be guessed, and a key gives back what its request got
// (a seat's token, an invitation's tickets).
inline constexpr size_t kMinRetryKeyChars = 16;
inline constexpr size_t kMaxRetryKeyChars = 64;

// INVALID_ARGUMENT unless `key` is 16 to 64 printable characters.
absl::Status CheckRetryKey(const std::string& key);

// `Kept` is what a resend needs besides the match (e.g. the first answer).
template <typename Kept>
class RetryKeys {
 public:
  struct Earlier {
    std::shared_ptr<Match> match;
    const Kept* kept;  // valid until the table is next changed
  };

  // Claims `key` for a new request: nullopt if the caller is to make it
  // (then Settle); the earlier request's match if it was made and
  // its match is in memory; UNAVAILABLE while the first is being made.
  // `what` names the request in that message ("join", "match creation").
  absl::StatusOr<std::optional<Earlier>> Claim(const std::string& key,
                                               absl::string_view what) {
    auto [entry, inserted] = entries_.try_emplace(key);
    if (!inserted && entry->second.pending) {
      return absl::UnavailableError(
          absl::StrCat("a ", what, " with this retry_key is still being "
                       "made; resend it in a moment"));
    }
    if (std::shared_ptr<Match> match = entry->second.match.lock()) {
      return std::optional<Earlier>(Earlier{match, &entry->second.kept});
    }
    // New, or its match left memory: a request like any other.
    entry->second = Entry{};
    if (entries_.size() >= sweep_at_) Sweep();  // keeps this pending entry
    return std::optional<Earlier>();
  }

  // The claimed request was made (`made`: its match and what a resend
  // needs are kept), or failed (the key is free again).
  void Settle(const std::string& key, bool made,
              const std::shared_ptr<Match>& match, Kept kept) {
    if (!made) {
      entries_.erase(key);
      return;
    }
    Entry& entry = entries_[key];
    entry.match = match;
    entry.kept = std::move(kept);
    entry.pending = false;
  }

  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::weak_ptr<Match> match;
    Kept kept{};
    bool pending = true;
  };

  void Sweep() {
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (!it->second.pending && it->second.match.expired()) {
        entries_.erase(it++);
      } else {
        ++it;
      }
    }
    sweep_at_ = std::max<size_t>(64, 2 * entries_.size());
  }

  absl::flat_hash_map<std::string, Entry> entries_;
  size_t sweep_at_ = 64;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_RETRY_KEYS_H_
