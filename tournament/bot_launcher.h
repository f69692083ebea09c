// How the tournament starts a seat's bot: in the bot sandbox
// (sandbox/sandbox.h, docs/sandbox.md), the default as root, or as a plain
// child process (bot_process.h) for bots the organiser trusts
// (--trust_bots). The match runner sees one interface either way.
#ifndef CARDREF_TOURNAMENT_BOT_LAUNCHER_H_
#define CARDREF_TOURNAMENT_BOT_LAUNCHER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "sandbox/sandbox.h"
#include "tournament/bot_process.h"

namespace cardref::tournament {

// What a seat's bot is started with.
struct BotStart {
  std::vector<std::string> argv;
  // Its seat's environment (CARDREF_*). A sandboxed bot gets these and the
  // sandbox's own (PATH, HOME, ...); a plain child inherits the runner's
  // too, without the organiser's credential.
  std::vector<std::pair<std::string, std::string>> env;
  std::string output_path;  // its stdout and stderr, made 0600
  std::string bot;          // the bot's name: the folder named for it
  std::string name;         // "<match key>.seat<N>", for messages
  // Its user: required in the sandbox (a uid of its own, not root).
  RunAs user;
  // Its limits; 0 or infinite: none. CPU and wall time only in the sandbox
  // (a plain child is held to its match's budget by the runner).
  uint64_t max_output_bytes = 0;
  uint64_t max_memory_bytes = 0;
  int64_t max_tasks = 0;
  absl::Duration cpu_time = absl::InfiniteDuration();
  absl::Duration wall_time = absl::InfiniteDuration();
};

// One started bot. Not thread-safe: one owner, the thread that started it,
// which outlives it (a bot dies with the thread that started it). Its
// destructor ends it.
class RunningBot {
 public:
  virtual ~RunningBot() = default;
  // Non-blocking; true once it has ended. Ends it at a limit it passed, so
  // call it often (the runner polls every 50 ms).
  virtual bool Poll() = 0;
  virtual bool exited() const = 0;
  // It exited by itself with status 0.
  virtual bool succeeded() const = 0;
  // Ends every process of it now (if it has not ended).
  virtual void Kill() = 0;
  // How it ended, for people ("exit status 3", "ended at its memory limit
  // of 64.0 MiB: ..."); "running" before.
  virtual std::string Describe() const = 0;
  // The limit that ended it, as sandbox/outcome.h names them:
  // "memory_limit", "process_limit", "cpu_time_limit", "wall_time_limit",
  // "output_limit"; empty if none did (or it runs).
  virtual std::string limit() const = 0;
  // How it ended, a stable name: "exited", "crashed", "stopped" (by the
  // runner), "start_failed", or a limit's; "running" before.
  virtual std::string end() const = 0;
  // The last `bytes` of its output file.
  virtual std::string StderrTail(size_t bytes = 800) const = 0;
};

// Folders the organiser names for bots (--bot_folder, the config's
// `folder`), by bot name: what a sandboxed bot may read besides the system.
using BotFolders = std::map<std::string, std::string>;

// Thread-safe: matches played at once start their bots through one.
class BotLauncher {
 public:
  // Plain child processes: no sandbox.
  BotLauncher() = default;
  // The sandbox: a SandboxHost (HostOptions::bot_slots: matches at once
  // times their seats) whose bots reach `referee` only through their
  // socket. Errors of SandboxHost::Create (not root, no bwrap, no cgroup
  // controllers: the message says what is missing).
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<BotLauncher>> Sandboxed(
      const sandbox::HostOptions& host, const sandbox::RefereeAddress& referee,
      BotFolders folders);

  bool sandboxed() const { return host_ != nullptr; }
  // What a started bot is told to connect to (--server=, CARDREF_SERVER):
  // in the sandbox, its socket (unix:/run/cardref/referee.sock); else
  // `server`.
  std::string ServerForBots(const std::string& server) const;
  // Starts `start`. A program that cannot be run still starts (and ends,
  // saying why in its output); errors say why nothing could be started.
  [[nodiscard]] absl::StatusOr<std::unique_ptr<RunningBot>> Start(
      const BotStart& start) const;
  // The sandbox's CPU plan and what this machine cannot enforce; null
  // without the sandbox.
  const sandbox::SandboxHost* host() const { return host_.get(); }

 private:
  std::unique_ptr<sandbox::SandboxHost> host_;
  sandbox::RefereeAddress referee_;
  BotFolders folders_;
};

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_BOT_LAUNCHER_H_
