// The event folder: its secret (the source of every dealing seed) and the
// record of matches already played, so that running the same event again
// resumes it and plays nothing twice.
//
//   DIR/event.secret   32 random bytes, hex, mode 0600; never printed
//   DIR/matches.tsv    one line per match played: key, outcome, match id,
//                      log path, reason (tabs and newlines replaced)
//
// Every update rewrites matches.tsv as a temporary file, fsyncs it and
// renames it over the old one: a kill at any moment leaves the old record
// or the new one, never half a line.
#ifndef CARDREF_TOURNAMENT_EVENT_STATE_H_
#define CARDREF_TOURNAMENT_EVENT_STATE_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace cardref::tournament {

// What became of one scheduled match.
struct MatchRecord {
  std::string key;
  // "finished", "aborted", "cancelled", "failed"; "started" while it is
  // played (a run killed then leaves it, and the next run looks it up).
  std::string outcome;
  std::string match_id;
  std::string log_path;
  std::string reason;  // why it did not finish, bot faults; may be empty
};

// The event secret of `dir`, created (with `dir` and its missing parents)
// on the first run.
[[nodiscard]] absl::StatusOr<std::string> LoadOrCreateSecret(
    const std::string& dir);

// The 32-byte dealing seed of a deal set: SHA-256 of a domain tag, the
// secret and the deal set's key. Unguessable without the secret, the same
// on every run of the event.
std::string DealSeed(const std::string& secret, const std::string& deal_set);

// The deal set's id at the referee: the schedule's key after a tag of the
// event (from its secret), so that two events, or two runs of one with
// different secrets, never share a deal set on one referee.
std::string RefereeDealSetId(const std::string& secret,
                             const std::string& deal_set);

// The seed a bot process gets in CARDREF_MATCH_SEED (decimal, 64 bits): a
// SHA-256 of a domain tag, the event secret, the match key and the seat,
// so that no two matches or seats of an event share one (two matches never
// replay each other by accident), a resumed match gets its own again, and
// it says nothing about the deals.
uint64_t BotSeed(const std::string& secret, const std::string& match_key,
                 int seat);

// Writes `contents` to `path` atomically (temp file, fsync, rename, fsync
// of the folder) with `mode`.
[[nodiscard]] absl::Status WriteFileAtomically(const std::string& path,
                                               const std::string& contents,
                                               int mode);

class EventState {
 public:
  // Reads DIR/matches.tsv if there is one. INVALID_ARGUMENT naming the line
  // if it is damaged.
  [[nodiscard]] static absl::StatusOr<EventState> Open(const std::string& dir);

  EventState(EventState&& other) noexcept;

  // Recorded with an outcome other than "started".
  bool Played(const std::string& key) const;
  // Records `record` and rewrites the file; thread-safe.
  [[nodiscard]] absl::Status Record(const MatchRecord& record);
  std::map<std::string, MatchRecord> records() const;

 private:
  explicit EventState(std::string dir) : dir_(std::move(dir)) {}

  std::string dir_;
  mutable std::mutex mu_;
  std::map<std::string, MatchRecord> records_;
};

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_EVENT_STATE_H_
