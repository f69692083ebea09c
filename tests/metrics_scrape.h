// Scraping /metrics in tests: a plain HTTP/1.0 GET over loopback and a
// reader for the Prometheus text format.
#ifndef CARDREF_TESTS_METRICS_SCRAPE_H_
#define CARDREF_TESTS_METRICS_SCRAPE_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <initializer_list>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"

namespace cardref::testing_ops {

// The body of GET http://127.0.0.1:<port><path>, or "" if it failed.
// `timeout_ms` > 0 bounds each send and each read (SO_SNDTIMEO,
// SO_RCVTIMEO): a server that does not answer in time makes it fail.
inline std::string HttpGet(int port, const std::string& path = "/metrics",
                           int timeout_ms = 0) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  if (timeout_ms > 0) {
    timeval tv{};
    tv.tv_sec = timeout_ms / 1000;
    tv.tv_usec = static_cast<suseconds_t>(timeout_ms % 1000) * 1000;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    const std::string request =
        "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (::write(fd, request.data(), request.size()) ==
        static_cast<ssize_t>(request.size())) {
      char buffer[4096];
      ssize_t n;
      while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) {
        response.append(buffer, static_cast<size_t>(n));
      }
    }
  }
  ::close(fd);
  const size_t body = response.find("\r\n\r\n");
  if (!absl::StartsWith(response, "HTTP/1.") || body == std::string::npos ||
      response.find(" 200 ") > body) {
    return "";
  }
  return response.substr(body + 4);
}

// The sum of the samples of metric `name` (exactly: "name" or "name{...}")
// whose label text contains every one of `labels` (e.g. "status=\"finished\"").
// -1 if there is none.
inline double MetricSum(const std::string& text, absl::string_view name,
                        std::initializer_list<absl::string_view> labels = {}) {
  std::istringstream in(text);
  std::string line;
  double sum = 0;
  bool found = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!absl::StartsWith(line, name)) continue;
    const char after = line.size() > name.size() ? line[name.size()] : '\0';
    if (after != '{' && after != ' ') continue;
    const size_t space = line.rfind(' ');
    const std::string series = line.substr(0, space);
    bool match = true;
    for (absl::string_view l : labels) match &= absl::StrContains(series, l);
    double value;
    if (!match || !absl::SimpleAtod(line.substr(space + 1), &value)) continue;
    sum += value;
    found = true;
  }
  return found ? sum : -1;
}

}  // namespace cardref::testing_ops

#endif  // CARDREF_TESTS_METRICS_SCRAPE_H_
