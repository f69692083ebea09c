// The two CRC-32C implementations behind crc32c::Extend, exposed so a test
// can check they agree byte for byte. Not for use outside crc32c*.cc and
// its test: call crc32c::Extend, which picks the fastest available.
#ifndef CARDREF_REFEREE_BASE_CRC32C_INTERNAL_H_
#define CARDREF_REFEREE_BASE_CRC32C_INTERNAL_H_

#include <cstddef>
#include <cstdint>

namespace cardref::crc32c::internal {

// Table-driven, slicing-by-8; runs everywhere.
uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n);

// True if this CPU has the SSE4.2 CRC32 instruction (checked at run time).
bool HardwareAvailable();

// SSE4.2 CRC32 instruction. Precondition: HardwareAvailable().
uint32_t ExtendHardware(uint32_t init_crc, const char* data, size_t n);

}  // namespace cardref::crc32c::internal

#endif  // CARDREF_REFEREE_BASE_CRC32C_INTERNAL_H_
