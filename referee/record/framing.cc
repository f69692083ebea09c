#include "referee/record/framing.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "referee/base/crc32c.h"

namespace cardref::record {
namespace {

constexpr uint64_t kTfHeaderSize = 12;  // length (8) + its masked CRC (4)
constexpr uint64_t kFooterSize = 4;     // masked CRC of the payload

void PutFixed32(std::string* dst, uint32_t v) {
  for (int i = 0; i < 4; ++i) dst->push_back(static_cast<char>(v >> (8 * i)));
}
void PutFixed64(std::string* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst->push_back(static_cast<char>(v >> (8 * i)));
}
uint32_t DecodeFixed32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | u[i];
  return v;
}
uint64_t DecodeFixed64(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | u[i];
  return v;
}

uint32_t MaskedCrc(const char* data, size_t n) {
  return crc32c::Mask(crc32c::Value(data, n));
}
char CheckByte(const char* varint, size_t n) {
  return static_cast<char>(MaskedCrc(varint, n) & 0xff);
}

// The payload of a record whose header (header_size bytes, announcing
// `length`) starts at `pos` and whose length has been checked.
ProbeResult ProbePayload(absl::string_view bytes, uint64_t pos,
                         uint64_t header_size, uint64_t length,
                         const RangeCrc* ranges) {
  const uint64_t after_header = bytes.size() - pos - header_size;
  // Overflow-free form of: header + length + footer > remaining.
  if (length > after_header || after_header - length < kFooterSize) {
    return {Probe::kTorn, length, header_size};
  }
  const uint64_t payload_pos = pos + header_size;
  const char* payload = bytes.data() + payload_pos;
  const size_t n = static_cast<size_t>(length);
  const uint32_t crc = ranges != nullptr
                           ? ranges->Of(payload_pos, payload_pos + length)
                           : crc32c::Value(payload, n);
  if (DecodeFixed32(payload + n) != crc32c::Mask(crc)) {
    return {Probe::kBadPayloadCrc, length, header_size};
  }
  return {Probe::kRecord, length, header_size};
}

ProbeResult ProbeTfRecord(absl::string_view bytes, uint64_t pos,
                          uint64_t max_size, const RangeCrc* ranges) {
  if (bytes.size() - pos < kTfHeaderSize) return {Probe::kTorn};
  const char* header = bytes.data() + pos;
  if (DecodeFixed32(header + 8) != MaskedCrc(header, 8)) {
    return {Probe::kBadLengthCrc};
  }
  const uint64_t length = DecodeFixed64(header);
  if (length > max_size) return {Probe::kTooLong, length, kTfHeaderSize};
  return ProbePayload(bytes, pos, kTfHeaderSize, length, ranges);
}

ProbeResult ProbeCompact(absl::string_view bytes, uint64_t pos,
                         uint64_t max_size, const RangeCrc* ranges) {
  const uint64_t remaining = bytes.size() - pos;
  const char* header = bytes.data() + pos;
  uint64_t length = 0;
  uint64_t varint_size = 0;
  for (;;) {
    if (varint_size == kCompactMaxHeaderSize - 1) {
      return {Probe::kBadLengthCrc};  // no last byte within 5: not a length
    }
    if (varint_size == remaining) return {Probe::kTorn};
    const auto b = static_cast<unsigned char>(header[varint_size]);
    length |= static_cast<uint64_t>(b & 0x7f) << (7 * varint_size);
    ++varint_size;
    if ((b & 0x80) == 0) break;
  }
  // One encoding per length: a varint padded with a zero byte is not one.
  if (varint_size > 1 && header[varint_size - 1] == 0) {
    return {Probe::kBadLengthCrc};
  }
  if (varint_size == remaining) return {Probe::kTorn};
  if (header[varint_size] != CheckByte(header, varint_size)) {
    return {Probe::kBadLengthCrc};
  }
  const uint64_t header_size = varint_size + 1;
  if (length > max_size) return {Probe::kTooLong, length, header_size};
  return ProbePayload(bytes, pos, header_size, length, ranges);
}

}  // namespace

RangeCrc::RangeCrc(absl::string_view bytes) : bytes_(bytes) {
  prefix_.reserve(bytes.size() / kStride + 1);
  uint32_t crc = 0;
  prefix_.push_back(crc);
  for (uint64_t end = kStride; end <= bytes.size(); end += kStride) {
    crc = crc32c::Extend(crc, bytes.data() + end - kStride, kStride);
    prefix_.push_back(crc);
  }
}

uint32_t RangeCrc::Of(uint64_t begin, uint64_t end) const {
  if (end - begin <= 2 * kStride) return Direct(begin, end);
  const uint64_t mid_begin = (begin + kStride - 1) / kStride * kStride;
  const uint64_t mid_end = end / kStride * kStride;
  const uint32_t middle =
      crc32c::Combine(prefix_[mid_begin / kStride], prefix_[mid_end / kStride],
                      mid_end - mid_begin);
  const uint32_t head_and_middle =
      crc32c::Combine(Direct(begin, mid_begin), middle, mid_end - mid_begin);
  return crc32c::Combine(head_and_middle, Direct(mid_end, end), end - mid_end);
}

