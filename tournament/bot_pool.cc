#include "tournament/bot_pool.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/status_macros.h"
#include "referee/grpc/organiser_token.h"
#include "tournament/event_state.h"

namespace cardref::tournament {
namespace {

using Clock = std::chrono::steady_clock;

void Organiser(const std::optional<std::string>& token,
               grpc::ClientContext* context) {
  grpc_service::AddOrganiserCredential(token, context);
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(10));
}

absl::Status FromGrpc(const grpc::Status& s, absl::string_view what) {
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      absl::StrCat(what, ": ", s.error_message()));
}

// An organiser call, sent again while the connection fails (a lost answer
// is answered again: each call here is safe to repeat), until `give_up`
// (30 s from now by default): 0.1 s doubling to 2 s apart.
template <typename Call>
grpc::Status Retrying(Call call, Clock::time_point give_up = Clock::now() +
                                                           std::chrono::seconds(30)) {
  auto pause = std::chrono::milliseconds(100);
  for (;;) {
    grpc::Status s = call();
    const bool lost = s.error_code() == grpc::StatusCode::UNAVAILABLE ||
                      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED;
    if (!lost || Clock::now() + pause > give_up) return s;
    std::this_thread::sleep_for(pause);
    pause = std::min(2 * pause, std::chrono::milliseconds(2000));
  }
}

