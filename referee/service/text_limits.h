// Limits on the free-text fields of requests (names, versions, ids,
// reasons): a length cap and a character set, so a client can neither make
// the referee store megabytes nor forge lines of a report with control
// characters or ANSI escapes. Checked in the service layer, so every entry
// point applies the same rules.
#ifndef CARDREF_REFEREE_SERVICE_TEXT_LIMITS_H_
#define CARDREF_REFEREE_SERVICE_TEXT_LIMITS_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace cardref::service {

inline constexpr size_t kMaxPlayerNameChars = 64;
inline constexpr size_t kMaxPlayerVersionChars = 64;
inline constexpr size_t kMaxIdChars = 128;      // match ids, deal set ids
inline constexpr size_t kMaxGameIdChars = 64;
inline constexpr size_t kMaxSecretChars = 128;  // tokens and tickets
inline constexpr size_t kMaxReasonChars = 200;
// An action's notation is a few words ("play 8S:H"); the longest legal one
// of any game is far shorter.
inline constexpr size_t kMaxNotationChars = 256;

// At most this many characters of a client's text are quoted back in an
// error message (escaped).
inline constexpr size_t kQuotedPrefixChars = 24;

// OK iff `value` is valid UTF-8 of at most `max_chars` code points with no
// control character (U+0000..U+001F, U+007F..U+009F) and no line or
// paragraph separator (U+2028, U+2029). INVALID_ARGUMENT otherwise, naming
// `field`, the rule broken and a short escaped prefix of the value.
[[nodiscard]] absl::Status CheckText(absl::string_view field,
                                     absl::string_view value,
                                     size_t max_chars);

// CheckText with kMaxPlayerNameChars, then the naming rule: no
// Bidi_Control or Default_Ignorable_Code_Point character, one script
// (unicode::FindNameFault; docs/bots.md, "Names"). INVALID_ARGUMENT naming
// `field`, the character (U+XXXX), its property or script, and its byte.
[[nodiscard]] absl::Status CheckPlayerName(absl::string_view field,
                                           absl::string_view value);
// CheckText with kMaxPlayerVersionChars, and no Bidi_Control or
// Default_Ignorable_Code_Point character (scripts may mix).
[[nodiscard]] absl::Status CheckPlayerVersion(absl::string_view field,
                                              absl::string_view value);

// At most kQuotedPrefixChars bytes of `value`, every byte outside printable
// ASCII written as \xHH, followed by "..." when cut.
std::string QuotePrefix(absl::string_view value);

// What the referee stores of a client's text it has refused (a rejected
// submission's notation, docs/limits.md): `value` itself if CheckText
// accepts it, else its QuotePrefix (escaped printable ASCII), so a log never
// holds a client's control characters, NUL, invalid UTF-8 or megabytes.
std::string LoggableText(absl::string_view value, size_t max_chars);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_TEXT_LIMITS_H_
