// The referee's own listener, so connections can be counted and capped:
// gRPC 1.51 has no connection-count limit, and when the process runs out of
// descriptors its listener stops for good (grpc/grpc#20418). This one
// accepts each connection itself and hands it to the server through an
// external connection acceptor, which carries the server's credentials
// (plaintext or TLS: the handshake is gRPC's, after the hand-over). Past
// the cap it closes a new connection at once, so accept() never fails for
// lack of descriptors and the listener serves again as soon as connections
// close. gRPC names a handed-over connection's peer by its address
// ("ipv4:10.0.0.7:51234"), as for connections it accepts itself.
//
// It can also cap the connections of each client, so one client cannot
// take every place: a client is an address, and on this machine the user
// whose process connected (loopback_peer.h).
//
// A handed-over connection belongs to gRPC, which closes it without telling
// us; the limiter counts a connection as open while its descriptor still
// names the same socket (its inode, from /proc/self/fd), checked at every
// accept and every second.
//
// It also closes connections idle for `max_idle_ms`: no byte either way
// (the kernel's TCP_INFO says when the last data went in and out). gRPC
// pings a connection with a call in progress (keepalive), so only
// connections with nothing to do, or whose peer is gone, go quiet; the
// limiter shuts them down and gRPC closes them. This costs a system call
// per connection per second, not the per-call cost of gRPC's own idle
// timeout (its max-age filter).
#ifndef CARDREF_REFEREE_GRPC_CONNECTION_LIMITER_H_
#define CARDREF_REFEREE_GRPC_CONNECTION_LIMITER_H_

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/server_builder.h"

namespace cardref::grpc_service {

class ConnectionLimiter {
 public:
  // Binds every address of `host` on `port` (0 picks a free one) and
  // listens; nothing is accepted before Start. `max_connections` > 0;
  // `max_per_address` > 0 caps the connections of one client address
  // ("ipv4:10.0.0.7"; on this machine, of one user at it), 0 does not;
  // `max_idle_ms` > 0 closes connections idle that long, 0 does not.
  static absl::StatusOr<std::unique_ptr<ConnectionLimiter>> Listen(
      const std::string& host, int port, int max_connections,
      int max_per_address = 0, int max_idle_ms = 0);
  ~ConnectionLimiter();  // Stop()

  int port() const { return port_; }
  int max_connections() const { return max_connections_; }

  // Accepts on a thread of its own and hands each connection to `acceptor`
  // (its server built and started; outliving Stop).
  void Start(grpc::experimental::ExternalConnectionAcceptor* acceptor);
  // Stops accepting and closes the listening sockets (connections already
  // handed over stay gRPC's). Idempotent.
  void Stop();

  // Connections handed to gRPC and still open (recounted now).
  int open_connections() ABSL_LOCKS_EXCLUDED(mu_);
  // Connections closed at once because the cap was reached, and because
  // their address's cap was.
  int64_t refused() const { return refused_.load(); }
  int64_t refused_per_address() const { return refused_per_address_.load(); }
  // Connections shut down for being idle.
  int64_t closed_idle() const { return closed_idle_.load(); }

  // The client of an open connection gRPC names `peer` ("ipv4:1.2.3.4:567"):
  // its address and, on this machine, " uid N"; empty if unknown.
  std::string ClientOf(const std::string& peer) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Connection {
    ino_t ino = 0;  // its socket's, to tell a reused descriptor number
    std::string client;  // address, and user on this machine
    std::string peer;    // as gRPC names it
  };
  ConnectionLimiter() = default;
  void AcceptLoop();
  void AcceptOne(int listener);
  void RecountLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Shuts down the connections idle for max_idle_ms_.
  void CloseIdleLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  int port_ = 0;
  int max_connections_ = 0;
  int max_per_address_ = 0;
  int max_idle_ms_ = 0;
  std::vector<int> listeners_;
  int wake_[2] = {-1, -1};  // a pipe: Stop writes, the loop wakes
  grpc::experimental::ExternalConnectionAcceptor* acceptor_ = nullptr;
  std::thread thread_;
  std::atomic<bool> stopped_{false};
  std::atomic<int64_t> refused_{0};
  std::atomic<int64_t> refused_per_address_{0};
  std::atomic<int64_t> closed_idle_{0};
  absl::Mutex mu_;
  absl::flat_hash_map<int, Connection> open_ ABSL_GUARDED_BY(mu_);  // by fd
  // Open connections by client, and the client by gRPC's name of the peer.
  absl::flat_hash_map<std::string, int> per_address_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> client_of_peer_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_CONNECTION_LIMITER_H_
