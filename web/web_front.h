// The web front (docs/web.md): match pages, the read-only JSON API and the
// matches' public event streams over HTTP or HTTPS, on a port of its own,
// served by the referee's process from its MatchManager. It reads match
// events in the process (match_feed.h), shows a match only as far as the
// PublicMatchView allows, and has no organiser action.
#ifndef CARDREF_WEB_WEB_FRONT_H_
#define CARDREF_WEB_WEB_FRONT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "referee/service/match_manager.h"
#include "web/feed_registry.h"
#include "web/http_server.h"
#include "web/public_match_view.h"
#include "web/sse_slots.h"

namespace cardref::web {

struct WebOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0 picks a free port
  // PEM; both empty: plaintext (web/http_server.h).
  std::string tls_cert_chain_pem;
  std::string tls_key_pem;
  // Event streams open at once in all and from one client address
  // (docs/limits.md); 0: no cap.
  int max_streams = 256;
  int max_streams_per_client = 8;
  // The least delay, in decisions, of every public event stream: a client
  // may ask for more (?delay=N), never less.
  uint32_t delay_decisions = 0;
  // How often a live match's feed reads the match at most.
  absl::Duration refresh_interval = absl::Milliseconds(50);
  HttpServerOptions http;  // host, port and TLS are set from the above
};

class WebRoutes;
class ForwardingScheduler;

// Thread-safe. The manager and the view outlive it.
class WebFront {
 public:
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<WebFront>> Start(
      WebOptions options, service::MatchManager* manager,
      const PublicMatchView* view);
  // Stop(), then the streams' feeds are let go.
  ~WebFront();

  int port() const { return server_->port(); }
  bool tls() const { return server_->tls(); }
  const SseSlots& streams() const { return *slots_; }
  int connections() const { return server_->connections(); }
  // The listener closes and every connection with it. Idempotent.
  void Stop();

 private:
  WebFront();
  // Destroyed in reverse order: the server (and the streams it holds) first.
  std::unique_ptr<SseSlots> slots_;
  // The feeds' refreshes go to the server through it, and nowhere once the
  // server is going away.
  std::unique_ptr<ForwardingScheduler> scheduler_;
  std::unique_ptr<FeedRegistry> feeds_;
  std::unique_ptr<WebRoutes> routes_;
  std::unique_ptr<HttpServer> server_;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_WEB_FRONT_H_
