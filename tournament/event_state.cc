#include "tournament/event_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "referee/base/hex.h"
#include "referee/base/random_bytes.h"
#include "referee/base/sha256.h"

namespace cardref::tournament {
namespace {

constexpr char kSecretFile[] = "event.secret";
constexpr char kMatchesFile[] = "matches.tsv";

absl::Status ErrnoError(const std::string& what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

std::string Clean(const std::string& field) {
  return absl::StrReplaceAll(field, {{"\t", " "}, {"\n", " | "}, {"\r", " "}});
}

}  // namespace

absl::Status WriteFileAtomically(const std::string& path,
                                 const std::string& contents, int mode) {
  const std::string temp = absl::StrCat(path, ".tmp");
  const int fd =
      open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return ErrnoError(absl::StrCat("cannot write ", temp));
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      close(fd);
      return ErrnoError(absl::StrCat("cannot write ", temp));
    }
    done += static_cast<size_t>(n);
  }
  if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
    close(fd);
    return ErrnoError(absl::StrCat("cannot sync ", temp));
  }
  close(fd);
  if (rename(temp.c_str(), path.c_str()) != 0) {
    return ErrnoError(absl::StrCat("cannot rename ", temp, " to ", path));
  }
  const size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : path.substr(0, slash);
  const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    fsync(dir_fd);
    close(dir_fd);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> LoadOrCreateSecret(const std::string& dir) {
  // Its parents too, as `mkdir -p` would (--out=events/first on a fresh
  // machine); the folder itself with its own mode.
  std::error_code error;
  const std::filesystem::path parent =
      std::filesystem::path(dir).lexically_normal().parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  if (error) {
    return absl::InternalError(absl::StrCat("cannot create the event folder ",
                                            dir, ": cannot create ",
                                            parent.string(), ": ",
                                            error.message()));
  }
  // Owner-only: the folder holds the event secret, the schedule and the
  // logs of matches whose twins are still to be played; a bot running as
  // another user must not read them.
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return ErrnoError(absl::StrCat("cannot create the event folder ", dir));
  }
  if (chmod(dir.c_str(), 0700) != 0) {
    return ErrnoError(absl::StrCat("cannot make the event folder ", dir,
                                   " owner-only"));
  }
  const std::string path = absl::StrCat(dir, "/", kSecretFile);
  std::ifstream in(path);
  if (in) {
    std::string hex;
    in >> hex;
    return FromHex(hex, 32, absl::StrCat(path, " (the event secret)"));
  }
  absl::StatusOr<std::string> secret = crypto::RandomBytes(32);
  if (!secret.ok()) return secret.status();
  absl::Status written =
      WriteFileAtomically(path, absl::StrCat(ToHex(*secret), "\n"), 0600);
  if (!written.ok()) return written;
  return secret;
}

std::string DealSeed(const std::string& secret, const std::string& deal_set) {
  return crypto::Sha256(absl::StrCat("cardref-tournament-deal-v1",
                                     std::string(1, '\0'), secret, deal_set));
}

std::string RefereeDealSetId(const std::string& secret,
                             const std::string& deal_set) {
  const std::string tag = crypto::Sha256(absl::StrCat(
      "cardref-tournament-deal-set-id-v1", std::string(1, '\0'), secret));
  return absl::StrCat(ToHex(tag.substr(0, 6)), "-", deal_set);
}

uint64_t BotSeed(const std::string& secret, const std::string& match_key,
                 int seat) {
  const std::string digest = crypto::Sha256(
      absl::StrCat("cardref-tournament-bot-seed-v1", std::string(1, '\0'),
                   secret, match_key, std::string(1, '\0'), seat));
  uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) {
    seed = (seed << 8) | static_cast<unsigned char>(digest[i]);
  }
  return seed;
}

absl::StatusOr<EventState> EventState::Open(const std::string& dir) {
  EventState state(dir);
  const std::string path = absl::StrCat(dir, "/", kMatchesFile);
  std::ifstream in(path);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    if (f.size() != 5 || f[0].empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", number,
          ": expected key, outcome, match id, log path and reason, "
          "tab-separated"));
    }
    state.records_[f[0]] = {f[0], f[1], f[2], f[3], f[4]};
  }
  return state;
}

EventState::EventState(EventState&& other) noexcept
    : dir_(std::move(other.dir_)), records_(std::move(other.records_)) {}

bool EventState::Played(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = records_.find(key);
  return it != records_.end() && it->second.outcome != "started";
}

absl::Status EventState::Record(const MatchRecord& record) {
  std::lock_guard<std::mutex> lock(mu_);
  records_[record.key] = record;
  std::string text;
  for (const auto& [key, r] : records_) {
    absl::StrAppend(
        &text,
        absl::StrJoin({Clean(r.key), Clean(r.outcome), Clean(r.match_id),
                       Clean(r.log_path), Clean(r.reason)},
                      "\t"),
        "\n");
  }
  return WriteFileAtomically(absl::StrCat(dir_, "/", kMatchesFile), text, 0600);
}

std::map<std::string, MatchRecord> EventState::records() const {
  std::lock_guard<std::mutex> lock(mu_);
  return records_;
}

}  // namespace cardref::tournament
