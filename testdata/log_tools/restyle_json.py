#!/usr/bin/python3
"""Rewrites `cardref_log json` output the way another system might write it.

  restyle_json.py < game.jsonl > game.handwritten.jsonl

protobuf's JSON parser accepts more than its printer writes; the importer
must too. Every line keeps its record's content, but: field names in
snake_case (the .proto names) instead of lowerCamelCase, int64 values as
JSON numbers instead of strings, no unix_micros stamps, the keys of every
object sorted by name (so fields come in another order than their numbers
and GameParams' map in name order), and blanks after separators. The
result imports (`cardref_log from-json`) into a log that audits OK, but not
into the original bytes (no stamps, another map order).
"""
import json
import re
import sys


def snake(name):
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


# The 64-bit integer fields of log.proto and the results it holds: the
# printer writes them as strings.
INT64_FIELDS = {"created_unix_micros", "decision_time_limit_millis",
                "time_taken_micros", "sequence", "int_value", "scores",
                "totals"}


def restyle(value, in_map=False, int64=False):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "unixMicros":
                continue
            # Map keys (GameParams.values) are data, not field names.
            new_key = key if in_map else snake(key)
            out[new_key] = restyle(item, in_map=(key == "values"),
                                   int64=new_key in INT64_FIELDS)
        return dict(sorted(out.items()))
    if isinstance(value, list):
        return [restyle(v, int64=int64) for v in value]
    if int64 and isinstance(value, str):
        return int(value)
    return value


for line in sys.stdin:
    if line.strip():
        print(json.dumps(restyle(json.loads(line)), separators=(", ", ": ")))
