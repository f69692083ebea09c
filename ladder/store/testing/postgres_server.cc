#include "ladder/store/testing/postgres_server.h"

#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"

namespace cardref::ladder::testing {
namespace {

constexpr char kSuperuser[] = "cardref";
constexpr int kPort = 5432;  // only names the socket: no TCP listener

struct Identity {
  bool drop = false;  // switch to uid/gid in the child
  uid_t uid = 0;
  gid_t gid = 0;
};

absl::StatusOr<Identity> ServerIdentity(const PostgresServerOptions& options) {
  Identity identity;
  if (geteuid() != 0) return identity;
  struct passwd* pw = getpwnam(options.run_as.c_str());
  if (pw == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no user '", options.run_as,
        "' to run the PostgreSQL server as (it refuses to run as root)"));
  }
  identity.drop = true;
  identity.uid = pw->pw_uid;
  identity.gid = pw->pw_gid;
  return identity;
}

std::string ReadTail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  if (all.size() > 2000) all = "..." + all.substr(all.size() - 2000);
  return all;
}

// Runs `argv` as `identity` with stdout and stderr appended to `log`; in a
// child that is not waited for if `wait` is false. `quit_with_parent`: the
// child gets SIGQUIT (immediate shutdown) when this process dies.
absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& argv,
                            const Identity& identity, const std::string& log,
                            bool quit_with_parent) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  }
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    setsid();  // out of the test's process group and terminal
    if (identity.drop) {
      if (setgroups(0, nullptr) != 0 || setgid(identity.gid) != 0 ||
          setuid(identity.uid) != 0) {
        _exit(126);
      }
    }
    // After setuid, which clears it.
    if (quit_with_parent) {
      prctl(PR_SET_PDEATHSIG, SIGQUIT);
      if (getppid() != parent) _exit(0);
    }
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

absl::Status RunToEnd(const std::vector<std::string>& argv,
                      const Identity& identity, const std::string& log) {
  absl::StatusOr<pid_t> pid = Spawn(argv, identity, log, false);
  if (!pid.ok()) return pid.status();
  int status = 0;
  while (waitpid(*pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(absl::StrCat(argv[0], " failed (status ",
                                            status, "): ", ReadTail(log)));
  }
  return absl::OkStatus();
}

std::string ConnInfo(const std::string& folder, const std::string& db) {
  return absl::StrCat("host=", folder, " port=", kPort, " user=", kSuperuser,
                      " dbname=", db, " connect_timeout=5");
}

}  // namespace

absl::StatusOr<std::string> FindPostgresBinaries(
    const PostgresServerOptions& options) {
  std::vector<std::string> candidates;
  if (!options.bin_dir.empty()) {
    candidates.push_back(options.bin_dir);
  } else if (const char* env = std::getenv("CARDREF_POSTGRES_BIN");
             env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  } else {
    // Newest version first.
    int best = -1;
    std::error_code ec;
    for (const auto& entry :
         std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
      int version = 0;
      if (absl::SimpleAtoi(entry.path().filename().string(), &version) &&
          version > best) {
        best = version;
        candidates.assign(1, (entry.path() / "bin").string());
      }
    }
  }
  for (const std::string& dir : candidates) {
    if (access((dir + "/initdb").c_str(), X_OK) == 0 &&
        access((dir + "/postgres").c_str(), X_OK) == 0) {
      return dir;
    }
  }
  return absl::FailedPreconditionError(
      "no PostgreSQL server binaries (initdb, postgres) in "
      "/usr/lib/postgresql/*/bin or $CARDREF_POSTGRES_BIN (Debian: apt-get "
      "install postgresql-15)");
}

absl::StatusOr<std::unique_ptr<PostgresServer>> PostgresServer::Start(
    const PostgresServerOptions& options) {
  absl::StatusOr<std::string> bin = FindPostgresBinaries(options);
  if (!bin.ok()) return bin.status();
  absl::StatusOr<Identity> identity = ServerIdentity(options);
  if (!identity.ok()) return identity.status();

  // A short path: the socket's name must fit in 107 bytes.
  char folder_template[] = "/tmp/cardref-pg-XXXXXX";
  if (mkdtemp(folder_template) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp: ", strerror(errno)));
  }
  const std::string folder = folder_template;
  if (identity->drop &&
      chown(folder.c_str(), identity->uid, identity->gid) != 0) {
    const std::string error = strerror(errno);
    std::filesystem::remove_all(folder);
    return absl::InternalError(absl::StrCat("chown ", folder, ": ", error));
  }
  const std::string data = folder + "/data";
  const std::string log = folder + "/server.log";
  auto fail = [&](const absl::Status& status) {
    std::filesystem::remove_all(folder);
    return status;
  };
  absl::Status initdb = RunToEnd(
      {*bin + "/initdb", "-D", data, "-U", kSuperuser, "--auth=trust",
       "--no-sync", "--encoding=UTF8", "--locale=C"},
      *identity, log);
  if (!initdb.ok()) return fail(initdb);

  std::vector<std::string> argv = {
      *bin + "/postgres", "-D", data, "-k", folder, "-p",
      absl::StrCat(kPort), "-c", "listen_addresses=", "-c",
      absl::StrCat("max_connections=", options.max_connections)};
  if (!options.durable) {
    for (const char* setting :
         {"fsync=off", "full_page_writes=off", "synchronous_commit=off"}) {
      argv.emplace_back("-c");
      argv.emplace_back(setting);
    }
  }
  absl::StatusOr<pid_t> pid = Spawn(argv, *identity, log, true);
  if (!pid.ok()) return fail(pid.status());
  std::unique_ptr<PostgresServer> server(new PostgresServer(folder, *pid));

  const std::string conninfo = ConnInfo(folder, "postgres");
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (PQping(conninfo.c_str()) != PQPING_OK) {
    int status = 0;
    if (waitpid(*pid, &status, WNOHANG) == *pid) {
      server->pid_ = -1;
      return absl::InternalError(
          absl::StrCat("the PostgreSQL server exited (status ", status,
                       "): ", ReadTail(log)));
    }
    if (absl::Now() > deadline) {
      return absl::InternalError(absl::StrCat(
          "the PostgreSQL server did not come up in 60 s: ", ReadTail(log)));
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  return server;
}

PostgresServer::~PostgresServer() {
  Stop();
  std::error_code ec;
  std::filesystem::remove_all(folder_, ec);
}

void PostgresServer::Stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGINT);  // fast shutdown: disconnects clients
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (absl::Now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  pid_ = -1;
}

std::string PostgresServer::Url(const std::string& name) const {
  return absl::StrCat("postgresql:///", name, "?host=", folder_,
                      "&port=", kPort, "&user=", kSuperuser);
}

absl::StatusOr<std::string> PostgresServer::CreateDatabase(
    const std::string& name) {
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return absl::InvalidArgumentError(
          absl::StrCat("database name '", name, "': letters, digits, _"));
    }
  }
  try {
    pqxx::connection conn(ConnInfo(folder_, "postgres"));
    pqxx::nontransaction work(conn);
    work.exec(absl::StrCat("CREATE DATABASE ", name));
  } catch (const std::exception& error) {
    return absl::InternalError(
        absl::StrCat("creating database ", name, ": ", error.what()));
  }
  return Url(name);
}

}  // namespace cardref::ladder::testing
