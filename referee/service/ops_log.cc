#include "referee/service/ops_log.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cardref::service {

namespace {

bool NeedsQuotes(absl::string_view value) {
  if (value.empty()) return true;
  for (unsigned char c : value) {
    if (c <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7f) {
      return true;
    }
  }
  return false;
}

std::string Quote(absl::string_view value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < ' ' || c == 0x7f) {
          absl::StrAppendFormat(&out, "\\x%02x", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

class StderrLog : public OpsLog {
 public:
  void Write(const std::string& line) override {
    const std::string out = line + "\n";
    // One write: the kernel keeps it whole on a pipe (up to PIPE_BUF) and
    // on a file; a short write is finished off, never retried from 0.
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::write(STDERR_FILENO, out.data() + done,
                                out.size() - done);
      if (n <= 0) return;  // nowhere to report it
      done += static_cast<size_t>(n);
    }
  }
};

}  // namespace

OpsLog* StderrOpsLog() {
  static StderrLog log;
  return &log;
}

std::string FormatOpsLine(absl::Time ts, const std::vector<OpsField>& fields) {
  std::string line = absl::StrCat(
      "ts=", absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", ts, absl::UTCTimeZone()));
  for (const auto& [key, value] : fields) {
    absl::StrAppend(&line, " ", key, "=",
                    NeedsQuotes(value) ? Quote(value) : value);
  }
  return line;
}

}  // namespace cardref::service
