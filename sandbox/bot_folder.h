// Which folder of the host a bot sees (read-only) besides the system's
// programs and libraries: the folder of its program; when the program is
// in a system folder (an interpreter: python3, java), the folder of the
// first argument that names an existing file outside the system folders
// (the script, the jar); or a folder the organiser names.
#ifndef CARDREF_SANDBOX_BOT_FOLDER_H_
#define CARDREF_SANDBOX_BOT_FOLDER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::sandbox {

// What every sandbox sees of the host, read-only (those that exist; /etc
// only in part, sandbox.h).
inline constexpr const char* kSystemFolders[] = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"};

// The PATH inside a sandbox, which also finds a program named without a
// slash.
inline constexpr char kSandboxPath[] = "/usr/local/bin:/usr/bin:/bin";

// True when `path` (absolute, symlinks resolved) is a system folder or
// inside one.
bool InSystemFolder(absl::string_view path);

struct BotFolder {
  std::string folder;  // absolute, symlinks resolved
  // The command with the program and the file that chose the folder made
  // absolute and their symlinks resolved, since the sandbox shows the
  // folder at its real path only and starts the bot in it.
  std::vector<std::string> argv;
};

// `named_folder` (empty: none) wins over the program's folder. Relative
// paths are taken from the caller's working folder. Errors: INVALID_ARGUMENT
// for an empty command, "/" as the folder, or an interpreter without a
// file argument outside the system folders (the message says to name the
// folder); NOT_FOUND for a program or folder that does not exist.
[[nodiscard]] absl::StatusOr<BotFolder> ResolveBotFolder(
    const std::vector<std::string>& argv, const std::string& named_folder);

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_BOT_FOLDER_H_
