#include "web/http_answers.h"

#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "web/assets.h"
#include "web/match_json.h"
#include "web/pages.h"

namespace cardref::web {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> DecodeQueryValue(absl::string_view in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') {
      out.push_back(' ');
    } else if (in[i] == '%') {
      if (i + 2 >= in.size()) return std::nullopt;
      const int hi = HexDigit(in[i + 1]), lo = HexDigit(in[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(in[i]);
    }
  }
  return out;
}

}  // namespace

void AddSecurityHeaders(HttpResponse* r) {
  r->headers.emplace_back("Content-Security-Policy", kContentSecurityPolicy);
  r->headers.emplace_back("X-Content-Type-Options", "nosniff");
  r->headers.emplace_back("Referrer-Policy", "no-referrer");
  r->headers.emplace_back("X-Frame-Options", "DENY");
}

HttpAnswer TextAnswer(int status, std::string content_type, std::string body,
                      const char* cache) {
  HttpAnswer a;
  a.response.status = status;
  a.response.content_type = std::move(content_type);
  a.response.body = std::move(body);
  a.response.headers.emplace_back("Cache-Control", cache);
  AddSecurityHeaders(&a.response);
  return a;
}

HttpAnswer HtmlAnswer(int status, std::string page) {
  return TextAnswer(status, "text/html; charset=utf-8", std::move(page));
}

HttpAnswer JsonAnswer(int status, const nlohmann::json& value) {
  return TextAnswer(status, "application/json; charset=utf-8",
                    JsonText(value));
}

HttpAnswer JsonErrorAnswer(int status, absl::string_view message) {
  return JsonAnswer(status,
                    {{"error", {{"code", status}, {"message", message}}}});
}

bool IsReadMethod(const std::string& method) {
  return method == "GET" || method == "HEAD";
}

HttpAnswer MethodNotAllowed() {
  HttpAnswer a = JsonErrorAnswer(
      405, "this front is read-only: GET and HEAD only");
  a.response.headers.emplace_back("Allow", "GET, HEAD");
  return a;
}

HttpAnswer AssetAnswer(const std::string& name) {
  Asset asset;
  if (!FindAsset(name, &asset)) {
    return TextAnswer(404, "text/plain; charset=utf-8", "no such file\n");
  }
  return TextAnswer(200, std::string(asset.content_type),
                    std::string(asset.body), "no-cache");
}

int HttpStatusOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kFailedPrecondition:
      return 403;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

absl::StatusOr<std::map<std::string, std::string>> ParseQuery(
    absl::string_view query) {
  std::map<std::string, std::string> out;
  for (absl::string_view part : absl::StrSplit(query, '&', absl::SkipEmpty())) {
    const size_t eq = part.find('=');
    std::optional<std::string> name = DecodeQueryValue(part.substr(0, eq));
    std::optional<std::string> value = DecodeQueryValue(
        eq == absl::string_view::npos ? "" : part.substr(eq + 1));
    if (!name.has_value() || !value.has_value()) {
      return absl::InvalidArgumentError("malformed query string");
    }
    out[*name] = *value;
  }
  return out;
}

std::string BearerCredential(const HttpRequest& request) {
  absl::string_view value = absl::StripAsciiWhitespace(request.authorization);
  constexpr absl::string_view kScheme = "bearer ";
  if (value.size() <= kScheme.size() ||
      !absl::StartsWithIgnoreCase(value, kScheme)) {
    return "";
  }
  return std::string(absl::StripAsciiWhitespace(value.substr(kScheme.size())));
}

}  // namespace cardref::web
