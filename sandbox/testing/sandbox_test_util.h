// Support for the hostile suite: a sandbox host for the running test, a
// bots' folder holding copies of the hostile programs (so that a bot's
// uid can read them wherever the build is), uids for bots that belong to
// no account, and a helper that runs one bot to its end.
#ifndef CARDREF_SANDBOX_TESTING_SANDBOX_TEST_UTIL_H_
#define CARDREF_SANDBOX_TESTING_SANDBOX_TEST_UTIL_H_

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "sandbox/sandbox.h"

namespace cardref::sandbox::testing {

// Why the suite cannot run here (not root), or empty.
std::string WhyNotHere();

// A fresh folder for the test under /tmp (removed unless the test failed):
// bots/<name>/ with the hostile programs copied in (readable and
// executable by anyone), and a host.
class SandboxFixture {
 public:
  // `bot_slots` bots at once; `reserved_cores` as HostOptions.
  explicit SandboxFixture(int bot_slots = 2, double reserved_cores = 0.5);
  ~SandboxFixture();

  SandboxHost& host() { return *host_; }
  const std::filesystem::path& root() const { return root_; }
  // bots/<bot>/, made on first use, with every hostile program in it.
  std::filesystem::path BotFolder(const std::string& bot);
  // A uid (and gid) for bot number `i` of this test: no account's, distinct
  // per test process.
  uid_t Uid(int i) const;

  // A spec for `program` (a hostile program's name) in `bot`'s folder.
  SandboxSpec Spec(const std::string& bot, int i, const std::string& program,
                   std::vector<std::string> args);
  // Runs `spec` to its end, polling every 10 ms; `max_gap` is the longest
  // the test's own loop waited between two polls (a machine that stops
  // answering shows here).
  SandboxOutcome Run(const SandboxSpec& spec, absl::Duration* max_gap = nullptr);
  // The whole output file of `spec`.
  static std::string Output(const SandboxSpec& spec);

 private:
  std::filesystem::path root_;
  std::unique_ptr<SandboxHost> host_;
  uid_t first_uid_ = 0;
};

// Host pids of processes whose command line contains `marker`.
std::vector<pid_t> ProcessesWithMarker(const std::string& marker);
// Host pids of live (not zombie) processes running as `uid`, once none is
// left or after `grace` (a killed process may still be on its way out).
std::vector<pid_t> ProcessesOfUid(uid_t uid,
                                  absl::Duration grace = absl::Seconds(2));

}  // namespace cardref::sandbox::testing

#endif  // CARDREF_SANDBOX_TESTING_SANDBOX_TEST_UTIL_H_
