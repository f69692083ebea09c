// The folders sandboxed bots may read (docs/sandbox.md): each bot's own,
// derived from its command or named by the organiser
// (--bot_folder=NAME=DIR, the config's `folder`), checked before the
// event plays so that a bot that could not start is found at once.
#ifndef CARDREF_TOURNAMENT_BOT_FOLDERS_H_
#define CARDREF_TOURNAMENT_BOT_FOLDERS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tournament/bot_launcher.h"
#include "tournament/schedule.h"

namespace cardref::tournament {

// "NAME=DIR" into `folders`: INVALID_ARGUMENT for another shape, a name no
// bot has (`bots`), or a second folder for one bot.
[[nodiscard]] absl::Status AddBotFolder(const std::string& text,
                                        const std::vector<BotSpec>& bots,
                                        BotFolders* folders);

// Each bot's folder (sandbox::ResolveBotFolder: named, or its program's,
// or its script's), and that the sandbox's uids (no groups) can read it
// and reach it: the folder readable and searchable by others, each folder
// above it searchable. INVALID_ARGUMENT or NOT_FOUND naming the bot and
// what to change.
[[nodiscard]] absl::Status CheckBotFolders(const std::vector<BotSpec>& bots,
                                           const BotFolders& folders);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_BOT_FOLDERS_H_
