#include "sandbox/cgroup_layout.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "sandbox/cgroup_files.h"

namespace cardref::sandbox {
namespace {

struct Mount {
  std::string root;         // the folder of the hierarchy mounted there
  std::string mount_point;
  std::string fstype;
  std::vector<std::string> super_options;
};

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string Unescape(absl::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() &&
        field[i + 1] >= '0' && field[i + 1] <= '3') {
      out += static_cast<char>((field[i + 1] - '0') * 64 +
                               (field[i + 2] - '0') * 8 + (field[i + 3] - '0'));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

// Fields: id parent major:minor root mount_point options [optional...] -
// fstype source super_options.
std::vector<Mount> ParseCgroupMounts(absl::string_view mountinfo) {
  std::vector<Mount> mounts;
  for (absl::string_view line : absl::StrSplit(mountinfo, '\n')) {
    const std::vector<absl::string_view> f =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    size_t dash = 0;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (dash < 6 || dash + 1 >= f.size()) continue;
    Mount m;
    m.fstype = std::string(f[dash + 1]);
    if (m.fstype != "cgroup" && m.fstype != "cgroup2") continue;
    m.root = Unescape(f[3]);
    m.mount_point = Unescape(f[4]);
    if (dash + 3 < f.size()) {
      m.super_options = absl::StrSplit(f[dash + 3], ',');
    }
    mounts.push_back(std::move(m));
  }
  return mounts;
}

// The folder of cgroup `path` (as /proc/self/cgroup names it) in `mount`,
// or nullopt when the mount does not show it.
std::optional<std::string> FolderIn(const Mount& mount,
                                    const std::string& path) {
  if (mount.root == "/") {
    return path == "/" ? mount.mount_point
                       : absl::StrCat(mount.mount_point, path);
  }
  if (path == mount.root) return mount.mount_point;
  if (absl::StartsWith(path, absl::StrCat(mount.root, "/"))) {
    return absl::StrCat(mount.mount_point, path.substr(mount.root.size()));
  }
  return std::nullopt;
}

bool HasOption(const Mount& m, absl::string_view option) {
  for (const std::string& o : m.super_options) {
    if (o == option) return true;
  }
  return false;
}

}  // namespace

absl::string_view ControllerName(Controller controller) {
  switch (controller) {
    case Controller::kMemory:
      return "memory";
    case Controller::kPids:
      return "pids";
    case Controller::kCpu:
      return "cpu";
    case Controller::kCpuacct:
      return "cpuacct";
    case Controller::kCpuset:
      return "cpuset";
    case Controller::kFreezer:
      return "freezer";
  }
  return "?";
}

absl::string_view CgroupVersionName(CgroupVersion version) {
  switch (version) {
    case CgroupVersion::kNone:
      return "none";
    case CgroupVersion::kV1:
      return "v1";
    case CgroupVersion::kV2:
      return "v2";
  }
  return "?";
}

absl::StatusOr<CgroupLayout> ParseCgroupLayout(
    absl::string_view proc_self_cgroup, absl::string_view mountinfo,
    absl::FunctionRef<std::optional<std::string>(const std::string&)>
        read_file) {
  // "ID:controllers:path"; v2 is "0::path".
  absl::flat_hash_map<std::string, std::string> v1_paths;
  std::optional<std::string> v2_path;
  for (absl::string_view line : absl::StrSplit(proc_self_cgroup, '\n')) {
    if (line.empty()) continue;
    const std::vector<absl::string_view> f = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (f.size() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected line in /proc/self/cgroup: '",
                       line.substr(0, 120), "'"));
    }
    if (f[0] == "0" && f[1].empty()) {
      v2_path = std::string(f[2]);
      continue;
    }
    for (absl::string_view name : absl::StrSplit(f[1], ',')) {
      v1_paths[std::string(name)] = std::string(f[2]);
    }
  }
  const std::vector<Mount> mounts = ParseCgroupMounts(mountinfo);

  CgroupLayout v1;
  bool has_v2_mount = false;
  for (const Mount& m : mounts) {
    if (m.fstype == "cgroup2") {
      has_v2_mount = true;
      continue;
    }
    for (Controller c : kAllControllers) {
      const std::string name(ControllerName(c));
      if (!HasOption(m, name) || v1.Has(c)) continue;
      const auto path = v1_paths.find(name);
      if (path == v1_paths.end()) continue;
      if (std::optional<std::string> dir = FolderIn(m, path->second)) {
        v1.own_dirs[c] = *std::move(dir);
      }
    }
  }

  CgroupLayout v2;
  if (v2_path.has_value()) {
    for (const Mount& m : mounts) {
      if (m.fstype != "cgroup2") continue;
      const std::optional<std::string> dir = FolderIn(m, *v2_path);
      if (!dir.has_value()) continue;
      const std::optional<std::string> controllers =
          read_file(absl::StrCat(*dir, "/cgroup.controllers"));
      if (!controllers.has_value()) continue;
      for (absl::string_view name :
           absl::StrSplit(*controllers, absl::ByAnyChar(" \n"),
                          absl::SkipEmpty())) {
        for (Controller c : {Controller::kMemory, Controller::kPids,
                             Controller::kCpu, Controller::kCpuset}) {
          if (name == ControllerName(c)) v2.own_dirs[c] = *dir;
        }
      }
      v2.own_dirs[Controller::kCpuacct] = *dir;
      v2.own_dirs[Controller::kFreezer] = *dir;
      break;
    }
  }

  if (v2.Has(Controller::kMemory) && v2.Has(Controller::kPids)) {
    v2.version = CgroupVersion::kV2;
    v2.hybrid = !v1.own_dirs.empty();
    return v2;
  }
  if (!v1.own_dirs.empty()) {
    v1.version = CgroupVersion::kV1;
    v1.hybrid = has_v2_mount;
    return v1;
  }
  return CgroupLayout{};
}

absl::StatusOr<CgroupLayout> DetectCgroupLayout() {
  absl::StatusOr<std::string> cgroup = ReadSmallFile("/proc/self/cgroup");
  if (!cgroup.ok()) return cgroup.status();
  absl::StatusOr<std::string> mountinfo = ReadSmallFile("/proc/self/mountinfo");
  if (!mountinfo.ok()) return mountinfo.status();
  return ParseCgroupLayout(
      *cgroup, *mountinfo, [](const std::string& path) -> std::optional<std::string> {
        absl::StatusOr<std::string> text = ReadSmallFile(path);
        if (!text.ok()) return std::nullopt;
        return *std::move(text);
      });
}

}  // namespace cardref::sandbox
