// The version every cardref binary reports and the referee writes into logs.
#ifndef CARDREF_TOOLS_VERSION_H_
#define CARDREF_TOOLS_VERSION_H_

namespace cardref {
inline constexpr char kVersion[] = "0.1.0";
}  // namespace cardref

#endif  // CARDREF_TOOLS_VERSION_H_
