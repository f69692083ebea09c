#include "analyzer/log_tools/log_cli.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "analyzer/cli.h"
#include "analyzer/log_tools/integrity_check.h"
#include "analyzer/log_tools/log_head.h"
#include "analyzer/log_tools/log_html.h"
#include "analyzer/log_tools/log_json.h"
#include "analyzer/log_tools/log_text.h"
#include "analyzer/log_tools/playback.h"
#include "referee/codec/logged_actions.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"

namespace cardref::log_tools {
namespace {

using analyzer::kExitNotOk;
using analyzer::kExitOk;
using analyzer::kExitUsage;

// One FILE argument, or a usage error on `err`.
bool OneFile(const std::vector<std::string>& args, const char* command,
             size_t expected, const char* what, std::ostream& err) {
  if (args.size() == expected) return true;
  err << "cardref_log " << command << ": expected " << what << ", got "
      << args.size() << " argument" << (args.size() == 1 ? "" : "s") << "\n";
  return false;
}

absl::StatusOr<Playback> ReadPlayback(const std::string& path, int seat,
                                          const GameRegistry& registry) {
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
  if (!log.ok()) return log.status();
  codec::DeriveTypedActions(&*log, registry);  // format 3: the notation
  return BuildPlayback(*log, registry, seat);
}

}  // namespace

int RunCat(const std::vector<std::string>& args, int seat,
           const GameRegistry& registry, std::ostream& out, std::ostream& err) {
  if (!OneFile(args, "cat", 1, "one FILE", err)) return kExitUsage;
  absl::StatusOr<Playback> t = ReadPlayback(args[0], seat, registry);
  if (!t.ok()) {
    err << "cardref_log cat: " << args[0] << ": " << t.status().message()
        << "\n";
    return absl::IsInvalidArgument(t.status()) && seat >= 0 ? kExitUsage
                                                            : kExitNotOk;
  }
  out << RenderText(*t);
  return t->problem.empty() ? kExitOk : kExitNotOk;
}

int RunJson(const std::vector<std::string>& args, const GameRegistry& registry,
            std::ostream& out, std::ostream& err) {
  if (!OneFile(args, "json", 1, "one FILE", err)) return kExitUsage;
  absl::StatusOr<std::string> bytes = record::ReadWholeFile(args[0]);
  if (!bytes.ok()) {
    err << "cardref_log json: " << bytes.status().message() << "\n";
    return kExitNotOk;
  }
  // Format 3 derives times and typed actions: shown as a reader sees them
  // (from-json stores them derived again, byte for byte).
  record::GameLog expanded = record::ParseGameLog(*bytes);
  const bool derived = expanded.has_header() &&
                       expanded.header().format_version() >= 3;
  if (derived) codec::DeriveTypedActions(&expanded, registry);
  int64_t index = 0;
  std::string problem;
  const record::RecordFile framing = record::ScanRecords(
      *bytes, [&](uint64_t offset, absl::string_view payload) {
        std::string shown;
        if (derived && index > 0 &&
            index < static_cast<int64_t>(expanded.records.size()) &&
            expanded.offsets[index] == offset) {
          shown = expanded.records[index].SerializeAsString();
          payload = shown;
        }
        absl::StatusOr<std::string> line = PayloadToJson(payload);
        if (!line.ok()) {
          problem = absl::StrCat("record ", index, " at byte ", offset, ": ",
                                 line.status().message());
          return false;
        }
        out << *line << "\n";
        ++index;
        return true;
      });
  if (problem.empty() && framing.end != record::FileEnd::kComplete) {
    problem = framing.damage;
  }
  if (problem.empty() && index == 0) {
    problem = "empty file: no header record (the match never started)";
  }
  if (!problem.empty()) {
    err << "cardref_log json: " << args[0] << ": " << problem << " (" << index
        << " records written)\n";
    return kExitNotOk;
  }
  return kExitOk;
}

int RunFromJson(const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err) {
  if (!OneFile(args, "from-json", 2, "FILE.jsonl and OUT", err))
    return kExitUsage;
  absl::StatusOr<std::string> text = record::ReadWholeFile(args[0]);
  if (!text.ok()) {
    err << "cardref_log from-json: " << text.status().message() << "\n";
    return kExitNotOk;
  }
  absl::StatusOr<std::vector<std::string>> payloads =
      JsonLinesToPayloads(*text);
  if (!payloads.ok()) {
    err << "cardref_log from-json: " << args[0] << ": "
        << payloads.status().message() << "\n";
    return kExitNotOk;
  }
  if (payloads->empty()) {
    err << "cardref_log from-json: " << args[0]
        << ": no records: a log starts with its header record; " << args[1]
        << " not written\n";
    return kExitNotOk;
  }
  absl::StatusOr<std::unique_ptr<record::WritableSink>> sink =
      record::NewFileSink(args[1]);
  if (!sink.ok()) {
    err << "cardref_log from-json: " << sink.status().message() << "\n";
    return kExitNotOk;
  }
  // The framing of the log's format (its header's format_version).
  v1::LogRecord first;
  const bool compact = !payloads->empty() &&
                       first.ParseFromString(payloads->front()) &&
                       first.has_header() &&
                       first.header().format_version() >= 3;
  record::RecordWriter writer(
      sink->get(),
      compact ? record::Framing::kCompact : record::Framing::kTfRecord);
  absl::Status st;
  for (const std::string& payload : *payloads) {
    st = writer.AddRecord(payload);
    if (!st.ok()) break;
  }
  if (st.ok()) st = (*sink)->Sync();
  if (absl::Status closed = (*sink)->Close(); st.ok()) st = closed;
  if (!st.ok()) {
    err << "cardref_log from-json: " << args[1] << ": " << st.message() << "\n";
    return kExitNotOk;
  }
  out << "wrote " << args[1] << " (" << payloads->size() << " records, "
      << writer.bytes_written() << " bytes)\n";
  return kExitOk;
}

int RunVerify(const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err, const std::string& referee_key) {
  absl::StatusOr<std::vector<std::string>> files =
      analyzer::ExpandLogPaths(args);
  if (!files.ok()) {
    err << "cardref_log verify: " << files.status().message() << "\n";
    return kExitUsage;
  }
  analyzer::IntegrityOptions integrity;
  if (!referee_key.empty()) {
    absl::StatusOr<std::string> key = analyzer::ReadRefereeKey(referee_key);
    if (!key.ok()) {
      err << "cardref_log verify: " << key.status().message() << "\n";
      return kExitUsage;
    }
    integrity.trusted_public_key = *key;
  }
  bool all_ok = true;
  for (const std::string& file : *files) {
    const VerifyReport report = VerifyFileIntegrity(file, integrity);
    all_ok &= report.ok();
    out << report.Line() << "\n";
  }
  return all_ok ? kExitOk : kExitNotOk;
}

int RunHead(const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err) {
  if (!OneFile(args, "head", 1, "one FILE", err)) return kExitUsage;
  absl::StatusOr<std::string> bytes = record::ReadWholeFile(args[0]);
  if (!bytes.ok()) {
    err << "cardref_log head: " << bytes.status().message() << "\n";
    return kExitNotOk;
  }
  absl::StatusOr<std::string> text = HeadText(*bytes);
  if (!text.ok()) {
    err << "cardref_log head: " << args[0] << ": " << text.status().message()
        << "\n";
    return kExitNotOk;
  }
  out << *text;
  return kExitOk;
}

int RunHtml(const std::vector<std::string>& args, const std::string& page,
            int seat, const GameRegistry& registry, std::ostream& out,
            std::ostream& err) {
  if (!OneFile(args, "html", 1, "one FILE", err)) return kExitUsage;
  if (page.empty()) {
    err << "cardref_log html: -o PAGE.html is required\n";
    return kExitUsage;
  }
  absl::StatusOr<Playback> t = ReadPlayback(args[0], seat, registry);
  if (!t.ok()) {
    err << "cardref_log html: " << args[0] << ": " << t.status().message()
        << "\n";
    return absl::IsInvalidArgument(t.status()) && seat >= 0 ? kExitUsage
                                                            : kExitNotOk;
  }
  const std::string html = RenderHtml(*t);
  errno = 0;
  std::ofstream file(page, std::ios::binary | std::ios::trunc);
  file << html;
  file.close();
  if (!file) {
    err << "cardref_log html: cannot write " << page
        << (errno != 0 ? absl::StrCat(": ", std::strerror(errno)) : "")
        << "\n";
    return kExitNotOk;
  }
  out << "wrote " << page << " (" << t->steps.size() << " steps)\n";
  return t->problem.empty() ? kExitOk : kExitNotOk;
}

}  // namespace cardref::log_tools
