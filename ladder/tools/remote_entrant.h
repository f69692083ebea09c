// A remote entrant: its bot runs on its author's machine and takes the
// ladder's seats by invitation with a bot credential (docs/ladder.md,
// "Remote entrants"), so the ladder starts no process for it. Its one
// version is stored with a command that says so, which no program has.
#ifndef CARDREF_LADDER_TOOLS_REMOTE_ENTRANT_H_
#define CARDREF_LADDER_TOOLS_REMOTE_ENTRANT_H_

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace cardref::ladder {

inline constexpr char kRemoteCommandPrefix[] = "remote:";

// The stored command of `entrant`'s remote version.
inline std::string RemoteCommand(const std::string& entrant) {
  return absl::StrCat(kRemoteCommandPrefix, entrant);
}

inline bool IsRemoteCommand(const std::string& command) {
  return absl::StartsWith(command, kRemoteCommandPrefix);
}

// Where the runner writes the bot credential of a remote version (its
// player name "<entrant>-v<id>"), owner-only, for the organiser to hand
// to its author: <ladder folder>/credentials/<player>.credential.
inline std::string CredentialFile(const std::string& ladder_folder,
                                  const std::string& player) {
  return absl::StrCat(ladder_folder, "/credentials/", player, ".credential");
}

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_TOOLS_REMOTE_ENTRANT_H_
