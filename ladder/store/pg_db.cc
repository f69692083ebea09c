#include "ladder/store/pg_db.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace cardref::ladder {
namespace {

// What a failed commit may have done, said once for every message.
constexpr char kInDoubt[] =
    "the connection was lost while committing: the transaction may or may "
    "not have been applied; check before repeating it";

absl::Status WithSqlState(absl::StatusCode code, const std::string& message,
                          const std::string& sqlstate) {
  std::string text = message;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  if (!sqlstate.empty()) absl::StrAppend(&text, " (SQLSTATE ", sqlstate, ")");
  return absl::Status(code, text);
}

// Whether Transact may run the body again after `error`.
bool Retryable(const std::exception& error) {
  return dynamic_cast<const pqxx::transaction_rollback*>(&error) != nullptr ||
         dynamic_cast<const pqxx::unique_violation*>(&error) != nullptr ||
         (dynamic_cast<const pqxx::broken_connection*>(&error) != nullptr &&
          dynamic_cast<const pqxx::too_many_connections*>(&error) == nullptr);
}

}  // namespace

bool IsPostgresUrl(absl::string_view db) {
  return absl::StartsWith(db, "postgresql://") ||
         absl::StartsWith(db, "postgres://");
}

std::string RedactPostgresUrl(absl::string_view url) {
  std::string out(url);
  // userinfo: scheme://user:password@host
  const size_t scheme = out.find("://");
  if (scheme != std::string::npos) {
    const size_t start = scheme + 3;
    const size_t at = out.find('@', start);
    const size_t slash = out.find('/', start);
    if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
      const size_t colon = out.find(':', start);
      if (colon != std::string::npos && colon < at) {
        out.replace(colon + 1, at - colon - 1, "***");
      }
    }
  }
  // password=... in a query string or a key=value connection string
  for (size_t pos = out.find("password="); pos != std::string::npos;
       pos = out.find("password=", pos + 1)) {
    const size_t value = pos + 9;
    size_t end = out.find_first_of("& ", value);
    if (end == std::string::npos) end = out.size();
    out.replace(value, end - value, "***");
  }
  return out;
}

absl::Status PgError(const std::exception& error, absl::string_view what) {
  const std::string message = absl::StrCat(what, ": ", error.what());
  const auto* sql = dynamic_cast<const pqxx::sql_error*>(&error);
  const std::string sqlstate = sql != nullptr ? sql->sqlstate() : "";
  using absl::StatusCode;
  if (dynamic_cast<const pqxx::in_doubt_error*>(&error) != nullptr) {
    return absl::UnavailableError(absl::StrCat(what, ": ", kInDoubt));
  }
  if (dynamic_cast<const pqxx::broken_connection*>(&error) != nullptr) {
    if (absl::StrContains(error.what(), "does not exist")) {
      return WithSqlState(StatusCode::kNotFound, message, sqlstate);
    }
    return WithSqlState(
        StatusCode::kUnavailable,
        absl::StrCat(message, " (is the PostgreSQL server up and reachable?)"),
        sqlstate);
  }
  if (dynamic_cast<const pqxx::transaction_rollback*>(&error) != nullptr) {
    return WithSqlState(StatusCode::kAborted, message, sqlstate);
  }
  if (dynamic_cast<const pqxx::integrity_constraint_violation*>(&error) !=
      nullptr) {
    return WithSqlState(StatusCode::kFailedPrecondition, message, sqlstate);
  }
  if (dynamic_cast<const pqxx::insufficient_privilege*>(&error) != nullptr) {
    return WithSqlState(StatusCode::kPermissionDenied, message, sqlstate);
  }
  if (dynamic_cast<const pqxx::insufficient_resources*>(&error) != nullptr) {
    return WithSqlState(StatusCode::kResourceExhausted, message, sqlstate);
  }
  // Class 08 (connection exception) and 57P (operator intervention: the
  // server is shutting down) when libpqxx has no class of its own for them.
  if (absl::StartsWith(sqlstate, "08") || absl::StartsWith(sqlstate, "57P")) {
    return WithSqlState(StatusCode::kUnavailable, message, sqlstate);
  }
  return WithSqlState(StatusCode::kInternal, message, sqlstate);
}

int64_t PgInt(const pqxx::field& field) {
  int64_t value = 0;
  if (field.is_null() || !absl::SimpleAtoi(field.c_str(), &value)) {
    throw pqxx::conversion_error(
        absl::StrCat("column ", field.name(), " is not an integer: '",
                     field.is_null() ? "NULL" : field.c_str(), "'"));
  }
  return value;
}

double PgDouble(const pqxx::field& field) {
  double value = 0;
  if (field.is_null() || !absl::SimpleAtod(field.c_str(), &value)) {
    throw pqxx::conversion_error(
        absl::StrCat("column ", field.name(), " is not a number: '",
                     field.is_null() ? "NULL" : field.c_str(), "'"));
  }
  return value;
}

std::string PgText(const pqxx::field& field) {
  if (field.is_null()) {
    throw pqxx::conversion_error(
        absl::StrCat("column ", field.name(), " is NULL"));
  }
  return std::string(field.c_str(), field.size());
}

std::string PgFloat(double value) {
  // 17 significant digits read back to the same double.
  return absl::StrFormat("%.17g", value);
}

PgConnection::PgConnection(std::unique_ptr<pqxx::connection> conn,
                           std::string name, PgConnectOptions options)
    : conn_(std::move(conn)), name_(std::move(name)), options_(options) {}

PgConnection::~PgConnection() = default;

absl::StatusOr<std::unique_ptr<PgConnection>> PgConnection::Open(
    const std::string& url, const PgConnectOptions& options) {
  const std::string name = RedactPostgresUrl(url);
  try {
    auto conn = std::make_unique<pqxx::connection>(url);
    // Remembered by libpqxx and set again when it reconnects.
    conn->set_variable("synchronous_commit",
                       options.sync_every_commit ? "on" : "off");
    // Doubles as text that reads back exactly (the default on 12 and newer).
    conn->set_variable("extra_float_digits", "3");
    conn->set_variable("client_min_messages", "warning");
    return std::unique_ptr<PgConnection>(
        new PgConnection(std::move(conn), name, options));
  } catch (const std::exception& error) {
    return PgError(error, absl::StrCat("connecting to ", name));
  }
}

absl::Status PgConnection::Transact(
    absl::string_view what,
    const std::function<absl::Status(PgTransaction&)>& body) {
  const int tries = std::max(1, options_.max_tries);
  for (int attempt = 1;; ++attempt) {
    try {
      pqxx::work work(*conn_);
      PgTransaction transaction(work);
      absl::Status status = body(transaction);
      if (!status.ok()) return status;  // work's destructor rolls back
      work.commit();
      return absl::OkStatus();
    } catch (const std::exception& error) {
      if (!Retryable(error) || attempt >= tries) {
        absl::Status status = PgError(error, what);
        if (attempt > 1) {
          return absl::Status(status.code(),
                              absl::StrCat(status.message(), " (after ",
                                           attempt, " tries)"));
        }
        return status;
      }
      // The transaction that got in the way has committed or is about to:
      // wait a little longer each time.
      absl::SleepFor(absl::Milliseconds(std::min(attempt, 20)));
    }
  }
}

absl::Status PgConnection::Session(
    absl::string_view what,
    const std::function<absl::Status(PgTransaction&)>& body) {
  try {
    pqxx::nontransaction work(*conn_);
    PgTransaction statements(work);
    return body(statements);
  } catch (const std::exception& error) {
    return PgError(error, what);
  }
}

}  // namespace cardref::ladder
