# SPDX-License-Identifier: MIT
"""The node side of the node-server protocol (docs/PROTOCOL.md) over the C library's
mb_node_* functions: `Library.node(...)` boots a `Node` from an NVM image, which seals
readings into datagrams and opens receipts. Standard library only (part of the binding)."""
import ctypes

from .errors import BadBox, MoteboxError, check_bytes as _bytes

HEAD = 17                 # MB_NODE_HEADBYTES: type || key id || counter
OVERHEAD = 33             # MB_NODE_OVERHEADBYTES: head || tag
READING_MAX = 1024        # MB_NODE_READINGBYTES_MAX
RECEIPT = 65              # MB_NODE_RECEIPTBYTES
COMMAND = 31              # MB_NODE_COMMANDBYTES
NVM = 40                  # MB_NODE_NVMBYTES
BLOCK = 16                # MB_NODE_BLOCK
STATE = 64                # MB_NODE_STATEBYTES

_u8p = ctypes.c_char_p
_vp = ctypes.c_void_p
_sz = ctypes.c_size_t
_int = ctypes.c_int
WRITE_FN = ctypes.CFUNCTYPE(_int, _vp, _sz, ctypes.POINTER(ctypes.c_uint8), _sz)

PROTOS = {
    "mb_node_size": (_sz, []),
    "mb_node_boot": (_int, [_vp, _u8p, _u8p, _u8p, WRITE_FN, _vp]),
    "mb_node_seal": (_int, [_vp, _vp, _u8p, _sz, WRITE_FN, _vp]),
    "mb_node_seal_stream_init": (_int, [_vp, _vp, _vp, WRITE_FN, _vp]),
    "mb_node_open_receipt": (_int, [_vp, _vp, _vp, _u8p, _sz]),
    "mb_node_next": (ctypes.c_uint64, [_vp]),
    "mb_node_pending": (ctypes.c_uint64, [_vp]),
}


class NodeRefused(MoteboxError):
    """The node refused: a corrupt NVM image (or one kept under another key), the NVM
    write failed, or the counters are exhausted."""


class Node:
    """One booted node. `nvm` (a bytearray of NVM bytes, updated in place by every
    reservation) is its non-volatile memory; on_write(offset, data), if given, is called
    after each NVM write (raise to make the write fail)."""

    def __init__(self, lib, k, key_id, nvm=None, on_write=None):
        k, key_id = _bytes("k", k, 32), _bytes("key_id", key_id, 8)
        self.nvm = bytearray(NVM) if nvm is None else (
            nvm if isinstance(nvm, bytearray) else bytearray(nvm))
        if len(self.nvm) != NVM:
            raise ValueError(f"nvm must be {NVM} bytes")
        self.key_id = key_id
        self._c = lib.c
        self._on_write = on_write
        self._errors = []
        self._write = WRITE_FN(self._write_nvm)     # kept alive with the node
        self._state = ctypes.create_string_buffer(self._c.mb_node_size())
        if self._c.mb_node_boot(self._state, k, key_id, bytes(self.nvm), self._write, None) != 0:
            self._raise("boot refused the NVM image (corrupt, another key, or exhausted)")

    def _write_nvm(self, _ctx, off, buf, length):
        try:
            data = ctypes.string_at(buf, length)
            self.nvm[off:off + length] = data
            if self._on_write is not None:
                self._on_write(off, data)
            return 0
        except Exception as e:  # noqa: BLE001 - re-raised after the C call
            self._errors.append(e)
            return -1

    def _raise(self, msg):
        errors, self._errors = self._errors, []
        if errors:
            raise NodeRefused(msg) from errors[0]
        raise NodeRefused(msg)

    @property
    def next(self):
        """The counter the next seal will use (0: the node is not usable)."""
        return self._c.mb_node_next(self._state)

    @property
    def pending(self):
        """The counter awaiting its receipt, 0 for none."""
        return self._c.mb_node_pending(self._state)

    def seal(self, reading):
        """The datagram of one reading (1 to 1024 bytes) under the next counter."""
        reading = _bytes("reading", reading)
        if not 1 <= len(reading) <= READING_MAX:
            raise ValueError(f"a reading is 1 to {READING_MAX} bytes")
        out = ctypes.create_string_buffer(OVERHEAD + len(reading))
        if self._c.mb_node_seal(self._state, out, reading, len(reading), self._write, None) != 0:
            self._raise("seal refused (NVM write failed or counters exhausted)")
        return out.raw

    def seal_stream(self, chunks):
        """The same datagram from an iterable of chunks through mb_box_stream_*."""
        s = ctypes.create_string_buffer(self._c.mb_box_stream_size())
        head = ctypes.create_string_buffer(HEAD)
        if self._c.mb_node_seal_stream_init(self._state, s, head, self._write, None) != 0:
            self._raise("seal refused (NVM write failed or counters exhausted)")
        ct = []
        for chunk in chunks:
            chunk = _bytes("chunk", chunk)
            buf = ctypes.create_string_buffer(max(len(chunk), 1))
            if self._c.mb_box_stream_update(s, buf, chunk, len(chunk)) != 0:
                raise MoteboxError("mb_box_stream_update refused the state")
            ct.append(buf.raw[:len(chunk)])
        tag = ctypes.create_string_buffer(16)
        if self._c.mb_box_stream_final(s, tag) != 0:
            raise MoteboxError("mb_box_stream_final refused the state")
        return head.raw + tag.raw + b"".join(ct)

    def open_receipt(self, receipt):
        """(status, command bytes) of a receipt for the pending counter; BadBox for any
        other (wrong counter or key id, bad tag, replayed, truncated)."""
        receipt = _bytes("receipt", receipt)
        status = ctypes.create_string_buffer(1)
        cmd = ctypes.create_string_buffer(COMMAND)
        if self._c.mb_node_open_receipt(self._state, status, cmd, receipt, len(receipt)) != 0:
            raise BadBox("receipt refused (not for the pending counter, or forged)")
        return status.raw[0], cmd.raw

    def state_bytes(self):
        """A copy of the C state (tests measure and inspect it; it holds the key)."""
        return self._state.raw


class NodeMethods:
    """Library methods of the protocol (mixed into motebox.Library)."""

    def _bind_node(self):
        if getattr(self, "_node_bound", False):
            return
        for name, (res, args) in PROTOS.items():
            fn = getattr(self.c, name, None)
            if fn is None:
                raise MoteboxError(f"{self.path} has no {name}: rebuild the library")
            fn.restype, fn.argtypes = res, args
        self._node_bound = True

    def node(self, k, key_id, nvm=None, on_write=None):
        """Boot a Node: k = box_beforenm(server_pk, node_sk), key_id = node_pk[:8], nvm
        its 40-byte NVM image (None: a new node; a bytearray is updated in place)."""
        self._bind_node()
        return Node(self, k, key_id, nvm, on_write)

    def node_for(self, server_pk, node_sk, nvm=None, on_write=None):
        """Boot a Node from the keys themselves (one X25519 for the key id, one for k)."""
        node_pk = self.x25519_base(node_sk)
        return self.node(self.box_beforenm(server_pk, node_sk), node_pk[:8], nvm, on_write)

    def node_state_size(self):
        """sizeof(mb_node)."""
        self._bind_node()
        return self.c.mb_node_size()
