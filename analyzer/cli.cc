#include "analyzer/cli.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/batch.h"
#include "referee/base/ed25519.h"
#include "referee/base/public_key_file.h"
#include "referee/record/record_io.h"
#include "analyzer/html.h"
#include "analyzer/report.h"
#include "analyzer/summary.h"

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

namespace {

// The exit code of a report over `summaries` for `command`.
int ExitCode(const std::string& command,
             const std::vector<v1::GameSummary>& summaries) {
  bool error = false, unfinished = false, skipped = false;
  for (const v1::GameSummary& s : summaries) {
    const std::string& verdict = s.audit().verdict();
    if (verdict == "OK") continue;
    skipped = true;
    const std::string& ending = s.audit().ending();
    if (ending == "interrupted" || ending == "aborted") {
      unfinished = true;
    } else {
      error = true;
    }
  }
  if (command != "audit") return skipped ? kExitNotOk : kExitOk;
  if (error) return kExitNotOk;
  return unfinished ? kExitUnfinished : kExitOk;
}

// Prints the report of `command` over sorted summaries.
int Report(const std::string& command, const std::vector<std::string>& args,
           const std::vector<v1::GameSummary>& summaries,
           const CliOptions& options, std::ostream& out, std::ostream& err) {
  if (command == "audit") {
    out << RenderAudit(BuildAuditReport(summaries), options.format);
  } else if (command == "stats") {
    out << RenderStats(BuildStatsReport(summaries), options.format);
  } else if (command == "ratings") {
    const v1::RatingsReportProto ratings =
        BuildRatingsReport(summaries, options.ratings);
    out << RenderRatings(ratings, options.format);
    // CSV rows have no place for the logs left out: they go to stderr.
    if (options.format == Format::kCsv) {
      err << SkippedSection(ratings.skipped());
    }
  } else if (command == "compare") {
    CompareOptions compare = options.compare;
    compare.player_a = args[0];
    compare.player_b = args[1];
    absl::StatusOr<v1::CompareReportProto> report =
        BuildCompareReport(summaries, compare);
    if (!report.ok()) {
      err << "cardref_analyze compare: " << report.status().message() << "\n";
      return kExitUsage;
    }
    out << RenderCompare(*report, options.format);
  }
  if (!options.html.empty()) {
    v1::AnalysisReport full;
    *full.mutable_audit() = BuildAuditReport(summaries);
    *full.mutable_stats() = BuildStatsReport(summaries);
    *full.mutable_ratings() = BuildRatingsReport(summaries, options.ratings);
    if (absl::Status st = WriteHtmlReport(options.html, full); !st.ok()) {
      err << "cardref_analyze " << command << ": " << st.message() << "\n";
      return kExitUsage;
    }
  }
  return ExitCode(command, summaries);
}

int Merge(const std::vector<std::string>& args, const CliOptions& options,
          std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << "cardref_analyze merge: no partial results given\n";
    return kExitUsage;
  }
  std::vector<v1::AnalysisPartial> partials;
  for (const std::string& path : args) {
    absl::StatusOr<v1::AnalysisPartial> p = ReadPartial(path);
    if (!p.ok()) {
      err << "cardref_analyze merge: " << p.status().message() << "\n";
      return kExitUsage;
    }
    partials.push_back(std::move(*p));
  }
  std::string command;
  absl::StatusOr<std::vector<v1::GameSummary>> summaries =
      MergePartials(partials, &command);
  if (!summaries.ok()) {
    err << "cardref_analyze merge: " << summaries.status().message() << "\n";
    return kExitUsage;
  }
  return Report(command, {}, *summaries, options, out, err);
}

}  // namespace

