#include "sandbox/cgroup_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace cardref::sandbox {
namespace {

constexpr size_t kMaxSmallFile = 1 << 20;

absl::Status ErrnoStatus(int err, absl::string_view what) {
  const std::string message = absl::StrCat(what, ": ", std::strerror(err));
  switch (err) {
    case ENOENT:
      return absl::NotFoundError(message);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(message);
    case ENOSPC:
    case EAGAIN:
      return absl::ResourceExhaustedError(message);
    case EBUSY:
      return absl::FailedPreconditionError(message);
    case EINVAL:
      return absl::InvalidArgumentError(message);
    default:
      return absl::InternalError(message);
  }
}

}  // namespace

absl::StatusOr<std::string> ReadSmallFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, absl::StrCat("cannot open ", path));
  std::string text;
  char buffer[4096];
  while (text.size() < kMaxSmallFile) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      return ErrnoStatus(err, absl::StrCat("cannot read ", path));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return text;
}

absl::Status WriteControlFile(const std::string& path, absl::string_view text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return ErrnoStatus(errno, absl::StrCat("cannot open ", path,
                                           " to write '", text, "'"));
  }
  ssize_t n;
  do {
    n = write(fd, text.data(), text.size());
  } while (n < 0 && errno == EINTR);
  const int err = errno;
  close(fd);
  if (n < 0) {
    return ErrnoStatus(err, absl::StrCat("cannot write '", text, "' to ", path));
  }
  if (static_cast<size_t>(n) != text.size()) {
    return absl::InternalError(
        absl::StrCat("short write of '", text, "' to ", path));
  }
  return absl::OkStatus();
}

absl::flat_hash_map<std::string, int64_t> ParseKeyedCounters(
    absl::string_view text) {
  absl::flat_hash_map<std::string, int64_t> counters;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const std::vector<absl::string_view> fields =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    int64_t value = 0;
    if (fields.size() == 2 && absl::SimpleAtoi(fields[1], &value)) {
      counters[std::string(fields[0])] = value;
    }
  }
  return counters;
}

std::optional<int64_t> ParseSingleCounter(absl::string_view text) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(text), &value)) {
    return std::nullopt;
  }
  return value;
}

absl::StatusOr<std::vector<int>> ParseCpuList(absl::string_view text) {
  std::vector<int> cpus;
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return cpus;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    const std::vector<absl::string_view> ends = absl::StrSplit(part, '-');
    int first = 0;
    int last = 0;
    const bool ok =
        (ends.size() == 1 && absl::SimpleAtoi(ends[0], &first) &&
         (last = first, true)) ||
        (ends.size() == 2 && absl::SimpleAtoi(ends[0], &first) &&
         absl::SimpleAtoi(ends[1], &last));
    // 4096 CPUs: the kernel's largest NR_CPUS.
    if (!ok || first < 0 || last < first || last >= 4096) {
      return absl::InvalidArgumentError(
          absl::StrCat("not a CPU list: '", text.substr(0, 80), "'"));
    }
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string FormatCpuList(const std::vector<int>& cpus) {
  std::string text;
  size_t i = 0;
  while (i < cpus.size()) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!text.empty()) text += ',';
    absl::StrAppend(&text, cpus[i]);
    if (j > i) absl::StrAppend(&text, "-", cpus[j]);
    i = j + 1;
  }
  return text;
}

std::vector<pid_t> ParsePidList(absl::string_view text) {
  std::vector<pid_t> pids;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    int pid = 0;
    if (absl::SimpleAtoi(line, &pid) && pid > 0) pids.push_back(pid);
  }
  return pids;
}

}  // namespace cardref::sandbox
