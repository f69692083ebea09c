#include "referee/service/bot_credentials.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "referee/base/hex.h"
#include "referee/base/random_bytes.h"
#include "referee/base/secret_file.h"
#include "referee/base/sha256.h"
#include "referee/service/text_limits.h"

namespace cardref::service {
namespace {

constexpr char kFileTag[] = "cardref-bot-credentials 1";
// A name, a hash, two numbers: far below this per entrant.
constexpr size_t kMaxFileBytes = 16 << 20;

absl::Status ErrnoStatus(const char* what, const std::string& path) {
  return absl::UnavailableError(absl::StrCat(
      "cannot ", what, " the bot credentials file ", path, ": ",
      std::strerror(errno)));
}

// Writes `text` to `path` through a temporary file, synced, renamed over
// it, then the folder synced: a crash leaves the old file or the new one.
absl::Status WriteAtomically(const std::string& path, const std::string& text) {
  const std::string temp = absl::StrCat(path, ".tmp");
  const int fd =
      open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return ErrnoStatus("create", temp);
  size_t done = 0;
  bool ok = fchmod(fd, 0600) == 0;  // whatever the umask
  while (ok && done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  ok = ok && fsync(fd) == 0;
  const int saved = errno;
  close(fd);
  if (!ok) {
    unlink(temp.c_str());
    errno = saved;
    return ErrnoStatus("write", temp);
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    const int renamed = errno;
    unlink(temp.c_str());
    errno = renamed;
    return ErrnoStatus("rename", temp);
  }
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const int dir_fd = open(dir.empty() ? "/" : dir.c_str(),
                          O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    fsync(dir_fd);
    close(dir_fd);
  }
  return absl::OkStatus();
}

absl::Status Damaged(const std::string& path, int line, absl::string_view why) {
  return absl::DataLossError(absl::StrCat("the bot credentials file ", path,
                                          " is damaged at line ", line, ": ",
                                          why));
}

}  // namespace

absl::Status UnknownCredentialError() {
  return absl::PermissionDeniedError(
      "the bot credential is not one this referee holds: it was never "
      "issued here, or it was revoked or replaced (docs/auth.md, \"Bot "
      "credentials\")");
}

std::string BotEntrant::credential_id() const {
  return ToHex(credential_sha256).substr(0, 8);
}

absl::StatusOr<std::unique_ptr<BotCredentials>> BotCredentials::Open(
    std::string path) {
  std::unique_ptr<BotCredentials> store(new BotCredentials(std::move(path)));
  if (store->path_.empty()) return store;
  absl::StatusOr<std::string> text =
      ReadSecretFile(store->path_, "the bot credentials file", kMaxFileBytes);
  if (absl::IsNotFound(text.status())) return store;
  if (!text.ok()) return text.status();
  const std::vector<absl::string_view> lines =
      absl::StrSplit(*text, '\n', absl::SkipEmpty());
  if (lines.empty() || lines[0] != kFileTag) {
    return Damaged(store->path_, 1,
                   absl::StrCat("it does not start with '", kFileTag, "'"));
  }
  absl::MutexLock lock(&store->mu_);
  for (size_t i = 1; i < lines.size(); ++i) {
    const int line = static_cast<int>(i) + 1;
    const std::vector<std::string> fields = absl::StrSplit(lines[i], '\t');
    if (fields.size() != 4) {
      return Damaged(store->path_, line, "expected 4 tab-separated fields");
    }
    BotEntrant entrant;
    entrant.name = fields[0];
    absl::StatusOr<std::string> hash = FromHex(fields[1], crypto::kSha256Size, "hash");
    if (!hash.ok() || !absl::SimpleAtoi(fields[2], &entrant.latency_allowance_millis) ||
        !absl::SimpleAtoi(fields[3], &entrant.issued_unix_millis) ||
        !CheckPlayerName("name", entrant.name).ok()) {
      return Damaged(store->path_, line,
                     "expected a player name, a SHA-256 in hex and two "
                     "integers");
    }
    entrant.credential_sha256 = *std::move(hash);
    if (store->by_name_.count(entrant.name) > 0) {
      return Damaged(store->path_, line, "a name listed twice");
    }
    store->by_hash_[entrant.credential_sha256] = entrant.name;
    store->by_name_[entrant.name] = std::move(entrant);
  }
  return store;
}

absl::Status BotCredentials::SaveLocked(
    const std::map<std::string, BotEntrant>& entrants) {
  if (path_.empty()) return absl::OkStatus();
  std::string text = absl::StrCat(kFileTag, "\n");
  for (const auto& [name, e] : entrants) {
    absl::StrAppend(&text, name, "\t", ToHex(e.credential_sha256), "\t",
                    e.latency_allowance_millis, "\t", e.issued_unix_millis,
                    "\n");
  }
  return WriteAtomically(path_, text);
}

absl::StatusOr<BotCredentials::Issued> BotCredentials::Issue(
    const std::string& name, int64_t latency_allowance_millis, bool replace,
    int64_t max_latency_allowance_millis, absl::Time now) {
  if (name.empty()) {
    return absl::InvalidArgumentError(
        "'entrant' is empty: a credential binds a player name");
  }
  if (absl::Status st = CheckPlayerName("entrant", name); !st.ok()) return st;
  if (latency_allowance_millis < 0 ||
      (max_latency_allowance_millis > 0 &&
       latency_allowance_millis > max_latency_allowance_millis)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "latency_allowance_millis ", latency_allowance_millis,
        " is outside 0..", max_latency_allowance_millis,
        ", this referee's range (--max_latency_allowance_ms)"));
  }
  absl::StatusOr<std::string> secret = crypto::RandomBytes(32);
  if (!secret.ok()) return secret.status();
  Issued issued;
  issued.credential = ToHex(*secret);
  issued.entrant.name = name;
  issued.entrant.credential_sha256 = crypto::Sha256(issued.credential);
  issued.entrant.latency_allowance_millis = latency_allowance_millis;
  issued.entrant.issued_unix_millis = absl::ToUnixMillis(now);

