#!/usr/bin/env python3
"""Writes the damaged TFRecord files in this folder (run it here).

Independent of the C++ code on purpose: a bitwise CRC-32C and the framing
written out from docs/log_format.md, so the files check the reader against
the format, not against itself. Expected readings: README.md.
"""
import struct


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def mask(crc):
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def frame(payload):
    length = struct.pack('<Q', len(payload))
    return (length + struct.pack('<I', mask(crc32c(length))) + payload +
            struct.pack('<I', mask(crc32c(payload))))


assert crc32c(b'123456789') == 0xE3069283

hello, world = frame(b'hello'), frame(b'world')
huge = struct.pack('<Q', 1 << 40)
FILES = {
    'hello_world.tfrecord': hello + world,
    'torn_header.tfrecord': hello + world[:5],
    'torn_payload.tfrecord': hello + world[:14],
    'torn_footer.tfrecord': hello + world[:19],
    'flipped_length.tfrecord': hello + bytes([world[0] ^ 0x01]) + world[1:],
    'flipped_payload_crc.tfrecord': hello + world[:20] + bytes([world[20] ^ 0x80]),
    'forged_length.tfrecord': huge + struct.pack('<I', mask(crc32c(huge))) +
                              b'hello' + hello[-4:],
    'zero_tail.tfrecord': hello + bytes(16),
    'garbage_between.tfrecord': hello + b'\x00\xff\x42' + world,
}

if __name__ == '__main__':
    for name, data in FILES.items():
        with open(name, 'wb') as f:
            f.write(data)