int RunCommand(const std::string& command, const std::vector<std::string>& args,
               const CliOptions& options, const GameRegistry& registry,
               std::ostream& out, std::ostream& err) {
  const std::string prefix = absl::StrCat("cardref_analyze ", command, ": ");
  if (command == "merge") return Merge(args, options, out, err);
  if (command != "audit" && command != "stats" && command != "ratings" &&
      command != "compare") {
    err << "cardref_analyze: unknown command '" << command << "'\n";
    return kExitUsage;
  }
  std::vector<std::string> inputs = args;
  if (command == "compare") {
    if (args.size() < 3) {
      err << prefix << "needs two players and the logs: compare A B FILE...\n";
      return kExitUsage;
    }
    inputs.erase(inputs.begin(), inputs.begin() + 2);
  }
  absl::StatusOr<std::vector<std::string>> files = ExpandInputs(inputs);
  if (!files.ok()) {
    err << prefix << files.status().message() << "\n";
    return kExitUsage;
  }
  Shard shard;
  if (!options.shard.empty()) {
    absl::StatusOr<Shard> parsed = ParseShard(options.shard);
    if (!parsed.ok()) {
      err << prefix << parsed.status().message() << "\n";
      return kExitUsage;
    }
    shard = *parsed;
  }
  if (!options.partial.empty() && command == "compare") {
    err << prefix << "--partial is for audit, stats and ratings\n";
    return kExitUsage;
  }
  if (options.salvage) {
    err << "salvage mode: reading past corruption; damaged logs stay "
           "CORRUPT\n";
  }
  BatchOptions batch;
  batch.audit.salvage = options.salvage;
  if (!options.referee_key.empty()) {
    absl::StatusOr<std::string> key = ReadRefereeKey(options.referee_key);
    if (!key.ok()) {
      err << prefix << key.status().message() << "\n";
      return kExitUsage;
    }
    batch.audit.referee_public_key = *key;
  }
  batch.jobs = options.jobs;
  // `audit` prints verdicts only; partials and the HTML report need the
  // statistics too.
  batch.statistics = command != "audit" || !options.partial.empty() ||
                     !options.html.empty();
  batch.progress = options.progress ? &err : nullptr;
  const std::vector<v1::GameSummary> summaries =
      SummarizeFiles(SelectShard(*files, shard), batch, registry);
  if (!options.partial.empty()) {
    v1::AnalysisPartial partial;
    partial.set_command(command);
    partial.set_shard_index(shard.index);
    partial.set_shard_count(shard.count);
    for (const v1::GameSummary& s : summaries) *partial.add_games() = s;
    if (absl::Status st = WritePartial(options.partial, partial); !st.ok()) {
      err << prefix << st.message() << "\n";
      return kExitUsage;
    }
    return ExitCode(command, summaries);
  }
  return Report(command, args, summaries, options, out, err);
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
  if (key.ok()) return key;
  const std::string public_key_file = crypto::PublicKeyPath(hex_or_file);
  if (absl::StrContains(*text, "PRIVATE KEY-----")) {
    // The referee's own key file (its owner may audit with it): its public
    // half. Read as the referee reads it, owner-only or refused.
    absl::StatusOr<crypto::Ed25519PrivateKey> private_key =
        crypto::Ed25519PrivateKey::ReadFile(hex_or_file);
    if (private_key.ok()) return private_key->public_key();
    return absl::InvalidArgumentError(absl::StrCat(
        "--referee_key file ", hex_or_file,
        " is a private key that cannot be used: ",
        private_key.status().message(), "; give its public key instead: ",
        public_key_file, " (cardref_referee writes it beside the key) or the "
        "64 hex digits cardref_referee printed"));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--referee_key file ", hex_or_file, ": ", key.status().message(),
      "; cardref_referee writes its public key beside its key file (",
      "referee_ed25519.pub beside referee_ed25519.key)"));
}

int RunAudit(const std::vector<std::string>& args, bool salvage,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err, const std::string& referee_key) {
  CliOptions options;
  options.salvage = salvage;
  options.referee_key = referee_key;
  return RunCommand("audit", args, options, registry, out, err);
}

int RunStats(const std::vector<std::string>& args, StatsFormat format,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err) {
  CliOptions options;
  options.format = format == StatsFormat::kJson ? Format::kJson : Format::kText;
  return RunCommand("stats", args, options, registry, out, err);
}

}  // namespace cardref::analyzer