  absl::MutexLock lock(&mu_);
  auto old = by_name_.find(name);
  if (old != by_name_.end() && !replace) {
    return absl::AlreadyExistsError(absl::StrCat(
        "entrant '", QuotePrefix(name), "' has a bot credential (",
        old->second.credential_id(),
        ") already: revoke it first, or issue with replace"));
  }
  std::map<std::string, BotEntrant> next = by_name_;
  next[name] = issued.entrant;
  if (absl::Status st = SaveLocked(next); !st.ok()) return st;
  if (old != by_name_.end()) by_hash_.erase(old->second.credential_sha256);
  by_hash_[issued.entrant.credential_sha256] = name;
  by_name_ = std::move(next);
  return issued;
}

absl::StatusOr<BotEntrant> BotCredentials::Revoke(const std::string& name) {
  absl::MutexLock lock(&mu_);
  auto it = by_name_.find(name);
  if (it == by_name_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "entrant '", QuotePrefix(name), "' has no bot credential"));
  }
  BotEntrant revoked = it->second;
  std::map<std::string, BotEntrant> next = by_name_;
  next.erase(name);
  if (absl::Status st = SaveLocked(next); !st.ok()) return st;
  by_hash_.erase(revoked.credential_sha256);
  by_name_ = std::move(next);
  return revoked;
}

std::optional<BotEntrant> BotCredentials::FindByCredential(
    const std::string& credential) const {
  // Looked up by its hash: no comparison of the secret itself.
  const std::string hash = crypto::Sha256(credential);
  absl::MutexLock lock(&mu_);
  auto it = by_hash_.find(hash);
  if (it == by_hash_.end()) return std::nullopt;
  return by_name_.at(it->second);
}

std::optional<BotEntrant> BotCredentials::FindByName(
    const std::string& name) const {
  absl::MutexLock lock(&mu_);
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

bool BotCredentials::IsEntrant(const std::string& name) const {
  absl::MutexLock lock(&mu_);
  return by_name_.count(name) > 0;
}

std::vector<BotEntrant> BotCredentials::List() const {
  absl::MutexLock lock(&mu_);
  std::vector<BotEntrant> all;
  all.reserve(by_name_.size());
  for (const auto& [name, e] : by_name_) all.push_back(e);
  return all;
}

}  // namespace cardref::service
