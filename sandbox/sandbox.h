// A sandbox for an untrusted bot process: bubblewrap for the view of the
// machine (bwrap_args.h: namespaces of its own, a read-only view of the
// system and of its folder, a size-capped scratch folder, no network but a
// Unix socket to its referee), a cgroup for its limits (memory, processes
// and threads, CPU share; cgroup.h), an optional syscall filter
// (syscall_filter.h), and a typed account of why it ended (outcome.h).
// docs/sandbox.md has the threat model and what is and is not enforced.
//
// One SandboxHost per runner (needs root): it owns the runner's cgroups,
// the plan of who runs on which cores (cpu_plan.h) and a folder for the
// sockets; every bot is Start()ed through it and runs as a host uid of its
// own (the caller's: tournament/uid_pool.h), unprivileged.
//
// Typical use:
//   HostOptions options;
//   options.bot_slots = 4;  // bots at once
//   ASSIGN_OR_RETURN(auto host, SandboxHost::Create(options));
//   SandboxSpec spec; spec.argv = {...}; spec.uid = spec.gid = 200001;
//   spec.referee = RefereeAddress{"127.0.0.1", port};  // bot: $CARDREF_REFEREE
//   ASSIGN_OR_RETURN(auto bot, host->Start(spec));
//   while (!bot->Poll()) { ... }        // or bot->Wait()
//   LOG << bot->outcome()->Describe();  // or Stop() when the match ends
#ifndef CARDREF_SANDBOX_SANDBOX_H_
#define CARDREF_SANDBOX_SANDBOX_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "sandbox/bot_folder.h"
#include "sandbox/bwrap_args.h"
#include "sandbox/cgroup.h"
#include "sandbox/cgroup_layout.h"
#include "sandbox/cpu_plan.h"
#include "sandbox/forwarder.h"
#include "sandbox/limits.h"
#include "sandbox/outcome.h"

namespace cardref::sandbox {

// Tasks a sandbox runs beside the bot's own (bwrap and the pid
// namespace's init): max_tasks is raised by this many.
inline constexpr int kSandboxOverheadTasks = 2;

struct HostOptions {
  // Bots that run at once (matches at once times seats): the CPU plan's
  // slots. A Start() past them waits for nothing: it fails.
  int bot_slots = 1;
  // Cores' worth kept for the referee and the runner (cpu_plan.h).
  double reserved_cores = 0.5;
  int cores_per_bot = 1;
  std::string bwrap = "/usr/bin/bwrap";
  // Where the bots' sockets are made, a folder per bot; empty: a fresh
  // folder under /run (or /tmp), removed at the end.
  std::string work_dir;
  // The runner's cgroups are `<own cgroup>/<prefix>.<pid>.<n>`.
  std::string cgroup_prefix = "cardref-sandbox";
};

struct RefereeAddress {
  std::string host;  // "127.0.0.1", "localhost", ...
  int port = 0;
  // Where the forwarded connections come from ("127.0.0.2"), so that the
  // referee can tell a bot's connection by its peer address; empty: the
  // kernel's choice (forwarder.h).
  std::string source_address;
};

struct SandboxSpec {
  // The bot's command; a program named without a slash is looked up in
  // kSandboxPath. The program and the file that chose the bot's folder are
  // made absolute (bot_folder.h).
  std::vector<std::string> argv;
  // Its environment: nothing of the runner's is passed on but these, and
  // PATH, HOME and TMPDIR (the scratch folder), LANG, USER and, with a
  // referee, CARDREF_REFEREE (kRefereeAddressInside).
  std::vector<std::pair<std::string, std::string>> env;
  // The host uid and gid it runs as: not 0, one of its own per bot, not an
  // account's (every process of it may be killed).
  uid_t uid = 0;
  gid_t gid = 0;
  // The folder it sees besides the system's; empty: derived from argv.
  std::string bot_folder;
  // More folders it may read (a shared opening book, a runtime in /opt).
  std::vector<std::string> extra_read_only;
  // Its stdout and stderr: made (0600, truncated) by the runner.
  std::string output_path;
  SandboxLimits limits;
  // The referee it may reach, through a forwarder from a socket inside.
  std::optional<RefereeAddress> referee;
  bool syscall_filter = true;
  // For its cgroup's name and messages ("m12-seat0"); letters, digits,
  // '-', '_' and '.' are kept.
  std::string name;
};

class Sandbox;

// Thread-safe. Must outlive its sandboxes.
class SandboxHost {
 public:
  // FAILED_PRECONDITION when not root, without bwrap, or without the
  // memory and pids controllers (the message names what is missing);
  // errors of PlanCpus.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<SandboxHost>> Create(
      const HostOptions& options);
  // Ends what its sandboxes left and removes its cgroups and folder.
  ~SandboxHost();
  SandboxHost(const SandboxHost&) = delete;
  SandboxHost& operator=(const SandboxHost&) = delete;