std::string Basename(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool IsKnownInvitableBot(const std::vector<std::string>& command) {
  // The program itself: the first word, or the script an interpreter runs
  // (not any word: a wrapper may take cardref_bot as an argument and not
  // take invitations itself).
  for (const std::string& word : command) {
    if (absl::StartsWith(word, "-")) continue;
    const std::string base = Basename(word);
    if (absl::StartsWith(base, "python") || base == "node" || base == "env") {
      continue;
    }
    return base == "cardref_bot" || base == "invited_bot" ||
           base == "invited_bot.py";
  }
  return false;
}

absl::StatusOr<std::unique_ptr<BotPools>> BotPools::Start(
    cardref::v1::Referee::Stub& stub, std::vector<PooledBot> bots,
    PoolOptions options, std::FILE* progress) {
  std::unique_ptr<BotPools> pools(new BotPools(stub, std::move(bots),
                                               std::move(options), progress));
  pools->credentials_.resize(pools->bots_.size());
  for (size_t b = 0; b < pools->bots_.size(); ++b) {
    if (absl::Status s = pools->Issue(static_cast<int>(b),
                                      &pools->credentials_);
        !s.ok()) {
      return s;
    }
  }
  {
    absl::MutexLock lock(&pools->mu_);
    for (size_t b = 0; b < pools->bots_.size(); ++b) {
      if (pools->bots_[b].command.empty()) continue;  // remote
      for (int i = 0; i < pools->bots_[b].processes; ++i) {
        Process& p = pools->processes_.emplace_back();
        p.bot = static_cast<int>(b);
        p.index = i;
      }
    }
    for (Process& p : pools->processes_) pools->Launch(p);
  }
  // Every bot's streams open: its processes take invitations.
  const Clock::time_point started = Clock::now();
  for (;;) {
    absl::StatusOr<std::vector<int>> streams = pools->Streams();
    if (!streams.ok()) return streams.status();
    std::vector<std::string> waiting;
    bool remote_only = true;
    for (size_t b = 0; b < pools->bots_.size(); ++b) {
      const PooledBot& bot = pools->bots_[b];
      const int want = bot.command.empty() ? 1 : bot.processes;
      if ((*streams)[b] >= want) continue;
      waiting.push_back(bot.name);
      remote_only &= bot.command.empty();
    }
    if (waiting.empty()) break;
    {
      absl::MutexLock lock(&pools->mu_);
      for (Process& p : pools->processes_) {
        if (p.child == nullptr) {
          return absl::UnavailableError(
              absl::StrCat("bot ", pools->bots_[p.bot].name, "'s process ",
                           p.index, " could not be started: ", p.start_error));
        }
        if (!p.child->Poll()) continue;
        return absl::UnavailableError(absl::StrCat(
            "bot ", pools->bots_[p.bot].name, "'s process ", p.index,
            " exited (", p.child->Describe(),
            ") before it opened its invitation stream; does it take "
            "invitations (docs/bots.md, \"Invitations\")? Else run it with "
            "--bot_lifetime=match. Its output: ",
            p.child->StderrTail()));
      }
    }
    const double waited =
        std::chrono::duration<double>(Clock::now() - started).count();
    const double limit = remote_only ? pools->options_.remote_wait_s
                                     : pools->options_.ready_timeout_s;
    if (waited > limit) {
      return absl::UnavailableError(absl::StrCat(
          "no invitation stream of ", absl::StrJoin(waiting, ", "),
          " opened within ", limit,
          " s: a bot of --bot_lifetime=event must connect with the "
          "credential in $CARDREF_BOT_CREDENTIAL (docs/bots.md, "
          "\"Invitations\"); else run it with --bot_lifetime=match"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  pools->watcher_ = std::thread([p = pools.get()] { p->Watch(); });
  std::fprintf(progress, "bots by invitation: %s\n",
               pools->Describe().c_str());
  std::fflush(progress);
  return pools;
}

absl::Status BotPools::Issue(int b, std::vector<std::string>* credentials) {
  const PooledBot& bot = bots_[b];
  if (bot.command.empty()) {
    // A remote entrant keeps the credential its author has, if any.
    ASSIGN_OR_RETURN(const cardref::v1::ListBotCredentialsResponse listed,
                     ListEntrants());
    for (const cardref::v1::BotEntrant& e : listed.entrants()) {
      if (e.name() != bot.name) continue;
      std::fprintf(progress_,
                   "remote entrant %s: credential %s (issued before); "
                   "waiting for it to connect\n",
                   bot.name.c_str(), e.credential_id().c_str());
      return absl::OkStatus();
    }
  }
  cardref::v1::IssueBotCredentialRequest request;
  request.set_entrant(bot.name);
  // A process's credential is replaced on every run (its old processes
  // are gone); a remote entrant with none gets its first.
  request.set_replace(true);
  if (bot.command.empty()) {
    request.set_latency_allowance_millis(options_.remote_latency_allowance_ms);
  }
  cardref::v1::IssueBotCredentialResponse issued;
  // Replacing: a resend after a lost answer replaces the credential that
  // answer carried, and this one is the bot's.
  grpc::Status s = Retrying([&] {
    grpc::ClientContext context;
    Organiser(options_.organiser_token, &context);
    return stub_.IssueBotCredential(&context, request, &issued);
  });
  if (!s.ok()) {
    return FromGrpc(s, absl::StrCat("IssueBotCredential for ", bot.name));
  }
  (*credentials)[b] = issued.credential();
  if (!bot.command.empty()) return absl::OkStatus();
  mkdir(options_.credentials_dir.c_str(), 0700);
  const std::string file =
      absl::StrCat(options_.credentials_dir, "/", bot.name, ".credential");
  if (absl::Status w = WriteFileAtomically(
          file, absl::StrCat(issued.credential(), "\n"), 0600);
      !w.ok()) {
    return w;
  }
  std::fprintf(progress_,
               "remote entrant %s: its credential %s is in %s (mode 0600): "
               "hand it to the bot's author; waiting up to %.0f s for it to "
               "connect to %s\n",
               bot.name.c_str(), issued.entrant().credential_id().c_str(),
               file.c_str(), options_.remote_wait_s, options_.server.c_str());
  std::fflush(progress_);
  return absl::OkStatus();
}

void BotPools::Launch(Process& p) {
  const PooledBot& bot = bots_[p.bot];
  const BotLauncher& launcher =
      options_.launcher != nullptr ? *options_.launcher : plain_;
  // In the sandbox, the bot's socket to the referee.
  const std::string server = launcher.ServerForBots(options_.server);
  BotStart spec;
  spec.argv = bot.command;
  spec.argv.push_back(absl::StrCat("--server=", server));
  spec.argv.push_back(absl::StrCat("--name=", bot.name));
  spec.argv.push_back(absl::StrCat("--max_matches=", bot.max_matches));
  spec.env = {{"CARDREF_SERVER", server},
              {"CARDREF_PLAYER_NAME", bot.name},
              {"CARDREF_MAX_MATCHES", absl::StrCat(bot.max_matches)},
              {"CARDREF_GAMES", absl::StrJoin(options_.games, ",")},
              {"CARDREF_BOT_CREDENTIAL", credentials_[p.bot]}};
  // A restart writes a file of its own: the last one's end says why.
  spec.output_path =
      p.starts == 0
          ? absl::StrCat(options_.bot_output_dir, "/", bot.name, ".pool",
                         p.index, ".stderr")
          : absl::StrCat(options_.bot_output_dir, "/", bot.name, ".pool",
                         p.index, ".start", p.starts + 1, ".stderr");
  spec.bot = bot.name;
  spec.name = absl::StrCat(bot.name, ".pool", p.index);
  spec.user = options_.run_as;
  if (options_.uid_pool != nullptr) {
    p.child.reset();  // ended before its uid is given back
    p.lease.reset();  // its processes are ended with it
    p.lease = std::make_unique<UidLease>(options_.uid_pool, 1);
    spec.user = {true, p.lease->uids()[0], p.lease->uids()[0]};
  }
  spec.max_output_bytes = options_.max_output_bytes;
  spec.max_memory_bytes = options_.max_memory_bytes;
  spec.max_tasks = options_.max_tasks;
  p.child.reset();
  absl::StatusOr<std::unique_ptr<RunningBot>> started = launcher.Start(spec);
  if (started.ok()) {
    p.child = *std::move(started);
    p.start_error.clear();
  } else {
    p.start_error = std::string(started.status().message());
    std::fprintf(progress_, "bot %s's process %d could not start: %s\n",
                 bot.name.c_str(), p.index,
                 std::string(started.status().message()).c_str());
  }
  ++p.starts;
}

void BotPools::Watch() {
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      if (stopping_) return;
      for (Process& p : processes_) {
        if (p.given_up) continue;
        const bool gone = p.child == nullptr || p.child->Poll();
        if (!gone) continue;
        const std::string why =
            p.child != nullptr ? p.child->Describe()
                               : absl::StrCat("could not start: ", p.start_error);
        const PooledBot& bot = bots_[p.bot];
        if (p.starts > kMaxPoolRestarts) {
          p.given_up = true;
          std::fprintf(progress_,
                       "bot %s's process %d exited (%s) after %d starts: "
                       "given up; its seats meet the join deadline\n",
                       bot.name.c_str(), p.index, why.c_str(), p.starts);
        } else {
          std::fprintf(progress_,
                       "bot %s's process %d exited (%s); started again\n",
                       bot.name.c_str(), p.index, why.c_str());
          Launch(p);
        }
        std::fflush(progress_);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

absl::StatusOr<cardref::v1::ListBotCredentialsResponse>
BotPools::ListEntrants() {
  cardref::v1::ListBotCredentialsResponse listed;
  grpc::Status s = Retrying([&] {
    grpc::ClientContext context;
    Organiser(options_.organiser_token, &context);
    return stub_.ListBotCredentials(
        &context, cardref::v1::ListBotCredentialsRequest(), &listed);
  });
  if (!s.ok()) return FromGrpc(s, "ListBotCredentials");
  return listed;
}

absl::StatusOr<std::vector<int>> BotPools::Streams() {
  ASSIGN_OR_RETURN(const cardref::v1::ListBotCredentialsResponse listed,
                   ListEntrants());
  std::map<std::string, int> by_name;
  for (const cardref::v1::BotEntrant& e : listed.entrants()) {
    by_name[e.name()] = e.streams();
  }
  std::vector<int> streams;
  for (const PooledBot& bot : bots_) streams.push_back(by_name[bot.name]);
  return streams;
}

void BotPools::Stop() {
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  if (watcher_.joinable()) watcher_.join();
  absl::MutexLock lock(&mu_);
  for (Process& p : processes_) {
    if (p.child != nullptr) p.child->Kill();
    p.child.reset();
    p.lease.reset();
  }
  // A referee that is gone must not hold the event's end: 5 s in all for
  // the revocations, and a credential left valid is said.
  const Clock::time_point give_up = Clock::now() + std::chrono::seconds(5);
  for (size_t b = 0; b < bots_.size(); ++b) {
    if (bots_[b].command.empty()) continue;  // the remote one keeps it
    cardref::v1::RevokeBotCredentialRequest revoke;
    revoke.set_entrant(bots_[b].name);
    revoke.set_reason("the event is over");
    cardref::v1::RevokeBotCredentialResponse revoked;
    const grpc::Status s = Retrying(
        [&] {
          grpc::ClientContext context;
          Organiser(options_.organiser_token, &context);
          context.set_deadline(std::chrono::system_clock::now() +
                               std::chrono::seconds(2));
          return stub_.RevokeBotCredential(&context, revoke, &revoked);
        },
        give_up);
    if (!s.ok()) {
      std::fprintf(progress_,
                   "bot %s's credential could not be revoked (%s): it stays "
                   "valid on the referee until revoked there "
                   "(cardref_referee_admin revoke)\n",
                   bots_[b].name.c_str(), s.error_message().c_str());
      std::fflush(progress_);
    }
  }
}

BotPools::~BotPools() { Stop(); }

std::string BotPools::Describe() const {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> parts;
  for (size_t b = 0; b < bots_.size(); ++b) {
    const PooledBot& bot = bots_[b];
    if (bot.command.empty()) {
      parts.push_back(absl::StrCat(bot.name, ": remote"));
      continue;
    }
    int starts = 0;
    for (const Process& p : processes_) {
      if (p.bot == static_cast<int>(b)) starts += p.starts;
    }
    parts.push_back(absl::StrCat(bot.name, ": ", bot.processes,
                                 bot.processes == 1 ? " process" : " processes",
                                 " of up to ", bot.max_matches,
                                 " matches at once, ", starts,
                                 starts == 1 ? " start" : " starts"));
  }
  return absl::StrJoin(parts, "; ");
}

int BotPools::Starts(const std::string& name) const {
  absl::MutexLock lock(&mu_);
  int starts = 0;
  for (const Process& p : processes_) {
    if (bots_[p.bot].name == name) starts += p.starts;
  }
  return starts;
}

}  // namespace cardref::tournament
