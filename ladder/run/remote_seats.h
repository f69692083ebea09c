// Remote entrants on the ladder's referee (docs/ladder.md, "Remote
// entrants"): each remote version's bot credential, issued by the
// referee as the organiser and written owner-only into the ladder's folder
// for the organiser to hand over, and whether its bot is connected.
//
// The referee keeps credentials (their hashes) in its own folder
// (<referee>/logs/bot_credentials), so a credential outlives the runner: a
// runner started again finds it there and issues none.
//
// Thread-safe: workers share one.
#ifndef CARDREF_LADDER_RUN_REMOTE_SEATS_H_
#define CARDREF_LADDER_RUN_REMOTE_SEATS_H_

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "cardref/v1/referee.grpc.pb.h"

namespace cardref::ladder::run {

class RemoteSeats {
 public:
  // `folder`: the ladder's folder (credentials/ goes there).
  explicit RemoteSeats(std::string folder) : folder_(std::move(folder)) {}

  // Makes sure `player` ("<entrant>-v<id>") has a credential on the
  // referee behind `stub`: one issued before is kept (its author has it);
  // else a new one is issued and written to CredentialFile (mode 0600).
  // Returns a line for the organiser (where the file is, or that it was
  // issued before), empty once said. Errors of the referee's calls.
  [[nodiscard]] absl::StatusOr<std::string> EnsureCredential(
      cardref::v1::Referee::Stub& stub,
      const std::optional<std::string>& organiser_token,
      const std::string& player) ABSL_LOCKS_EXCLUDED(mu_);

  // The invitation streams `player`'s bot holds open now (0 when it has no
  // credential).
  [[nodiscard]] static absl::StatusOr<int> OpenStreams(
      cardref::v1::Referee::Stub& stub,
      const std::optional<std::string>& organiser_token,
      const std::string& player);

  // Forgets which credentials were checked (a restarted referee is asked
  // again).
  void Forget() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const std::string folder_;
  absl::Mutex mu_;
  std::set<std::string> checked_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::ladder::run

#endif  // CARDREF_LADDER_RUN_REMOTE_SEATS_H_
