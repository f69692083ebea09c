// Status propagation helpers: Debian's Abseil 20220623 ships none.
#ifndef CARDREF_REFEREE_BASE_STATUS_MACROS_H_
#define CARDREF_REFEREE_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define CARDREF_CONCAT_INNER_(a, b) a##b
#define CARDREF_CONCAT_(a, b) CARDREF_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define RETURN_IF_ERROR(expr)                                  \
  do {                                                         \
    ::absl::Status cardref_status_ = (expr);                   \
    if (!cardref_status_.ok()) return cardref_status_;         \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, Foo());` declares/assigns x from an
// absl::StatusOr, or returns its status from the enclosing function.
#define ASSIGN_OR_RETURN(lhs, expr)                                         \
  ASSIGN_OR_RETURN_IMPL_(CARDREF_CONCAT_(cardref_statusor_, __LINE__), lhs, \
                         expr)
// `tmp` is a name and `lhs` a declaration: neither can be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                           \
  if (!tmp.ok()) return tmp.status();          \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

#endif  // CARDREF_REFEREE_BASE_STATUS_MACROS_H_
