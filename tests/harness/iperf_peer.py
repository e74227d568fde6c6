"""The host end of scripts/bench's Ethernet part: an iperf 2 dual-test
(-d) peer that lasts as long as the guest's test, however slowly the
guest runs.

A guest under the bench's CPU model runs many times slower than real
time, so a host iperf server, whose reverse stream (peer -> guest) lasts
-t seconds of host time, would stop sending long before the guest's -t
seconds of virtual time are over.  This peer instead sinks the guest's
stream for as long as the guest sends, and sends its own back to the
guest's listen port (iperf -L, through a hostfwd) from the moment the
guest connects until the guest's stream ends, as fast as the guest takes
it.  The guest's iperf measures both streams over its own (virtual) time.
Neither side of the peer is ever the bottleneck: it runs at host speed
against a guest slowed down many times."""

import socket
import threading

CHUNK = 128 * 1024


class IperfPeer:
    def __init__(self, port, back_port, host="127.0.0.1"):
        """Listens on HOST:PORT; sends back to HOST:BACK_PORT."""
        self.back = (host, back_port)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(4)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,),
                             daemon=True).start()

    def _session(self, conn):
        done = threading.Event()
        sender = threading.Thread(target=self._send_back, args=(done,),
                                  daemon=True)
        sender.start()
        try:
            while conn.recv(CHUNK):
                pass
        except OSError:
            pass
        finally:
            done.set()
            conn.close()
            sender.join()

    def _send_back(self, done):
        data = bytes(CHUNK)
        try:
            s = socket.create_connection(self.back, timeout=30)
        except OSError:
            return
        s.settimeout(0.2)
        view = memoryview(data)
        off = 0
        try:
            while not done.is_set():
                try:
                    off += s.send(view[off:])
                except socket.timeout:
                    continue
                if off == len(data):
                    off = 0
        except OSError:
            pass
        finally:
            s.close()

    def close(self):
        self.sock.close()