uint32_t RangeCrc::Direct(uint64_t begin, uint64_t end) const {
  return crc32c::Value(bytes_.data() + begin, static_cast<size_t>(end - begin));
}

Framing DetectFraming(absl::string_view start, uint64_t* first_record,
                      bool* torn) {
  const absl::string_view magic(kCompactMagic, kCompactMagicSize);
  *torn = false;
  *first_record = 0;
  if (start.size() >= magic.size()) {
    if (start.substr(0, magic.size()) != magic) return Framing::kTfRecord;
    *first_record = magic.size();
    return Framing::kCompact;
  }
  // Shorter than the magic: a TFRecord file that short is torn anyway.
  if (!start.empty() && magic.substr(0, start.size()) == start) {
    *torn = true;
    return Framing::kCompact;
  }
  return Framing::kTfRecord;
}

ProbeResult ProbeAt(Framing framing, absl::string_view bytes, uint64_t pos,
                    uint64_t max_size, const RangeCrc* ranges) {
  return framing == Framing::kCompact
             ? ProbeCompact(bytes, pos, max_size, ranges)
             : ProbeTfRecord(bytes, pos, max_size, ranges);
}

std::string DescribeProbe(Framing framing, const ProbeResult& r, uint64_t pos,
                          uint64_t file_size, uint64_t max_size) {
  const uint64_t present = file_size - pos;
  switch (r.probe) {
    case Probe::kTorn:
      if (r.header_size == 0) {
        return framing == Framing::kCompact
                   ? absl::StrCat(
                         "file ends inside the header of the record at byte ",
                         pos, " (", present, " header bytes present)")
                   : absl::StrCat(
                         "file ends inside the header of the record at byte ",
                         pos, " (", present, " of ", kTfHeaderSize,
                         " header bytes present)");
      }
      return absl::StrCat("file ends inside the record at byte ", pos,
                          " (length ", r.length, " needs ", r.total(),
                          " bytes, ", present, " present)");
    case Probe::kBadLengthCrc:
      return absl::StrCat("length checksum mismatch at byte ", pos);
    case Probe::kTooLong:
      return absl::StrCat("record length ", r.length, " at byte ", pos,
                          " exceeds the maximum record size ", max_size);
    case Probe::kBadPayloadCrc:
      return absl::StrCat("payload checksum mismatch at byte ", pos,
                          " (record length ", r.length, ")");
    case Probe::kRecord:
      break;
  }
  return "no damage";
}

namespace {

// The length of `rest` without its trailing zero bytes.
uint64_t WrittenPart(absl::string_view rest) {
  uint64_t n = rest.size();
  while (n > 0 && rest[n - 1] == 0) --n;
  return n;
}

}  // namespace

bool IsUnwrittenTail(Framing framing, absl::string_view rest,
                     uint64_t max_size) {
  if (rest.empty() || rest.size() > kMaxUnwrittenTail || rest.back() != 0) {
    return false;
  }
  const uint64_t written = WrittenPart(rest);
  if (written == 0) return true;
  // A record cut short reads as one whose file ends inside it once the
  // zeros are left off (its own trailing zero bytes, if any, go too, and
  // it is still cut short).
  return ProbeAt(framing, rest.substr(0, written), 0, max_size).probe ==
         Probe::kTorn;
}

std::string DescribeUnwrittenTail(absl::string_view rest, uint64_t pos) {
  const uint64_t written = WrittenPart(rest);
  const char* why =
      "space its writer had reserved: the log was open when it was read, "
      "its match still playing or its referee stopped";
  if (written == 0) {
    return absl::StrCat("file ends in ", rest.size(),
                        " bytes of unwritten space from byte ", pos, " (",
                        why, ")");
  }
  return absl::StrCat("the record at byte ", pos, " is cut short after ",
                      written, " bytes, then the file ends in ",
                      rest.size() - written, " bytes of unwritten space (",
                      why, ")");
}

std::string DescribeTornMagic(uint64_t present) {
  return absl::StrCat("file ends inside the ", kCompactMagicSize,
                      "-byte file magic (", present, " present)");
}

std::string Frame(Framing framing, absl::string_view payload) {
  std::string framed;
  if (framing == Framing::kCompact) {
    framed.reserve(kCompactMaxHeaderSize + payload.size() + kFooterSize);
    uint64_t v = payload.size();
    while (v >= 0x80) {
      framed.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    framed.push_back(static_cast<char>(v));
    framed.push_back(CheckByte(framed.data(), framed.size()));
  } else {
    framed.reserve(kTfHeaderSize + payload.size() + kFooterSize);
    PutFixed64(&framed, payload.size());
    PutFixed32(&framed, MaskedCrc(framed.data(), 8));
  }
  framed.append(payload.data(), payload.size());
  PutFixed32(&framed, MaskedCrc(payload.data(), payload.size()));
  return framed;
}

}  // namespace cardref::record
