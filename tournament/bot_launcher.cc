#include "tournament/bot_launcher.h"

#include <sys/wait.h>

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "sandbox/bwrap_args.h"
#include "sandbox/outcome.h"

namespace cardref::tournament {
namespace {

// A plain child process (--trust_bots).
class ChildBot : public RunningBot {
 public:
  explicit ChildBot(ChildProcess child) : child_(std::move(child)) {}
  ~ChildBot() override { child_.Kill(); }

  bool Poll() override { return child_.Poll(); }
  bool exited() const override { return child_.exited(); }
  bool succeeded() const override { return child_.succeeded(); }
  void Kill() override { child_.Kill(); }
  std::string Describe() const override { return child_.Describe(); }
  std::string limit() const override {
    return child_.exited() ? child_.limit_name() : "";
  }
  std::string end() const override {
    if (!child_.exited()) return "running";
    if (!child_.limit_name().empty()) return child_.limit_name();
    if (child_.killed_by_us()) return "stopped";
    const int status = child_.wait_status();
    if (WIFEXITED(status)) {
      return WEXITSTATUS(status) == 127 ? "start_failed" : "exited";
    }
    return "crashed";
  }
  std::string StderrTail(size_t bytes) const override {
    return child_.StderrTail(bytes);
  }

 private:
  ChildProcess child_;
};

// A bot in the sandbox.
class SandboxedBot : public RunningBot {
 public:
  explicit SandboxedBot(std::unique_ptr<sandbox::Sandbox> box)
      : box_(std::move(box)) {}

  bool Poll() override { return box_->Poll(); }
  bool exited() const override { return box_->outcome().has_value(); }
  bool succeeded() const override {
    const std::optional<sandbox::SandboxOutcome>& o = box_->outcome();
    return o.has_value() && o->reason == sandbox::EndReason::kExited &&
           o->exit_code == 0;
  }
  void Kill() override { box_->Stop(); }
  std::string Describe() const override {
    const std::optional<sandbox::SandboxOutcome>& o = box_->outcome();
    return o.has_value() ? o->Describe() : "running";
  }
  std::string limit() const override {
    const std::optional<sandbox::SandboxOutcome>& o = box_->outcome();
    return o.has_value() && sandbox::IsLimit(o->reason)
               ? std::string(sandbox::EndReasonName(o->reason))
               : "";
  }
  std::string end() const override {
    const std::optional<sandbox::SandboxOutcome>& o = box_->outcome();
    return o.has_value() ? std::string(sandbox::EndReasonName(o->reason))
                         : "running";
  }
  std::string StderrTail(size_t bytes) const override {
    return box_->OutputTail(bytes);
  }

 private:
  std::unique_ptr<sandbox::Sandbox> box_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<BotLauncher>> BotLauncher::Sandboxed(
    const sandbox::HostOptions& host, const sandbox::RefereeAddress& referee,
    BotFolders folders) {
  absl::StatusOr<std::unique_ptr<sandbox::SandboxHost>> made =
      sandbox::SandboxHost::Create(host);
  if (!made.ok()) return made.status();
  auto launcher = std::make_unique<BotLauncher>();
  launcher->host_ = *std::move(made);
  launcher->referee_ = referee;
  launcher->folders_ = std::move(folders);
  return launcher;
}

std::string BotLauncher::ServerForBots(const std::string& server) const {
  return sandboxed() ? sandbox::kRefereeAddressInside : server;
}

absl::StatusOr<std::unique_ptr<RunningBot>> BotLauncher::Start(
    const BotStart& start) const {
  if (!sandboxed()) {
    ChildSpec spec;
    spec.argv = start.argv;
    spec.env = start.env;
    spec.stderr_path = start.output_path;
    spec.user = start.user;
    spec.max_output_bytes = start.max_output_bytes;
    spec.max_memory_bytes = start.max_memory_bytes;
    spec.max_tasks = start.max_tasks;
    std::optional<ChildProcess> child = ChildProcess::Start(spec);
    if (!child.has_value()) {
      return absl::InternalError(
          "could not be started (fork or its stderr file failed)");
    }
    return std::make_unique<ChildBot>(*std::move(child));
  }
  if (!start.user.set) {
    return absl::InvalidArgumentError(
        "a sandboxed bot needs a uid of its own (--bot_uids)");
  }
  sandbox::SandboxSpec spec;
  spec.argv = start.argv;
  spec.env = start.env;
  spec.uid = start.user.uid;
  spec.gid = start.user.gid;
  if (auto it = folders_.find(start.bot); it != folders_.end()) {
    spec.bot_folder = it->second;
  }
  spec.output_path = start.output_path;
  spec.limits.memory_bytes = start.max_memory_bytes;
  spec.limits.max_tasks = start.max_tasks;
  spec.limits.max_output_bytes = start.max_output_bytes;
  spec.limits.cpu_time = start.cpu_time;
  spec.limits.wall_time = start.wall_time;
  spec.referee = referee_;
  spec.name = start.name;
  absl::StatusOr<std::unique_ptr<sandbox::Sandbox>> box = host_->Start(spec);
  if (!box.ok()) {
    return absl::Status(box.status().code(),
                        absl::StrCat("could not be started in the sandbox: ",
                                     box.status().message()));
  }
  return std::make_unique<SandboxedBot>(*std::move(box));
}

}  // namespace cardref::tournament
