# SPDX-License-Identifier: MIT
"""A UDP relay between a client and the gateway that drops and duplicates datagrams in
both directions (the lossy radio of the fault tests and `make bench`)."""
import random
import socket
import threading


class LossyLink:
    """A UDP relay between the load generator and the gateway that drops and
    duplicates datagrams in both directions."""

    def __init__(self, port, drop=0.2, dup=0.1, seed=7):
        self.gw = ("127.0.0.1", port)
        self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.s.bind(("127.0.0.1", 0))
        self.s.settimeout(0.05)
        self.port = self.s.getsockname()[1]
        self.rnd, self.drop, self.dup = random.Random(seed), drop, dup
        self.client = None
        self.running = True
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        while self.running:
            try:
                data, addr = self.s.recvfrom(4096)
            except socket.timeout:
                continue
            if addr != self.gw:
                self.client, dest = addr, self.gw
            else:
                dest = self.client
            if self.rnd.random() < self.drop:
                continue
            for _ in range(2 if self.rnd.random() < self.dup else 1):
                self.s.sendto(data, dest)

    def close(self):
        self.running = False
        self.t.join()
        self.s.close()
