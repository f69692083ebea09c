// A throwaway PostgreSQL server for tests and benchmarks: Debian's server
// binaries (initdb, postgres) run in a fresh folder under /tmp, listening
// on a Unix socket there only (no TCP port), as an unprivileged user when
// the caller is root (PostgreSQL refuses to run as root), and stopped with
// the folder removed when the object goes. If the process that started it
// dies, the server is told to quit too (a parent-death signal).
//
// Thread-safety: CreateDatabase may be called from any thread.
#ifndef CARDREF_LADDER_STORE_TESTING_POSTGRES_SERVER_H_
#define CARDREF_LADDER_STORE_TESTING_POSTGRES_SERVER_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace cardref::ladder::testing {

struct PostgresServerOptions {
  // Where initdb and postgres are; empty: $CARDREF_POSTGRES_BIN, else the
  // newest /usr/lib/postgresql/<version>/bin.
  std::string bin_dir;
  // The user the server runs as when the caller is root (otherwise the
  // caller's own user).
  std::string run_as = "nobody";
  // Tests need no durability: fsync, full-page writes and synchronous
  // commits off. A benchmark of the store's cost turns them on.
  bool durable = false;
  int max_connections = 100;
};

// The folder of the server binaries `options` would use, or FAILED_
// PRECONDITION saying what is missing (callers skip with that message).
[[nodiscard]] absl::StatusOr<std::string> FindPostgresBinaries(
    const PostgresServerOptions& options);

class PostgresServer {
 public:
  // initdb, then the server, waiting until it accepts connections (a few
  // seconds). FAILED_PRECONDITION if the binaries or the user are missing;
  // INTERNAL with the server's log if it does not come up.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<PostgresServer>> Start(
      const PostgresServerOptions& options = {});
  // Stops the server (fast shutdown) and removes its folder.
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // Creates database `name` (letters, digits, _) and returns its URL.
  [[nodiscard]] absl::StatusOr<std::string> CreateDatabase(
      const std::string& name);
  // The URL of database `name` on this server.
  std::string Url(const std::string& name) const;
  // The server's process (the postmaster).
  pid_t pid() const { return pid_; }
  const std::string& folder() const { return folder_; }

 private:
  PostgresServer(std::string folder, pid_t pid)
      : folder_(std::move(folder)), pid_(pid) {}
  void Stop();

  std::string folder_;
  pid_t pid_;
};

}  // namespace cardref::ladder::testing

#endif  // CARDREF_LADDER_STORE_TESTING_POSTGRES_SERVER_H_
