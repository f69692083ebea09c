// Test support: a plain HTTP/1.1 client over a socket, enough to read the
// web front's answers (one request per connection) and its event streams.
#ifndef CARDREF_WEB_TESTING_HTTP_CLIENT_H_
#define CARDREF_WEB_TESTING_HTTP_CLIENT_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace cardref::web::testing {

struct Reply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

struct Event {
  std::string id;
  std::string name;
  std::string data;
};

// One connection; the request is sent at construction.
class Connection {
 public:
  Connection(int port, const std::string& method, const std::string& target,
             const std::vector<std::string>& header_lines = {}) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    std::string request =
        absl::StrCat(method, " ", target, " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (const std::string& line : header_lines) {
      absl::StrAppend(&request, line, "\r\n");
    }
    absl::StrAppend(&request, "\r\n");
    (void)::send(fd_, request.data(), request.size(), MSG_NOSIGNAL);
  }
  ~Connection() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool connected() const { return fd_ >= 0; }

  // Reads until the status line and headers are in; false on a timeout or
  // a close before them.
  bool ReadHead(Reply* reply, int timeout_ms = 10000) {
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill(timeout_ms)) return false;
    }
    const std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    std::vector<std::string> lines = absl::StrSplit(head, "\r\n");
    std::vector<std::string> status = absl::StrSplit(lines[0], ' ');
    if (status.size() < 2 || !absl::SimpleAtoi(status[1], &reply->status)) {
      return false;
    }
    for (size_t i = 1; i < lines.size(); ++i) {
      const size_t colon = lines[i].find(':');
      if (colon == std::string::npos) continue;
      reply->headers[absl::AsciiStrToLower(lines[i].substr(0, colon))] =
          std::string(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
    }
    return true;
  }

  // The rest, until the server closes the connection.
  std::string ReadToClose(int timeout_ms = 10000) {
    while (Fill(timeout_ms)) {
    }
    std::string out;
    out.swap(buffer_);
    return out;
  }

  // The next event of an event stream (after ReadHead); false on a timeout
  // or the stream's end. Comments and the retry field are skipped.
  bool NextEvent(Event* event, int timeout_ms = 10000) {
    for (;;) {
      size_t end;
      while ((end = buffer_.find("\n\n")) == std::string::npos) {
        if (!Fill(timeout_ms)) return false;
      }
      const std::string block = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      *event = Event();
      bool any = false;
      for (absl::string_view line : absl::StrSplit(block, '\n')) {
        if (line.empty() || line[0] == ':') continue;
        const size_t colon = line.find(':');
        const absl::string_view name = line.substr(0, colon);
        absl::string_view value =
            colon == absl::string_view::npos ? "" : line.substr(colon + 1);
        if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
        if (name == "id") event->id = std::string(value), any = true;
        if (name == "event") event->name = std::string(value), any = true;
        if (name == "data") event->data = std::string(value), any = true;
      }
      if (any) return true;
    }
  }

  // True if the server has closed the connection within `timeout_ms`.
  bool ClosedWithin(int timeout_ms) {
    while (Fill(timeout_ms)) {
    }
    return closed_;
  }

 private:
  bool Fill(int timeout_ms) {
    if (fd_ < 0 || closed_) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      closed_ = true;
      return false;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool closed_ = false;
  std::string buffer_;
};

// A whole answer.
inline Reply Fetch(int port, const std::string& target,
                   const std::string& method = "GET",
                   const std::vector<std::string>& header_lines = {}) {
  Connection c(port, method, target, header_lines);
  Reply reply;
  if (!c.ReadHead(&reply)) return reply;
  reply.body = c.ReadToClose();
  return reply;
}

}  // namespace cardref::web::testing

#endif  // CARDREF_WEB_TESTING_HTTP_CLIENT_H_
