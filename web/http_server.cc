#include "web/http_server.h"

#include <chrono>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "boost/asio.hpp"
#include "boost/asio/ssl.hpp"
#include "boost/beast/core.hpp"
#include "boost/beast/http.hpp"
#include "boost/beast/ssl.hpp"

namespace cardref::web {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using beast::error_code;

std::chrono::steady_clock::duration Chrono(absl::Duration d) {
  return absl::ToChronoNanoseconds(d);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The path of an origin-form target, percent-decoded; nullopt for anything
// else, a bad escape or an escaped NUL.
std::optional<std::string> DecodePath(absl::string_view path) {
  if (path.empty() || path[0] != '/') return std::nullopt;
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      out.push_back(path[i]);
      continue;
    }
    if (i + 2 >= path.size()) return std::nullopt;
    const int hi = HexDigit(path[i + 1]);
    const int lo = HexDigit(path[i + 2]);
    if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

// What a session needs of its server. Outlives the io_context: the sessions
// its queue still holds when it is destroyed count themselves out here.
struct ServerState {
  HttpHandler* handler = nullptr;
  HttpServerOptions options;
  std::atomic<int> connections{0};

  // Posts `work` to `executor` unless the server has stopped: nothing is
  // posted to an io_context that is being destroyed.
  template <class Executor>
  void PostTo(const Executor& executor, std::function<void()> work) {
    absl::MutexLock lock(&mu);
    if (!stopped) asio::post(executor, std::move(work));
  }
  absl::Mutex mu;
  bool stopped ABSL_GUARDED_BY(mu) = false;
};

// One connection: a request, then an answer or a stream of events. Every
// handler runs on the connection's strand (its stream's executor).
template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  Session(Stream stream, ServerState* server)
      : stream_(std::move(stream)),
        server_(server),
        wait_timer_(stream_.get_executor()) {}
  ~Session() { server_->connections.fetch_sub(1); }

  void Start() {
    tcp_stream().expires_after(Chrono(server_->options.request_timeout));
    if constexpr (kTls) {
      stream_.async_handshake(
          asio::ssl::stream_base::server,
          [self = this->shared_from_this()](error_code ec) {
            if (ec) return self->Close();
            self->ReadRequest();
          });
    } else {
      ReadRequest();
    }
  }

 private:
  static constexpr bool kTls =
      !std::is_same_v<Stream, beast::tcp_stream>;

  beast::tcp_stream& tcp_stream() { return beast::get_lowest_layer(stream_); }

  void ReadRequest() {
    parser_.emplace();
    parser_->header_limit(
        static_cast<std::uint32_t>(server_->options.max_header_bytes));
    parser_->body_limit(0);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](error_code ec, size_t) {
                       self->OnRequest(ec);
                     });
  }

  void OnRequest(error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::eof || ec == asio::error::connection_reset ||
        ec == asio::ssl::error::stream_truncated) {
      return Close();
    }
    if (ec == http::error::header_limit) {
      return Fail(431, "request headers too large");
    }
    if (ec == http::error::body_limit || ec == http::error::unexpected_body) {
      return Fail(413, "this server takes no request body");
    }
    if (ec) return Fail(400, "malformed request");
    const http::request<http::empty_body>& req = parser_->get();
    HttpRequest request;
    request.method = std::string(req.method_string());
    const absl::string_view target(req.target().data(), req.target().size());
    const size_t q = target.find('?');
    std::optional<std::string> path = DecodePath(target.substr(0, q));
    if (!path.has_value()) return Fail(400, "malformed request target");
    request.path = *std::move(path);
    if (q != absl::string_view::npos) request.query = std::string(target.substr(q + 1));
    if (auto it = req.find("Last-Event-ID"); it != req.end()) {
      request.last_event_id = std::string(it->value());
    }
    if (auto it = req.find(http::field::authorization); it != req.end()) {
      request.authorization = std::string(it->value());
    }
    error_code peer_ec;
    const tcp::endpoint peer = tcp_stream().socket().remote_endpoint(peer_ec);
    if (!peer_ec) request.client = peer.address().to_string();
    head_only_ = request.method == "HEAD";
    HttpAnswer answer = server_->handler->Handle(request);
    if (answer.events != nullptr && !head_only_) {
      source_ = std::move(answer.events);
      return StartEvents(answer.response);
    }
    Respond(std::move(answer.response));
  }

  void Fail(int status, const std::string& message) {
    HttpResponse r;
    r.status = status;
    r.body = message + "\n";
    Respond(std::move(r));
  }

  void Respond(HttpResponse r) {
    tcp_stream().expires_after(Chrono(server_->options.write_timeout));
    if (head_only_) {
      auto res = std::make_shared<http::response<http::empty_body>>();
      res->result(static_cast<unsigned>(r.status));
      res->version(11);
      res->set(http::field::content_type, r.content_type);
      for (const auto& [name, value] : r.headers) res->set(name, value);
      res->keep_alive(false);
      res->content_length(r.body.size());  // the GET's
      http::async_write(stream_, *res,
                        [self = this->shared_from_this(), res](error_code,
                                                               size_t) {
                          self->Close();
                        });
      return;
    }
    auto res = std::make_shared<http::response<http::string_body>>();
    res->result(static_cast<unsigned>(r.status));
    res->version(11);
    res->set(http::field::content_type, r.content_type);
    for (const auto& [name, value] : r.headers) res->set(name, value);
    res->keep_alive(false);
    res->body() = std::move(r.body);
    res->prepare_payload();
    http::async_write(stream_, *res,
                      [self = this->shared_from_this(), res](error_code,
                                                             size_t) {
                        self->Close();
                      });
  }

  // --- server-sent events ---

  void StartEvents(const HttpResponse& r) {
    header_ = std::make_unique<http::response<http::empty_body>>();
    header_->result(static_cast<unsigned>(r.status));
    header_->version(11);
    header_->set(http::field::content_type, "text/event-stream; charset=utf-8");
    for (const auto& [name, value] : r.headers) header_->set(name, value);
    header_->keep_alive(false);
    serializer_ =
        std::make_unique<http::response_serializer<http::empty_body>>(*header_);
    tcp_stream().expires_after(Chrono(server_->options.write_timeout));
    http::async_write_header(
        stream_, *serializer_,
        [self = this->shared_from_this()](error_code ec, size_t) {
          if (ec) return self->Close();
          self->tcp_stream().expires_never();
          self->WatchPeer();
          self->Pump();
        });
  }

  // The client sends nothing more: whatever arrives (its close, a reset,
  // bytes) ends the stream.
  void WatchPeer() {
    stream_.async_read_some(
        asio::buffer(peer_byte_),
        [self = this->shared_from_this()](error_code, size_t) {
          self->Close();
        });
  }

  void Pump() {
    if (closed_) return;
    bool done = false;
    std::string text = source_->Next(&done);
    if (!text.empty()) return Write(std::move(text), done);
    if (done) return Close();
    std::weak_ptr<Session> weak = this->shared_from_this();
    auto executor = stream_.get_executor();
    ServerState* server = server_;
    source_->NotifyWhenReady([weak, executor, server] {
      server->PostTo(executor, [weak] {
        if (auto self = weak.lock()) self->Woken();
      });
    });
    waiting_ = true;
    wait_timer_.expires_after(Chrono(server_->options.event_keepalive));
    wait_timer_.async_wait([self = this->shared_from_this()](error_code ec) {
      if (ec || self->closed_ || !self->waiting_) return;
      self->waiting_ = false;
      self->Write(":\n\n", false);  // a comment: the connection is alive
    });
  }

  void Woken() {
    if (closed_ || !waiting_) return;
    waiting_ = false;
    wait_timer_.cancel();
    Pump();
  }

  void Write(std::string text, bool done) {
    out_ = std::move(text);
    tcp_stream().expires_after(Chrono(server_->options.write_timeout));
    asio::async_write(
        stream_, asio::buffer(out_),
        [self = this->shared_from_this(), done](error_code ec, size_t) {
          if (ec || done) return self->Close();
          self->tcp_stream().expires_never();
          // Events due before the interval is over go in the next write.
          self->wait_timer_.expires_after(
              Chrono(self->server_->options.event_interval));
          self->wait_timer_.async_wait([self](error_code wait_ec) {
            if (!wait_ec) self->Pump();
          });
        });
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    waiting_ = false;
    wait_timer_.cancel();
    source_.reset();  // no wake after this
    error_code ec;
    tcp_stream().socket().shutdown(tcp::socket::shutdown_both, ec);
    tcp_stream().close();
  }

  Stream stream_;
  ServerState* const server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  bool head_only_ = false;
  bool closed_ = false;
  // Events.
  std::unique_ptr<EventSource> source_;
  std::unique_ptr<http::response<http::empty_body>> header_;
  std::unique_ptr<http::response_serializer<http::empty_body>> serializer_;
  asio::steady_timer wait_timer_;
  bool waiting_ = false;  // for a wake or the keepalive
  std::string out_;
  char peer_byte_[1] = {};
};

}  // namespace

