#include "web/referee_front.h"

#include <memory>
#include <string>
#include <utility>

#include "web/manager_public_view.h"

namespace cardref::web {
namespace {

class RefereeWebFront : public grpc_service::FrontEnd {
 public:
  static absl::StatusOr<std::unique_ptr<grpc_service::FrontEnd>> Start(
      WebOptions options, service::MatchManager* manager,
      const grpc_service::TlsPem& tls, const std::string& host) {
    std::unique_ptr<RefereeWebFront> front(new RefereeWebFront);
    front->view_ = std::make_unique<ManagerPublicView>(manager);
    options.host = host;
    options.tls_cert_chain_pem = tls.cert_chain;
    options.tls_key_pem = tls.key;
    absl::StatusOr<std::unique_ptr<WebFront>> started =
        WebFront::Start(std::move(options), manager, front->view_.get());
    if (!started.ok()) return started.status();
    front->front_ = *std::move(started);
    return front;
  }

  int port() const override { return front_->port(); }
  bool tls() const override { return front_->tls(); }
  void Stop() override { front_->Stop(); }

 private:
  RefereeWebFront() = default;
  std::unique_ptr<ManagerPublicView> view_;
  std::unique_ptr<WebFront> front_;  // destroyed first: it asks view_
};

}  // namespace

grpc_service::FrontEndOptions RefereeFrontEnd(WebOptions options) {
  grpc_service::FrontEndOptions out;
  out.host = options.host;
  out.host_flag = "--http_host";
  out.start = [options = std::move(options)](
                  service::MatchManager* manager,
                  const grpc_service::TlsPem& tls, const std::string& host) {
    return RefereeWebFront::Start(options, manager, tls, host);
  };
  return out;
}

}  // namespace cardref::web
