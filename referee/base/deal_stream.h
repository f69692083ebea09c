// "cardref-deal-v1": every deck order and reshuffle of a match derived from
// its secret 32-byte seed, so that after the seed is revealed anyone can
// check the deals were fixed before play (docs/log_format.md, "Proof of the
// deal"). Uses no standard-library RNG.
//
// A chance event is named by its label (kind, round, ordinal): the kind is
// the ChanceKind number of log.proto (1 deal, 2 reshuffle, 3 trump deck),
// the round is the number of RoundResult records logged before it (0 in
// the first round), the ordinal counts the earlier chance events of the
// same kind in that round. A reshuffle more or fewer in one round therefore
// changes no other round's deal: duplicate play with the seats permuted
// deals the same orders in every round.
//
// Stream: block_i = SHA-256("cardref-deal-v1" 0x00 seed u32le(kind)
// u32le(round) u32le(ordinal) u64le(i)) for i = 0, 1, ...; the blocks'
// bytes are read as consecutive u32le words. Uniform(n): draw a word w,
// reject it while w >= 2^32 - (2^32 mod n), answer w mod n. Order: the
// event's cards sorted ascending, then Fisher-Yates from the last index
// down: for i = n-1 .. 1, swap cards[i] and cards[Uniform(i + 1)]. Index 0
// of the result is dealt first (ChanceEvent.cards).
#ifndef CARDREF_REFEREE_BASE_DEAL_STREAM_H_
#define CARDREF_REFEREE_BASE_DEAL_STREAM_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "referee/base/sha256.h"

namespace cardref {

inline constexpr char kDealAlgorithm[] = "cardref-deal-v1";
inline constexpr size_t kDealSeedSize = 32;

struct ChanceLabel {
  uint32_t kind = 0;
  uint32_t round = 0;
  uint32_t ordinal = 0;
};

// The word stream of one chance event. Not thread-safe.
class DealStream {
 public:
  // Precondition: seed.size() == kDealSeedSize.
  DealStream(absl::string_view seed, ChanceLabel label);

  uint32_t NextWord();
  // Uniform in [0, n), unbiased (rejection). Precondition: n > 0.
  uint32_t Uniform(uint32_t n);

 private:
  void Refill();

  std::string prefix_;  // the hash input before the counter
  uint64_t counter_ = 0;
  // One context for every block (a context made, fetched and
  // freed per block, and two strings, were most of re-deriving a deal).
  crypto::Sha256Hasher hasher_;
  unsigned char block_[crypto::kSha256Size];
  size_t used_ = sizeof(block_);  // bytes of block_ consumed
};

// Puts `cards` in the order cardref-deal-v1 gives the event `label`: sorts
// them, then shuffles them with DealStream(seed, label). Any integer card
// type; the order depends only on the multiset of cards, not their input
// order.
template <typename T>
void DeriveDealOrder(absl::string_view seed, ChanceLabel label,
                     absl::Span<T> cards) {
  std::sort(cards.begin(), cards.end());
  DealStream stream(seed, label);
  for (size_t i = cards.size(); i > 1; --i) {
    const size_t j = stream.Uniform(static_cast<uint32_t>(i));
    std::swap(cards[i - 1], cards[j]);
  }
}

}  // namespace cardref

#endif  // CARDREF_REFEREE_BASE_DEAL_STREAM_H_
