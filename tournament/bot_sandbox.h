// The bot sandbox of a competition that starts its bots itself (the
// tournament, the ladder): a BotLauncher whose bots reach the referee only
// through their sockets, made only once a connection made that way has
// been shown never to be the organiser's (bot_path.h, docs/auth.md,
// "Sandboxed bots").
#ifndef CARDREF_TOURNAMENT_BOT_SANDBOX_H_
#define CARDREF_TOURNAMENT_BOT_SANDBOX_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tournament/bot_launcher.h"
#include "tournament/uid_pool.h"

namespace cardref::tournament {

// The sandbox for `slots` bots at once (SandboxHost's CPU plan), reaching
// `server` ("host:port" of the referee) through their forwarders, each
// seeing its folder in `folders` (or its program's). Errors: those of
// BotsRefereeAddress; FAILED_PRECONDITION when the referee would take a
// sandboxed bot's connection for the organiser's; UNAVAILABLE when the
// referee cannot be reached that way; those of SandboxHost::Create (not
// root, no bwrap, no cgroup controllers: the message says what is missing).
[[nodiscard]] absl::StatusOr<std::unique_ptr<BotLauncher>> StartBotSandbox(
    const std::string& server, int slots, const BotFolders& folders);

// "FIRST-LAST" as the uids of sandboxed bots: ParseUidRange's checks,
// and every uid below 2^31 (bubblewrap cannot map a larger one into its
// user namespace). INVALID_ARGUMENT saying which.
[[nodiscard]] absl::StatusOr<UidRange> ParseSandboxUidRange(
    absl::string_view text);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_BOT_SANDBOX_H_
