#include "ladder/tools/content_hash.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"
#include "referee/base/status_macros.h"
#include "sandbox/bot_folder.h"

namespace cardref::ladder {
namespace {

namespace fs = std::filesystem;

absl::Status ReadError(const fs::path& path, const std::error_code& error) {
  const std::string message =
      absl::StrCat("reading ", path.string(), ": ", error.message());
  if (error == std::errc::permission_denied) {
    return absl::PermissionDeniedError(message);
  }
  if (error == std::errc::no_such_file_or_directory) {
    return absl::NotFoundError(message);
  }
  return absl::InternalError(message);
}

// SHA-256 of a file's bytes, read in pieces.
absl::StatusOr<std::string> HashFile(const fs::path& path, uint64_t* size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return ReadError(path, std::make_error_code(std::errc::permission_denied));
  }
  crypto::Sha256Hasher hasher;
  std::vector<char> buffer(1 << 16);
  *size = 0;
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize got = in.gcount();
    if (got <= 0) break;
    hasher.Update(absl::string_view(buffer.data(), static_cast<size_t>(got)));
    *size += static_cast<uint64_t>(got);
  }
  if (in.bad()) {
    return absl::InternalError(absl::StrCat("reading ", path.string()));
  }
  return hasher.Finish();
}

}  // namespace

absl::StatusOr<std::string> ContentHash(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::symlink_status(path, error);
  if (error || !fs::exists(status)) {
    return absl::NotFoundError(absl::StrCat(path, " does not exist"));
  }
  if (!fs::is_directory(status)) {
    uint64_t size = 0;
    ASSIGN_OR_RETURN(std::string digest, HashFile(path, &size));
    return ToHex(digest);
  }
  std::vector<fs::path> entries;
  fs::recursive_directory_iterator it(
      path, fs::directory_options::none, error);
  if (error) return ReadError(path, error);
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) return ReadError(path, error);
    entries.push_back(it->path());
  }
  if (error) return ReadError(path, error);
  // Relative paths in byte order: the same tree hashes the same anywhere.
  std::vector<std::string> relative;
  relative.reserve(entries.size());
  for (const fs::path& entry : entries) {
    relative.push_back(fs::relative(entry, path).generic_string());
  }
  std::sort(relative.begin(), relative.end());
  crypto::Sha256Hasher tree;
  tree.Update("cardref-ladder-folder-v1");
  for (const std::string& name : relative) {
    const fs::path full = fs::path(path) / name;
    const fs::file_status entry = fs::symlink_status(full, error);
    if (error) return ReadError(full, error);
    // Lengths before strings, so no two trees give the same byte stream.
    auto add = [&tree](absl::string_view field) {
      tree.Update(absl::StrCat(field.size(), ":"));
      tree.Update(field);
    };
    if (fs::is_symlink(entry)) {
      const fs::path target = fs::read_symlink(full, error);
      if (error) return ReadError(full, error);
      add("link");
      add(name);
      add(target.string());
    } else if (fs::is_directory(entry)) {
      add("folder");
      add(name);
    } else {
      uint64_t size = 0;
      ASSIGN_OR_RETURN(std::string digest, HashFile(full, &size));
      add("file");
      add(name);
      add(absl::StrCat(size));
      add(digest);
    }
  }
  return ToHex(tree.Finish());
}

std::string VersionHashPath(const std::string& command) {
  const std::vector<std::string> argv =
      absl::StrSplit(command, ' ', absl::SkipEmpty());
  absl::StatusOr<sandbox::BotFolder> folder =
      sandbox::ResolveBotFolder(argv, "");
  if (folder.ok()) return folder->folder;
  return command.substr(0, command.find(' '));
}

}  // namespace cardref::ladder
