// The one way out of a sandbox: a Unix-domain socket, bound into the
// sandbox, whose connections the runner forwards to the referee's TCP
// address (gRPC speaks `unix:PATH`). In-process, one thread per
// forwarder, bounded: at most `max_connections` open at once (more are
// accepted and closed at once, and counted) and `buffer_bytes` held per
// direction of each (a side that does not read stops the other side's
// reading, as TCP would).
//
// The referee sees the forwarder's TCP connection, from loopback: it is the
// runner's job to make that connection count as a bot's, never the
// organiser's (docs/sandbox.md).
#ifndef CARDREF_SANDBOX_FORWARDER_H_
#define CARDREF_SANDBOX_FORWARDER_H_

#include <sys/socket.h>
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace cardref::sandbox {

struct ForwarderOptions {
  // Made here; an old socket at the path is replaced, anything else there
  // is an error. Its folder must exist.
  std::string socket_path;
  std::string target_host = "127.0.0.1";  // a name or an address
  int target_port = 0;
  // The address the forwarded connections come from (bound before
  // connecting), e.g. "127.0.0.2": a referee can then tell bots'
  // connections by their peer address. Empty: the kernel's choice. Of the
  // target's family.
  std::string source_address;
  int max_connections = 8;
  size_t buffer_bytes = 64 << 10;
  // Who may connect: the socket's owner and mode (a bot's uid, 0600).
  std::optional<uid_t> owner_uid;
  std::optional<gid_t> owner_gid;
  mode_t mode = 0600;
};

// Thread-safe: its counters may be read from any thread.
class SocketForwarder {
 public:
  // INVALID_ARGUMENT for a bad port, a path too long for a Unix socket
  // (108 bytes) or a name that does not resolve; ALREADY_EXISTS when
  // something that is not a socket is at the path.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<SocketForwarder>> Start(
      const ForwarderOptions& options);
  // Stops: closes every connection and removes the socket.
  ~SocketForwarder();
  SocketForwarder(const SocketForwarder&) = delete;
  SocketForwarder& operator=(const SocketForwarder&) = delete;

  const std::string& socket_path() const { return options_.socket_path; }
  int64_t accepted() const { return accepted_.load(); }
  // Accepted past max_connections and closed at once.
  int64_t refused() const { return refused_.load(); }
  // Whose TCP connection to the target failed.
  int64_t failed() const { return failed_.load(); }
  int open_connections() const { return open_.load(); }

 private:
  explicit SocketForwarder(const ForwarderOptions& options)
      : options_(options) {}
  void Run();

  ForwarderOptions options_;
  int listen_fd_ = -1;
  int wake_fd_ = -1;  // an eventfd: Stop
  sockaddr_storage target_{};
  socklen_t target_size_ = 0;
  sockaddr_storage source_{};
  socklen_t source_size_ = 0;  // 0: no source address
  std::thread thread_;
  std::atomic<int64_t> accepted_{0};
  std::atomic<int64_t> refused_{0};
  std::atomic<int64_t> failed_{0};
  std::atomic<int> open_{0};
};

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_FORWARDER_H_
