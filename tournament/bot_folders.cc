#include "tournament/bot_folders.h"

#include <sys/stat.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "sandbox/bot_folder.h"

namespace cardref::tournament {

absl::Status AddBotFolder(const std::string& text,
                          const std::vector<BotSpec>& bots,
                          BotFolders* folders) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 ||
      equals + 1 == text.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot_folder wants NAME=DIR (a bot's name and the folder it may "
        "read), got '",
        text, "'"));
  }
  const std::string name = text.substr(0, equals);
  bool known = false;
  for (const BotSpec& bot : bots) known |= bot.name == name;
  if (!known) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot_folder names '", name, "', which is no bot of the event"));
  }
  if (!folders->emplace(name, text.substr(equals + 1)).second) {
    return absl::InvalidArgumentError(
        absl::StrCat("bot '", name, "' has two folders; give one"));
  }
  return absl::OkStatus();
}

absl::Status CheckBotFolders(const std::vector<BotSpec>& bots,
                             const BotFolders& folders) {
  for (const BotSpec& bot : bots) {
    auto named = folders.find(bot.name);
    absl::StatusOr<sandbox::BotFolder> folder = sandbox::ResolveBotFolder(
        bot.command, named == folders.end() ? "" : named->second);
    if (!folder.ok()) {
      return absl::Status(
          folder.status().code(),
          absl::StrCat("bot '", bot.name, "': ", folder.status().message(),
                       " (--bot_folder=", bot.name, "=DIR names its folder)"));
    }
    // The bot runs as a uid with no groups: only the bits for others count.
    std::filesystem::path path = folder->folder;
    for (bool own = true; !path.empty(); own = false) {
      struct stat st;
      const mode_t need = own ? (S_IROTH | S_IXOTH) : S_IXOTH;
      if (stat(path.c_str(), &st) == 0 && (st.st_mode & need) != need) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "bot '%s': the sandbox runs it as a uid of its own, which "
            "cannot %s %s (mode %04o): chmod o+%s %s, or name another "
            "folder with --bot_folder=%s=DIR",
            bot.name, own ? "read" : "pass through", path.string(),
            st.st_mode & 07777, own ? "rx" : "x", path.string(), bot.name));
      }
      if (path == path.root_path()) break;
      path = path.parent_path();
    }
  }
  return absl::OkStatus();
}

}  // namespace cardref::tournament
