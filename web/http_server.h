// The web front's HTTP server: Boost.Beast over Boost.Asio, plaintext or
// TLS, one request per connection (no keep-alive), answered by an
// HttpHandler; an answer may go on as a stream of server-sent events
// (text/event-stream) fed by an EventSource. It knows nothing of matches.
//
// Debian 12's civetweb (the metrics server's) cannot serve TLS: it calls
// OpenSSL 1.1's SSL_get_peer_certificate, which OpenSSL 3 does not have, and
// its worker crashes after the first handshake. Beast's TLS is OpenSSL's own.
//
// Bounds (docs/limits.md, "The web front"): connections open at once (past
// the cap a new one is closed at once); a request's TLS handshake and
// headers must arrive within request_timeout; headers are at most
// max_header_bytes and a request has no body; every write must finish
// within write_timeout, so a reader that stops reading is dropped. An event
// stream writes at most once per event_interval (events due meanwhile go
// together), sends a comment line after event_keepalive without events,
// and ends when its client closes the connection or sends anything.
#ifndef CARDREF_WEB_HTTP_SERVER_H_
#define CARDREF_WEB_HTTP_SERVER_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "web/scheduler.h"

namespace cardref::web {

struct HttpServerOptions {
  // A name or address; the server listens on the first address it resolves
  // to (IPv4 first). Port 0 picks a free port.
  std::string host = "127.0.0.1";
  int port = 0;
  // PEM certificate chain and private key: HTTPS. Both empty: plaintext.
  std::string tls_cert_chain_pem;
  std::string tls_key_pem;
  int threads = 4;
  int max_connections = 512;
  absl::Duration request_timeout = absl::Seconds(5);
  absl::Duration write_timeout = absl::Seconds(10);
  size_t max_header_bytes = 8192;
  absl::Duration event_interval = absl::Milliseconds(100);
  absl::Duration event_keepalive = absl::Seconds(15);
};

struct HttpRequest {
  std::string method;  // "GET"
  std::string path;    // percent-decoded, without the query
  std::string query;   // as sent, after '?'
  std::string last_event_id;  // the Last-Event-ID header, if any
  std::string authorization;  // the Authorization header, if any
  std::string client;  // the peer's address ("127.0.0.1")
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// A stream of server-sent events, owned by its connection. Next is called
// on the connection's strand only; the wake of NotifyWhenReady may be
// called on any thread, until the source is destroyed.
class EventSource {
 public:
  virtual ~EventSource() = default;
  // The text due now (whole events, text/event-stream), empty if none.
  // *done: nothing follows it (the server closes the stream once it is
  // written).
  virtual std::string Next(bool* done) = 0;
  // Calls `wake` once when Next has more to return (at once if it has),
  // replacing an earlier wake not yet called.
  virtual void NotifyWhenReady(std::function<void()> wake) = 0;
};

struct HttpAnswer {
  // With `events`: the status line and headers of the stream (its body is
  // the events); content_type is set to text/event-stream.
  HttpResponse response;
  std::unique_ptr<EventSource> events;
};

// Called on the server's threads, several at once; may block briefly.
class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  virtual HttpAnswer Handle(const HttpRequest& request) = 0;
};

// Thread-safe. The handler outlives the server.
class HttpServer : public Scheduler {
 public:
  // INVALID_ARGUMENT for a TLS pair OpenSSL refuses; UNAVAILABLE if the
  // host does not resolve or the address cannot be bound.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<HttpServer>> Start(
      HttpServerOptions options, HttpHandler* handler);
  // The same, but it only listens (connections wait in the backlog) until
  // Run: what posts work here can be told of the server first.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<HttpServer>> Listen(
      HttpServerOptions options, HttpHandler* handler);
  void Run();
  // Stop(), then every connection is closed.
  ~HttpServer() override;

  int port() const { return port_; }
  bool tls() const { return tls_; }
  // Connections open now.
  int connections() const;
  // No new connection; the threads end (connections in progress are cut);
  // work posted from now on is dropped. Idempotent.
  void Stop();

  void Post(std::function<void()> work) override;
  void PostAfter(absl::Duration delay, std::function<void()> work) override;

 private:
  class Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  bool tls_ = false;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_HTTP_SERVER_H_
