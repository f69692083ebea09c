#include "web/web_front.h"

#include <algorithm>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "web/routes.h"

namespace cardref::web {

// The server, once it has started and until it is going away.
class ForwardingScheduler : public Scheduler {
 public:
  void Set(Scheduler* target) {
    absl::MutexLock lock(&mu_);
    target_ = target;
  }
  void Post(std::function<void()> work) override {
    absl::MutexLock lock(&mu_);
    if (target_ != nullptr) target_->Post(std::move(work));
  }
  void PostAfter(absl::Duration delay, std::function<void()> work) override {
    absl::MutexLock lock(&mu_);
    if (target_ != nullptr) target_->PostAfter(delay, std::move(work));
  }

 private:
  absl::Mutex mu_;
  Scheduler* target_ ABSL_GUARDED_BY(mu_) = nullptr;
};

WebFront::WebFront() = default;

absl::StatusOr<std::unique_ptr<WebFront>> WebFront::Start(
    WebOptions options, service::MatchManager* manager,
    const PublicMatchView* view) {
  std::unique_ptr<WebFront> front(new WebFront);
  front->slots_ = std::make_unique<SseSlots>(options.max_streams,
                                             options.max_streams_per_client);
  front->scheduler_ = std::make_unique<ForwardingScheduler>();
  front->feeds_ = std::make_unique<FeedRegistry>(
      manager, front->scheduler_.get(), options.refresh_interval);
  RoutesContext context;
  context.manager = manager;
  context.view = view;
  context.feeds = front->feeds_.get();
  context.slots = front->slots_.get();
  context.delay_decisions = options.delay_decisions;
  front->routes_ = std::make_unique<WebRoutes>(context);
  HttpServerOptions http = options.http;
  http.host = options.host;
  http.port = options.port;
  http.tls_cert_chain_pem = std::move(options.tls_cert_chain_pem);
  http.tls_key_pem = std::move(options.tls_key_pem);
  // Every stream holds a connection: room for pages beside a full house.
  if (options.max_streams > 0) {
    http.max_connections =
        std::max(http.max_connections, options.max_streams + 64);
  }
  absl::StatusOr<std::unique_ptr<HttpServer>> server =
      HttpServer::Listen(std::move(http), front->routes_.get());
  if (!server.ok()) return server.status();
  front->server_ = *std::move(server);
  front->scheduler_->Set(front->server_.get());
  front->server_->Run();
  return front;
}

WebFront::~WebFront() {
  Stop();
  if (scheduler_ != nullptr) scheduler_->Set(nullptr);
  // The connections the server still holds hold the feeds (and their
  // slots): they go with it.
  server_.reset();
}

void WebFront::Stop() {
  if (server_ != nullptr) server_->Stop();
}

}  // namespace cardref::web
