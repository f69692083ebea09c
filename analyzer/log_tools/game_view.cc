#include "analyzer/log_tools/game_view.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace cardref::log_tools {

std::string GameView::CardsText(const std::vector<uint32_t>& cards) const {
  std::vector<std::string> texts;
  texts.reserve(cards.size());
  for (uint32_t c : cards) texts.push_back(Face(c).Text());
  return absl::StrJoin(texts, " ");
}

std::string PerSeat(const std::vector<std::string>& names,
                    const std::vector<std::string>& values) {
  std::vector<std::string> parts;
  for (size_t s = 0; s < values.size(); ++s) {
    parts.push_back(
        absl::StrCat(s < names.size() ? names[s] : absl::StrCat("seat ", s),
                     " ", values[s]));
  }
  return absl::StrJoin(parts, ", ");
}

std::string SeatList(const std::vector<std::string>& names,
                     const std::vector<int>& seats) {
  if (seats.empty()) return "nobody";
  std::vector<std::string> parts;
  parts.reserve(seats.size());
  for (int s : seats) {
    parts.push_back(s >= 0 && s < static_cast<int>(names.size())
                        ? names[s]
                        : absl::StrCat("seat ", s));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace cardref::log_tools
