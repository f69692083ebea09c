#include "tournament/local_referee.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "referee/base/hex.h"
#include "referee/base/random_bytes.h"
#include "tournament/event_state.h"

namespace cardref::tournament {

std::string DefaultRefereeBinary() {
  std::error_code error;
  const std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "cardref_referee";
  return (self.parent_path() / "cardref_referee").string();
}

absl::StatusOr<LocalReferee> StartLocalReferee(const std::string& binary,
                                               const std::string& dir,
                                               int max_clients) {
  const std::string token_path = absl::StrCat(dir, "/organiser.token");
  std::string token;
  if (std::ifstream in(token_path); in) {
    in >> token;
  }
  if (token.empty()) {
    absl::StatusOr<std::string> bytes = crypto::RandomBytes(32);
    if (!bytes.ok()) return bytes.status();
    token = ToHex(*bytes);
    absl::Status s = WriteFileAtomically(token_path, token + "\n", 0600);
    if (!s.ok()) return s;
  }
  const std::string port_path = absl::StrCat(dir, "/referee.port");
  unlink(port_path.c_str());
  ChildSpec spec;
  spec.argv = {binary, "--port=0", absl::StrCat("--port_file=", port_path),
               absl::StrCat("--log_dir=", dir, "/logs"),
               absl::StrCat("--organiser_token_file=", token_path),
               absl::StrCat("--max_connections_per_address=",
                            std::max(256, max_clients))};
  spec.stderr_path = absl::StrCat(dir, "/referee.out");
  std::optional<ChildProcess> child = ChildProcess::Start(spec);
  if (!child.has_value()) {
    return absl::UnavailableError(absl::StrCat("cannot start ", binary));
  }
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(port_path);
    int port = 0;
    if (in >> port && port > 0) {
      return LocalReferee{*std::move(child), absl::StrCat("localhost:", port),
                          token};
    }
    if (child->Poll()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  child->Kill();
  return absl::UnavailableError(
      absl::StrCat("the referee ", binary, " did not start (",
                   child->Describe(), "): ", child->StderrTail(400)));
}

}  // namespace cardref::tournament
