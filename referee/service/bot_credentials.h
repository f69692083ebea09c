// Bot credentials: the organiser issues one per entrant (a player name);
// a bot that holds it connects once (WatchInvitations) and is invited to
// seats, and only it joins under the entrant's name (docs/auth.md, "Bot
// credentials"). The referee keeps the SHA-256 of each credential, never the
// credential, in one file in its log folder, so they survive a restart:
//
//   cardref-bot-credentials 1
//   <name>\t<sha256 hex>\t<latency allowance ms>\t<issued, unix ms>
//
// one line per entrant, rewritten whole (temp file, fsync, rename, fsync of
// the folder) at every change, mode 0600, owned by the referee's user
// (refused otherwise, as every secret file: secret_file.h). Names hold no
// tab or newline (CheckPlayerName refuses control characters).
//
// Thread-safe.
#ifndef CARDREF_REFEREE_SERVICE_BOT_CREDENTIALS_H_
#define CARDREF_REFEREE_SERVICE_BOT_CREDENTIALS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace cardref::service {

// One entrant's credential as the referee keeps it.
struct BotEntrant {
  std::string name;
  std::string credential_sha256;  // 32 bytes
  int64_t latency_allowance_millis = 0;
  int64_t issued_unix_millis = 0;
  // The first 8 hex digits of credential_sha256: names a credential in
  // lists and logs without being usable.
  std::string credential_id() const;
};

// A credential is 32 random bytes from the OS generator as 64 lowercase hex
// digits.
inline constexpr size_t kBotCredentialChars = 64;

// PERMISSION_DENIED for a credential the store does not hold.
absl::Status UnknownCredentialError();

class BotCredentials {
 public:
  // Reads `path` if it exists; a missing file is an empty store (created at
  // the first Issue). An empty path keeps the store in memory only (tests).
  // FAILED_PRECONDITION for a file another user owns or others may read;
  // DATA_LOSS naming the line of a damaged one.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<BotCredentials>> Open(
      std::string path);

  // A new credential for `name` (the entrant's record and the secret). The
  // name must pass CheckPlayerName; the allowance 0 to
  // `max_latency_allowance_millis` (0: no maximum). ALREADY_EXISTS for an
  // entrant with a credential unless `replace`; UNAVAILABLE if the file
  // cannot be written (nothing changes then).
  struct Issued {
    BotEntrant entrant;
    std::string credential;
  };
  [[nodiscard]] absl::StatusOr<Issued> Issue(
      const std::string& name, int64_t latency_allowance_millis, bool replace,
      int64_t max_latency_allowance_millis, absl::Time now);

  // Removes `name`'s credential: the entrant's record as it was. NOT_FOUND
  // if it has none; UNAVAILABLE if the file cannot be written.
  [[nodiscard]] absl::StatusOr<BotEntrant> Revoke(const std::string& name);

  // The entrant whose credential `credential` is, if any (looked up by its
  // SHA-256).
  std::optional<BotEntrant> FindByCredential(
      const std::string& credential) const ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<BotEntrant> FindByName(const std::string& name) const
      ABSL_LOCKS_EXCLUDED(mu_);
  bool IsEntrant(const std::string& name) const ABSL_LOCKS_EXCLUDED(mu_);
  // By name.
  std::vector<BotEntrant> List() const ABSL_LOCKS_EXCLUDED(mu_);

  const std::string& path() const { return path_; }

 private:
  explicit BotCredentials(std::string path) : path_(std::move(path)) {}
  // Writes `entrants` to the file; the store changes only if it succeeds.
  absl::Status SaveLocked(const std::map<std::string, BotEntrant>& entrants)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string path_;
  mutable absl::Mutex mu_;
  std::map<std::string, BotEntrant> by_name_ ABSL_GUARDED_BY(mu_);
  // SHA-256 -> name.
  absl::flat_hash_map<std::string, std::string> by_hash_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_BOT_CREDENTIALS_H_
