#include "analyzer/cli.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/stats.h"
#include "referee/base/ed25519.h"
#include "referee/record/record_io.h"

namespace cardref::analyzer {

namespace fs = std::filesystem;

absl::StatusOr<std::vector<std::string>> ExpandLogPaths(
    const std::vector<std::string>& args) {
  if (args.empty()) {
    return absl::InvalidArgumentError("no log files or directories given");
  }
  std::vector<std::string> files;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (!fs::is_directory(arg, ec)) {
      files.push_back(arg);  // a missing file is reported as UNREADABLE
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(arg, ec), end;
    if (ec) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot list directory ", arg, ": ", ec.message()));
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        return absl::InvalidArgumentError(
            absl::StrCat("cannot list directory ", arg, ": ", ec.message()));
      }
      if (it->is_regular_file(ec) && it->path().extension() == kLogExtension) {
        found.push_back(it->path().string());
      }
    }
    if (found.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no *", kLogExtension, " file under directory ", arg));
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

absl::StatusOr<std::string> ReadRefereeKey(const std::string& hex_or_file) {
  absl::StatusOr<std::string> key = crypto::ParseEd25519PublicKey(hex_or_file);
  if (key.ok()) return key;
  absl::StatusOr<std::string> text = record::ReadWholeFile(hex_or_file);
  if (!text.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--referee_key '", hex_or_file,
        "' is neither 64 hex digits nor a readable file: ",
        text.status().message()));
  }
  key = crypto::ParseEd25519PublicKey(*text);
  if (!key.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--referee_key file ", hex_or_file, ": ", key.status().message()));
  }
  return key;
}

int RunAudit(const std::vector<std::string>& args, bool salvage,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err, const std::string& referee_key) {
  AuditOptions options;
  if (!referee_key.empty()) {
    absl::StatusOr<std::string> key = ReadRefereeKey(referee_key);
    if (!key.ok()) {
      err << "cardref_analyze audit: " << key.status().message() << "\n";
      return kExitUsage;
    }
    options.referee_public_key = *key;
  }
  absl::StatusOr<std::vector<std::string>> files = ExpandLogPaths(args);
  if (!files.ok()) {
    err << "cardref_analyze audit: " << files.status().message() << "\n";
    return kExitUsage;
  }
  if (salvage) {
    err << "salvage mode: reading past corruption; damaged logs stay "
           "CORRUPT\n";
  }
  options.salvage = salvage;
  bool all_ok = true;
  for (const std::string& file : *files) {
    const AuditReport report = AuditFile(file, options, registry);
    all_ok &= report.ok();
    out << report.Line() << "\n";
  }
  return all_ok ? kExitOk : kExitNotOk;
}

int RunStats(const std::vector<std::string>& args, StatsFormat format,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err) {
  absl::StatusOr<std::vector<std::string>> files = ExpandLogPaths(args);
  if (!files.ok()) {
    err << "cardref_analyze stats: " << files.status().message() << "\n";
    return kExitUsage;
  }
  StatsCollector stats(&registry);
  for (const std::string& file : *files) stats.AddFile(file);
  out << (format == StatsFormat::kJson ? stats.ToJson() : stats.ToText());
  return stats.skipped().empty() ? kExitOk : kExitNotOk;
}

}  // namespace cardref::analyzer