class HttpServer::Impl {
 public:
  explicit Impl(HttpServerOptions options, HttpHandler* handler)
      : acceptor_(io_) {
    state_.options = std::move(options);
    state_.handler = handler;
  }

  ~Impl() { Stop(); }

  absl::Status Listen() {
    const HttpServerOptions& o = state_.options;
    if (!o.tls_cert_chain_pem.empty() || !o.tls_key_pem.empty()) {
      ssl_.emplace(asio::ssl::context::tls_server);
      error_code ec;
      ssl_->set_options(asio::ssl::context::default_workarounds |
                            asio::ssl::context::no_sslv2 |
                            asio::ssl::context::no_sslv3 |
                            asio::ssl::context::no_tlsv1 |
                            asio::ssl::context::no_tlsv1_1,
                        ec);
      if (!ec) {
        ssl_->use_certificate_chain(asio::buffer(o.tls_cert_chain_pem), ec);
      }
      if (!ec) {
        ssl_->use_private_key(asio::buffer(o.tls_key_pem),
                              asio::ssl::context::pem, ec);
      }
      if (ec) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the web front cannot serve HTTPS with this certificate and key: ",
            ec.message()));
      }
    }
    error_code ec;
    tcp::resolver resolver(io_);
    const tcp::resolver::results_type found = resolver.resolve(
        o.host, std::to_string(o.port), tcp::resolver::passive, ec);
    if (ec || found.empty()) {
      return absl::UnavailableError(absl::StrCat(
          "the web front cannot resolve host '", o.host, "': ", ec.message()));
    }
    tcp::endpoint endpoint = found.begin()->endpoint();
    for (const auto& entry : found) {
      if (entry.endpoint().address().is_v4()) {
        endpoint = entry.endpoint();
        break;
      }
    }
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      return absl::UnavailableError(
          absl::StrCat("the web front cannot listen on ",
                       endpoint.address().to_string(), ":", o.port, ": ",
                       ec.message()));
    }
    port_ = acceptor_.local_endpoint(ec).port();
    return absl::OkStatus();
  }

  void Run() {
    absl::MutexLock lock(&state_.mu);
    if (state_.stopped || !threads_.empty()) return;
    Accept();
    for (int i = 0; i < std::max(1, state_.options.threads); ++i) {
      threads_.emplace_back([this] { io_.run(); });
    }
  }

  void Stop() {
    {
      absl::MutexLock lock(&state_.mu);
      if (state_.stopped) return;
      state_.stopped = true;
    }
    work_.reset();
    io_.stop();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    error_code ec;
    acceptor_.close(ec);
  }

  void Post(std::function<void()> work) {
    state_.PostTo(io_.get_executor(), std::move(work));
  }

  void PostAfter(absl::Duration delay, std::function<void()> work) {
    auto timer = std::make_shared<asio::steady_timer>(io_, Chrono(delay));
    state_.PostTo(io_.get_executor(),
                  [timer, work = std::move(work)]() mutable {
                    timer->async_wait(
                        [timer, work = std::move(work)](error_code ec) {
                          if (!ec) work();
                        });
                  });
  }

  int port() const { return port_; }
  bool tls() const { return ssl_.has_value(); }
  int connections() const { return state_.connections.load(); }

 private:
  void Accept() {
    acceptor_.async_accept(
        asio::make_strand(io_), [this](error_code ec, tcp::socket socket) {
          if (ec == asio::error::operation_aborted) return;
          if (!ec) Serve(std::move(socket));
          Accept();
        });
  }

  void Serve(tcp::socket socket) {
    if (state_.connections.load() >= state_.options.max_connections) {
      error_code ec;
      socket.close(ec);  // past the cap: closed at once
      return;
    }
    state_.connections.fetch_add(1);
    beast::tcp_stream stream(std::move(socket));
    if (ssl_.has_value()) {
      std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(
          beast::ssl_stream<beast::tcp_stream>(std::move(stream), *ssl_),
          &state_)
          ->Start();
    } else {
      std::make_shared<Session<beast::tcp_stream>>(std::move(stream), &state_)
          ->Start();
    }
  }

  ServerState state_;  // declared first: destroyed after io_
  std::optional<asio::ssl::context> ssl_;
  asio::io_context io_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>>
      work_{asio::make_work_guard(io_)};
  tcp::acceptor acceptor_;
  std::vector<std::thread> threads_;
  int port_ = 0;
};

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() { Stop(); }

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Listen(
    HttpServerOptions options, HttpHandler* handler) {
  auto impl = std::make_unique<Impl>(std::move(options), handler);
  if (absl::Status st = impl->Listen(); !st.ok()) return st;
  std::unique_ptr<HttpServer> server(new HttpServer(std::move(impl)));
  server->port_ = server->impl_->port();
  server->tls_ = server->impl_->tls();
  return server;
}

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(
    HttpServerOptions options, HttpHandler* handler) {
  absl::StatusOr<std::unique_ptr<HttpServer>> server =
      Listen(std::move(options), handler);
  if (server.ok()) (*server)->Run();
  return server;
}

void HttpServer::Run() { impl_->Run(); }

int HttpServer::connections() const { return impl_->connections(); }
void HttpServer::Stop() { impl_->Stop(); }
void HttpServer::Post(std::function<void()> work) {
  impl_->Post(std::move(work));
}
void HttpServer::PostAfter(absl::Duration delay, std::function<void()> work) {
  impl_->PostAfter(delay, std::move(work));
}

}  // namespace cardref::web
