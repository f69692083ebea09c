// The content hash that identifies a version of a bot: what the entrant
// submitted, so the same program submitted twice is the same version.
#ifndef CARDREF_LADDER_TOOLS_CONTENT_HASH_H_
#define CARDREF_LADDER_TOOLS_CONTENT_HASH_H_

#include <string>

#include "absl/status/statusor.h"

namespace cardref::ladder {

// SHA-256, as 64 lowercase hex digits, of a file's bytes, or of a folder:
// every entry under it in byte order of its relative path, each as its
// kind (file, link, folder), path, and for a file its size and the hash of
// its bytes, for a link its target (links are not followed). Renaming,
// adding or changing any file changes the hash; timestamps and permissions
// do not count. NOT_FOUND if `path` does not exist; PERMISSION_DENIED or
// INTERNAL if something under it cannot be read.
[[nodiscard]] absl::StatusOr<std::string> ContentHash(const std::string& path);

// What identifies a version of `command` when the organiser names nothing
// to hash: the folder the bot sandbox shows its bot
// (sandbox::ResolveBotFolder: its program's, or for an interpreter in a
// system folder its script's), since what it can read is what ran; else,
// when that cannot be resolved, the command's first word.
std::string VersionHashPath(const std::string& command);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_TOOLS_CONTENT_HASH_H_