  // Starts `spec` in a free CPU slot. INVALID_ARGUMENT for a spec it
  // refuses (uid 0, no command, no bot folder: the message says what to
  // change); RESOURCE_EXHAUSTED when every slot is taken; INTERNAL when the
  // kernel refuses a step. A bot whose program cannot be run still starts:
  // it ends with kStartFailed and its output says why.
  [[nodiscard]] absl::StatusOr<std::unique_ptr<Sandbox>> Start(
      const SandboxSpec& spec) ABSL_LOCKS_EXCLUDED(mu_);

  const CpuPlan& cpu_plan() const { return plan_; }
  const CgroupLayout& layout() const { return parent_->layout(); }
  // What this machine cannot enforce of the plan (a controller missing):
  // one sentence each; empty when everything is.
  const std::vector<std::string>& unenforced() const { return unenforced_; }

 private:
  friend class Sandbox;
  SandboxHost() = default;
  void ReleaseSlot(int slot) ABSL_LOCKS_EXCLUDED(mu_);

  HostOptions options_;
  std::unique_ptr<CgroupParent> parent_;
  CpuPlan plan_;
  std::vector<std::string> unenforced_;
  std::vector<SystemEntry> system_;
  std::vector<std::string> etc_;
  std::string work_dir_;
  bool own_work_dir_ = false;
  absl::Mutex mu_;
  std::vector<bool> slot_taken_ ABSL_GUARDED_BY(mu_);
  int64_t started_ ABSL_GUARDED_BY(mu_) = 0;
};

// One sandboxed bot. Not thread-safe: one owner polls it. Destroying it
// Stop()s it. Started from a thread that outlives it: the bot is killed
// when the thread that started it ends (PR_SET_PDEATHSIG), so that a
// runner that dies leaves no bot behind.
class Sandbox {
 public:
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // Non-blocking. True once it has ended. Ends it at the first limit it
  // passes (memory: the OOM killer struck; processes: a fork was refused;
  // CPU time; wall time): CPU and wall time are checked here, so call it
  // often (every 10 to 50 ms). Once it has ended its cgroup, socket and
  // CPU slot are given back.
  bool Poll();
  // Polls every 10 ms until it ends (a wall time limit bounds that).
  const SandboxOutcome& Wait();
  // Ends every process of it now (kStopped, unless it had ended already).
  void Stop();

  // Set once it has ended.
  const std::optional<SandboxOutcome>& outcome() const { return outcome_; }
  // What it has used so far (once ended: in all).
  SandboxUsage Usage() const;
  // Its processes now, host pids (bwrap's included).
  std::vector<pid_t> Pids() const;
  // bwrap's pid (the sandbox's outermost process).
  pid_t pid() const { return pid_; }
  // The folder it sees and its command as run.
  const BotFolder& folder() const { return folder_; }
  // Its CPU slot: cores and quota.
  const CpuSlot& cpu() const { return cpu_; }
  // The last `bytes` of its output file.
  std::string OutputTail(size_t bytes = 800) const;

 private:
  friend class SandboxHost;
  explicit Sandbox(SandboxHost* host) : host_(host) {}
  void ReadStatus();
  void EndNow(EndReason reason);
  void Finish(int wait_status, std::optional<EndReason> ended_by);
  // Gives back its cgroup, socket and CPU slot.
  void Release();

  SandboxHost* host_;
  int slot_ = -1;  // -1 once given back
  CpuSlot cpu_;
  pid_t pid_ = -1;
  absl::Time start_;
  SandboxLimits limits_;
  BotFolder folder_;
  std::string output_path_;
  std::string socket_dir_;
  std::unique_ptr<CgroupBox> box_;
  std::unique_ptr<SocketForwarder> forwarder_;
  int status_fd_ = -1;   // read end of bwrap's --json-status-fd
  std::string status_text_;
  std::optional<SandboxOutcome> outcome_;
};

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_SANDBOX_H_
