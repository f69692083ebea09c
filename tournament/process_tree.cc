#include "tournament/process_tree.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/string_view.h"
#include "referee/record/record_io.h"

namespace cardref::tournament {
namespace {

// A small /proc file ("" if it cannot be read, as when the process is gone).
std::string ReadProcFile(const std::string& path) {
  constexpr uint64_t kMaxProcFileBytes = 1 << 20;  // a children list at most
  return record::ReadWholeFile(path, kMaxProcFileBytes).value_or("");
}

// The second field of /proc/PID/statm: resident pages.
int64_t ResidentKib(pid_t pid) {
  static const int64_t page_kib = sysconf(_SC_PAGESIZE) / 1024;
  const std::string statm = ReadProcFile(absl::StrCat("/proc/", pid, "/statm"));
  std::vector<absl::string_view> fields =
      absl::StrSplit(statm, ' ', absl::SkipEmpty());
  int64_t pages = 0;
  if (fields.size() < 2 || !absl::SimpleAtoi(fields[1], &pages)) return 0;
  return pages * page_kib;
}

// Appends the children of every thread of `pid` (a child belongs to the
// thread that forked it); returns the number of its threads.
int64_t AppendChildren(pid_t pid, std::vector<pid_t>* out) {
  const std::string task_dir = absl::StrCat("/proc/", pid, "/task");
  DIR* dir = opendir(task_dir.c_str());
  if (dir == nullptr) return 0;
  int64_t threads = 0;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    ++threads;
    const std::string children =
        ReadProcFile(absl::StrCat(task_dir, "/", entry->d_name, "/children"));
    for (absl::string_view field :
         absl::StrSplit(children, ' ', absl::SkipEmpty())) {
      pid_t child = 0;
      if (absl::SimpleAtoi(field, &child) && child > 0) out->push_back(child);
    }
  }
  closedir(dir);
  return threads;
}

}  // namespace

TreeUsage MeasureTree(pid_t root) {
  TreeUsage usage;
  std::vector<pid_t>& tree = usage.processes;
  tree.push_back(root);
  for (size_t i = 0; i < tree.size(); ++i) {
    const int64_t threads = AppendChildren(tree[i], &tree);
    usage.resident_kib += ResidentKib(tree[i]);
    usage.tasks += threads;
    if (tree.size() > static_cast<size_t>(kMaxTreeProcesses)) {
      tree.resize(kMaxTreeProcesses);
    }
  }
  // A process gone before it was read is not part of the tree.
  if (usage.tasks == 0) tree.clear();
  return usage;
}

int64_t ProportionalKib(const std::vector<pid_t>& processes) {
  int64_t total = 0;
  for (pid_t pid : processes) {
    const std::string rollup =
        ReadProcFile(absl::StrCat("/proc/", pid, "/smaps_rollup"));
    int64_t pss = -1;
    for (absl::string_view line : absl::StrSplit(rollup, '\n')) {
      if (!absl::ConsumePrefix(&line, "Pss:")) continue;
      absl::ConsumeSuffix(&line, "kB");
      if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(line), &pss)) pss = -1;
      break;
    }
    total += pss >= 0 ? pss : ResidentKib(pid);
  }
  return total;
}

}  // namespace cardref::tournament
