# SPDX-License-Identifier: MIT
"""The CoAP subset (RFC 7252) the gateway speaks: the 4-byte header, the token, options
(only Uri-Path is used; other options are skipped), the payload marker and payload.
Enough for a node to POST a message to /r (CON or NON) and get the receipt back in the
response's payload, and for GET /stats. aiocoap (in the tests) is the independent
client proving interoperability; this module exists because the gateway's budget per
datagram is a few microseconds."""

VERSION = 1
CON, NON, ACK, RST = 0, 1, 2, 3
EMPTY, GET, POST = 0x00, 0x01, 0x02
CHANGED, CONTENT, BAD_REQUEST, NOT_FOUND = 0x44, 0x45, 0x80, 0x84   # 2.04, 2.05, 4.00, 4.04
URI_PATH = 11
PAYLOAD_MARKER = 0xFF


class Message:
    __slots__ = ("mtype", "code", "mid", "token", "path", "payload")

    def __init__(self, mtype, code, mid, token, path, payload):
        self.mtype, self.code, self.mid = mtype, code, mid
        self.token, self.path, self.payload = token, path, payload


_POST_R = b"\xb1r\xff"      # the usual request: one option Uri-Path "r", then the payload


def decode(data):
    """A Message, or None if `data` is not a well-formed CoAP message (RFC 7252 §3)."""
    n = len(data)
    if n > 8 and data[1] == POST and 0x40 <= data[0] <= 0x58:     # fast path: POST /r
        tkl = data[0] & 0x0F
        if tkl <= 8 and data[4 + tkl:7 + tkl] == _POST_R and n > 7 + tkl:
            return Message((data[0] >> 4) & 3, POST, (data[2] << 8) | data[3],
                           data[4:4 + tkl], ("r",), data[7 + tkl:])
    if n < 4:
        return None
    b0 = data[0]
    tkl = b0 & 0x0F
    if b0 >> 6 != VERSION or tkl > 8 or n < 4 + tkl:
        return None
    code = data[1]
    mid = (data[2] << 8) | data[3]
    token = bytes(data[4:4 + tkl])
    i = 4 + tkl
    number = 0
    path = []
    payload = b""
    while i < n:
        b = data[i]
        i += 1
        if b == PAYLOAD_MARKER:
            if i == n:          # a marker followed by nothing is a format error
                return None
            payload = bytes(data[i:])
            break
        delta, length = b >> 4, b & 0x0F
        delta, i = _extended(data, i, delta)
        if delta is None:
            return None
        length, i = _extended(data, i, length)
        if length is None or i + length > n:
            return None
        number += delta
        if number == URI_PATH:
            try:
                path.append(bytes(data[i:i + length]).decode("utf-8"))
            except UnicodeDecodeError:
                return None
        i += length
    if code == EMPTY and n != 4:
        return None             # an empty message is the header alone (RFC 7252 §4.1)
    return Message((b0 >> 4) & 3, code, mid, token, tuple(path), payload)


def _extended(data, i, v):
    if v < 13:
        return v, i
    if v == 13:
        if i >= len(data):
            return None, i
        return data[i] + 13, i + 1
    if v == 14:
        if i + 2 > len(data):
            return None, i
        return ((data[i] << 8) | data[i + 1]) + 269, i + 2
    return None, i              # 15 is reserved for the payload marker


def _option(delta, value):
    def nib(v):
        return (v, b"") if v < 13 else (13, bytes((v - 13,))) if v < 269 else \
            (14, (v - 269).to_bytes(2, "big"))
    d, dx = nib(delta)
    ln, lx = nib(len(value))
    return bytes(((d << 4) | ln,)) + dx + lx + value


def encode(mtype, code, mid, token=b"", payload=b"", path=()):
    """The bytes of a CoAP message (Uri-Path options from `path`)."""
    if len(token) > 8:
        raise ValueError("a CoAP token is at most 8 bytes")
    out = bytearray(((VERSION << 6) | (mtype << 4) | len(token), code, mid >> 8, mid & 0xFF))
    out += token
    last = 0
    for seg in path:
        out += _option(URI_PATH - last, seg.encode())
        last = URI_PATH
    if payload:
        out.append(PAYLOAD_MARKER)
        out += payload
    return bytes(out)


def response_prefix(req_type, mid, token, code=CHANGED):
    """Header and token of the response to a request: a piggybacked ACK (same message
    id) for CON; for NON the caller's `mid` is a fresh message id of the server's."""
    mtype = ACK if req_type == CON else NON
    return bytes(((VERSION << 6) | (mtype << 4) | len(token), code, mid >> 8, mid & 0xFF)) + token
