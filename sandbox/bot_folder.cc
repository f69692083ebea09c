#include "sandbox/bot_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace cardref::sandbox {
namespace {

std::optional<std::string> RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  return std::string(resolved);
}

std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

bool InSystemFolder(absl::string_view path) {
  for (const char* folder : kSystemFolders) {
    if (path == folder || absl::StartsWith(path, absl::StrCat(folder, "/"))) {
      return true;
    }
  }
  return false;
}

absl::StatusOr<BotFolder> ResolveBotFolder(const std::vector<std::string>& argv,
                                           const std::string& named_folder) {
  if (argv.empty() || argv[0].empty()) {
    return absl::InvalidArgumentError("a bot needs a command");
  }
  BotFolder result;
  result.argv = argv;
  const std::string& program = argv[0];
  std::optional<std::string> resolved;
  int err = ENOENT;
  if (program.find('/') != std::string::npos) {
    resolved = RealPath(program);
    err = errno;
  } else {
    for (absl::string_view dir : absl::StrSplit(kSandboxPath, ':')) {
      const std::string candidate = absl::StrCat(dir, "/", program);
      if (access(candidate.c_str(), X_OK) == 0 && IsRegularFile(candidate)) {
        resolved = RealPath(candidate);
        break;
      }
    }
  }
  if (!resolved.has_value()) {
    return absl::NotFoundError(absl::StrCat(
        "the bot's program '", program, "' ",
        program.find('/') != std::string::npos
            ? absl::StrCat("cannot be found: ", std::strerror(err))
            : absl::StrCat("is not in the sandbox's PATH (", kSandboxPath,
                           "): name it by its path")));
  }
  // A program named without a slash stays so: the sandbox's PATH finds it.
  if (program.find('/') != std::string::npos) result.argv[0] = *resolved;

  if (!named_folder.empty()) {
    std::optional<std::string> folder = RealPath(named_folder);
    struct stat st;
    if (!folder.has_value() || stat(folder->c_str(), &st) != 0 ||
        !S_ISDIR(st.st_mode)) {
      return absl::NotFoundError(absl::StrCat(
          "the bot's folder '", named_folder, "' is not a folder"));
    }
    result.folder = *folder;
  } else if (!InSystemFolder(*resolved)) {
    result.folder = Parent(*resolved);
  } else {
    for (size_t i = 1; i < argv.size(); ++i) {
      if (argv[i].empty() || !IsRegularFile(argv[i])) continue;
      std::optional<std::string> file = RealPath(argv[i]);
      if (!file.has_value() || InSystemFolder(*file)) continue;
      result.argv[i] = *file;
      result.folder = Parent(*file);
      break;
    }
    if (result.folder.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot tell the bot's folder of '",
          absl::StrJoin(argv, " ").substr(0, 120), "': its program ",
          *resolved, " is in a system folder and no argument names a file "
          "outside the system folders; name the bot's folder"));
    }
  }
  if (result.folder == "/") {
    return absl::InvalidArgumentError(absl::StrCat(
        "the bot's folder would be / (the whole machine), for '",
        absl::StrJoin(argv, " ").substr(0, 120),
        "': put the bot in a folder of its own"));
  }
  return result;
}

}  // namespace cardref::sandbox
