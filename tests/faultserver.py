#!/usr/bin/env python3
"""faultserver.py - an HTTP/1.1 server on 127.0.0.1 that misbehaves on request.

    python3 tests/faultserver.py PORT DIR [--timeout SECONDS] [--tls CERT KEY]

Serves the files of DIR.  PORT 0 picks a free port; the port is printed
alone on the first line of stdout.  The server exits by itself after
--timeout seconds (default 120) or when its parent process goes away.

A request's behaviour is chosen by the first path segment; the rest of the
path names the file (the query string is ignored for the file, but it is
part of the key that "once" behaviours and the statistics are kept under,
so a test can add ?t=NAME to get fresh state):

  /FILE                 the file; Range (bytes=A-, A-B, -N) honoured, 416
                        past the end
  /drop/FILE            first time: headers with the full Content-Length,
                        half the body, then close; afterwards normal
  /reset/FILE           first time: close the connection with a TCP reset
                        before answering; afterwards normal
  /stall/FILE           first time: headers, then silence (up to 10 s);
                        afterwards normal
  /fail-once/FILE       500 the first time, then normal
  /flaky/N/FILE         500 the first N times, then normal
  /429/FILE             429 with Retry-After: 1 the first time, then normal
  /status/NNN           always answers status NNN (no file)
  /trickle/FILE         1 KiB every 100 ms for at most 1 s, then the rest
  /drip/FILE            3 bytes a second, for as long as the client listens
                        (or 60 s): alive, but too slow to ever finish
  /bigetag/FILE         the file with a 50 KB ETag
  /hugeetag/FILE        the file with a 1 MB ETag (past curl's header limit)
  /ctletag/FILE         the file with an ETag holding a bare CR and a TAB
  /inf/git/N.git/PATH   DIR/inf-epochs/N.git/PATH when there is one, else
                        DIR/epoch.git/PATH (a git repository over dumb
                        HTTP): a public-inbox with endless epochs and no
                        manifest.js.gz
  /listed/K/...         the same (DIR/listed-epochs/N.git first), with a
                        manifest.js.gz listing epochs 0..K-1
  /slowgit/K/...        as /listed/K/, but while DIR/slow exists every
                        file comes at 2 KiB a second (fast enough for git's
                        own stall limit, too slow to ever finish a pack)
  /truncgz/FILE         first time: the first half of FILE with a matching
                        Content-Length; afterwards the whole file
  /norange/FILE         ignores Range: always 200 and the whole file
  /etag/FILE            ETag and Last-Modified; 304 on a matching
                        If-None-Match (or, without one, If-Modified-Since);
                        If-Range honoured
  /nolength/FILE        no Content-Length: the body runs to connection close
  /big/FILE             declares Content-Length 16 GiB, sends FILE, closes
  /bomb                 a gzip stream of 1.1 GiB of zeros (about 1 MB)
  /redirect/N/FILE      N redirects, then FILE
  /redirect-loop        redirects to itself, forever
  /redirect-ftp         redirects to ftp://127.0.0.1/x
  /redirect-http/PORT/FILE  redirects to http://127.0.0.1:PORT/FILE (from
                        a --tls server: a downgrade to plain http)
  /pi/FAULT/PATH?QUERY  a proxy to the server given by --backend URL (a
                        public-inbox-httpd): the request, GET or POST, goes
                        there as /PATH?QUERY, its answer comes back, but
                        FAULT first: ok (none), 429 (429 with Retry-After: 1
                        the first time), fail (500 the first two times),
                        drop (a t.mbox.gz: half its body, then close, the
                        first time), slow (0.5 s before every answer),
                        nosearch (501 to every ?q=, as index level basic),
                        nophrase (400 to a ?q= holding a quoted phrase)
  /_stats               JSON: {KEY: {"count": n, "ranges": n, "posts": n,
                        "conditional": n, "range": [...]}, ...};
                        /_stats?key=KEY gives one entry ({"count": 0, ...}
                        when unseen)
  /_reset               forgets all state and statistics

POST is accepted wherever GET is (the request body is read and ignored).
"""
import argparse
import email.utils
import hashlib
import json
import os
import socket
import ssl
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATS = {}
ROOT = "."
BOMB = None
BACKEND = None


def gzip_bytes(data):
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    return z.compress(data) + z.flush()


def bomb_bytes():
    """1.1 GiB of zeros as one gzip member, built from one compressed MiB
    repeated (a full flush makes every repetition byte-identical)."""
    global BOMB
    with LOCK:
        if BOMB is not None:
            return BOMB
        mib = bytes(1 << 20)
        n = 1100
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        first = c.compress(mib) + c.flush(zlib.Z_FULL_FLUSH)
        piece = c.compress(mib) + c.flush(zlib.Z_FULL_FLUSH)
        last = c.flush(zlib.Z_FINISH)
        crc = 0
        for _ in range(n):
            crc = zlib.crc32(mib, crc)
        head = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
        tail = struct.pack("<II", crc & 0xFFFFFFFF, (n << 20) & 0xFFFFFFFF)
        BOMB = head + first + piece * (n - 1) + last + tail
        return BOMB


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "faultserver/1"

    def log_message(self, fmt, *args):
        pass

    # --- bookkeeping -------------------------------------------------
    def record(self):
        """Counts this request under its key; returns the count so far."""
        with LOCK:
            st = STATS.setdefault(self.key, {"count": 0, "ranges": 0,
                                             "posts": 0, "conditional": 0,
                                             "range": []})
            st["count"] += 1
            rng = self.headers.get("Range")
            if rng:
                st["ranges"] += 1
                st["range"].append(rng)
            if self.command == "POST":
                st["posts"] += 1
            if (self.headers.get("If-None-Match")
                    or self.headers.get("If-Modified-Since")):
                st["conditional"] += 1
            return st["count"]

    # --- responses ---------------------------------------------------
    def simple(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        if code != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and code != 304:
            self.wfile.write(body)

    def error(self, code):
        self.simple(code, ("%d\n" % code).encode(),
                    [("Content-Type", "text/plain")])

    def load(self, name):
        path = os.path.normpath(os.path.join(ROOT, name))
        if not path.startswith(os.path.abspath(ROOT) + os.sep):
            return None, None
        try:
            with open(path, "rb") as f:
                return f.read(), os.stat(path).st_mtime
        except OSError:
            return None, None

    def parse_range(self, size):
        """(start, end) inclusive, None for no/ignored Range, or 'bad'."""
        rng = self.headers.get("Range")
        if not rng or not rng.startswith("bytes=") or "," in rng:
            return None
        a, _, b = rng[6:].strip().partition("-")
        try:
            if a == "":
                n = int(b)
                return (max(0, size - n), size - 1) if n > 0 else "bad"
            start = int(a)
            end = int(b) if b else size - 1
        except ValueError:
            return None
        if start >= size or end < start:
            return "bad"
        return start, min(end, size - 1)

    def serve(self, data, extra=(), use_range=True, cut=None, stall=False,
              trickle=False, length=None, close=False, drip=False,
              rate=None):
        """Sends data (honouring Range unless told not to).  cut: send only
        that many body bytes, then close; stall: send none and go quiet
        (a client averages its speed over seconds: any bytes sent would
        delay its stall detection)."""
        headers = list(extra)
        code, start, end = 200, 0, len(data) - 1
        r = self.parse_range(len(data)) if use_range else None
        if r == "bad":
            self.simple(416, b"", [("Content-Range", "bytes */%d" % len(data))])
            return
        if r is not None:
            code, (start, end) = 206, r
            headers.append(("Content-Range",
                            "bytes %d-%d/%d" % (start, end, len(data))))
        body = data[start:end + 1]
        self.send_response(code)
        self.send_header("Accept-Ranges", "bytes" if use_range else "none")
        for k, v in headers:
            self.send_header(k, v)
        if length is not None:
            self.send_header("Content-Length", str(length))
        elif not close:
            self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command == "HEAD":
            return
        if cut is not None:
            self.wfile.write(body[:cut])
            self.wfile.flush()
            self.close_connection = True
            return
        if stall:
            self.wfile.flush()
            # Silence until the client gives up (its read sees EOF) or 10 s.
            self.connection.settimeout(10)
            try:
                self.connection.recv(1)
            except OSError:
                pass
            self.close_connection = True
            return
        if drip:
            t0, pos = time.monotonic(), 0
            try:
                while pos < len(body) and time.monotonic() - t0 < 60:
                    self.wfile.write(body[pos:pos + 3])
                    self.wfile.flush()
                    pos += 3
                    time.sleep(1)
            except OSError:
                pass
            self.close_connection = True
            return
        if rate:
            t0, pos = time.monotonic(), 0
            try:
                while pos < len(body) and time.monotonic() - t0 < 600:
                    self.wfile.write(body[pos:pos + rate])
                    self.wfile.flush()
                    pos += rate
                    if pos < len(body):
                        time.sleep(1)
            except OSError:
                pass
            self.close_connection = True
            return
        if trickle:
            t0, pos = time.monotonic(), 0
            while pos < len(body) and time.monotonic() - t0 < 1.0:
                self.wfile.write(body[pos:pos + 1024])
                self.wfile.flush()
                pos += 1024
                time.sleep(0.1)
            body = body[pos:]
        self.wfile.write(body)
        if close:
            self.close_connection = True

    def reset(self):
        """Closes with RST instead of FIN."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                   struct.pack("ii", 1, 0))
        self.close_connection = True

    # --- dispatch ----------------------------------------------------
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        self.do_GET()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        self.key = url.path + ("?" + url.query if url.query else "")
        parts = url.path.lstrip("/").split("/")
        head = parts[0]
        if head == "_stats":
            q = urllib.parse.parse_qs(url.query)
            with LOCK:
                if "key" in q:
                    out = STATS.get(q["key"][0], {"count": 0, "ranges": 0,
                                                  "posts": 0,
                                                  "conditional": 0,
                                                  "range": []})
                else:
                    out = STATS
                body = json.dumps(out).encode()
            self.simple(200, body, [("Content-Type", "application/json")])
            return
        if head == "_reset":
            with LOCK:
                STATS.clear()
            self.simple(200, b"ok\n")
            return
        n = self.record()
        rest = "/".join(parts[1:])

        if head == "pi":
            self.proxy(parts[1], "/".join(parts[2:]), url.query, n)
        elif head == "status":
            self.error(int(parts[1]))
        elif head == "redirect-loop":
            self.simple(302, b"", [("Location", url.path)])
        elif head == "redirect-ftp":
            self.simple(302, b"", [("Location", "ftp://127.0.0.1/x")])
        elif head == "redirect-http":
            self.simple(302, b"", [("Location", "http://127.0.0.1:%d/%s%s" % (
                int(parts[1]), "/".join(parts[2:]),
                "?" + url.query if url.query else ""))])
        elif head == "redirect":
            hops = int(parts[1])
            if hops > 0:
                loc = "/redirect/%d/%s" % (hops - 1, "/".join(parts[2:]))
                self.simple(302, b"", [("Location", loc)])
            else:
                self.file("/".join(parts[2:]))
        elif head == "bomb":
            self.serve(bomb_bytes(), [("Content-Type", "application/gzip")])
        elif head == "drop":
            self.file(rest, drop=(n == 1))
        elif head == "reset":
            if n == 1:
                self.reset()
            else:
                self.file(rest)
        elif head == "stall":
            self.file(rest, stall=(n == 1))
        elif head == "fail-once":
            self.error(500) if n == 1 else self.file(rest)
        elif head == "flaky":
            self.error(500) if n <= int(parts[1]) \
                else self.file("/".join(parts[2:]))
        elif head == "429":
            if n == 1:
                self.simple(429, b"slow down\n", [("Retry-After", "1")])
            else:
                self.file(rest)
        elif head == "trickle":
            self.file(rest, trickle=True)
        elif head in ("inf", "listed", "slowgit"):
            i = 1 if head == "inf" else 2
            slow = head == "slowgit" and os.path.exists(
                os.path.join(ROOT, "slow"))
            if parts[i:] == ["manifest.js.gz"] and head != "inf":
                k = int(parts[1])
                man = {"/x/git/%d.git" % e: {"fingerprint": "0" * 40}
                       for e in range(k)}
                self.serve(gzip_bytes(json.dumps(man).encode()),
                           use_range=False)
            elif len(parts) > i + 2 and parts[i] == "git" and \
                    parts[i + 1].endswith(".git"):
                # DIR/HEAD-epochs/N.git when there is one, else the
                # same epoch under every number
                ep = head + "-epochs/" + parts[i + 1]
                if not os.path.isdir(os.path.join(ROOT, ep)):
                    ep = "epoch.git"
                self.file(ep + "/" + "/".join(parts[i + 2:]),
                          **({"rate": 2048} if slow else {}))
            else:
                self.error(404)
        elif head == "drip":
            self.file(rest, drip=True)
        elif head == "bigetag":
            self.file(rest, extra=[("ETag", '"' + "e" * 50000 + '"')])
        elif head == "hugeetag":
            self.file(rest, extra=[("ETag", '"' + "e" * 1000000 + '"')])
        elif head == "ctletag":
            self.file(rest, extra=[("ETag", '"a\rb\tc"')])
        elif head == "truncgz":
            data, _ = self.load(rest)
            if data is None:
                self.error(404)
            elif n == 1:
                self.serve(data[:len(data) // 2])
            else:
                self.serve(data)
        elif head == "norange":
            self.file(rest, use_range=False)
        elif head == "etag":
            self.etag(rest)
        elif head == "nolength":
            self.file(rest, use_range=False, close=True)
        elif head == "big":
            data, _ = self.load(rest)
            if data is None:
                self.error(404)
            else:
                self.serve(data, use_range=False, length=16 << 30,
                           cut=len(data))
        else:
            self.file(url.path.lstrip("/"))

    def proxy(self, fault, path, query, n):
        import urllib.request, urllib.error
        if fault == "429" and n == 1:
            self.simple(429, b"slow down\n", [("Retry-After", "1")])
            return
        if fault == "fail" and n <= 2:
            self.error(500)
            return
        if fault == "nosearch" and "q=" in query:
            self.error(501)
            return
        if fault == "nophrase" and '"' in urllib.parse.unquote_plus(query):
            self.simple(400, b"no phrase search\n")
            return
        if fault == "slow":
            time.sleep(0.5)
        target = BACKEND.rstrip("/") + "/" + path + ("?" + query if query else "")
        req = urllib.request.Request(
            target, data=b"" if self.command == "POST" else None,
            method=self.command)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                code, body = r.status, r.read()
                ctype = r.headers.get("Content-Type", "application/octet-stream")
        except urllib.error.HTTPError as e:
            code, body = e.code, e.read()
            ctype = e.headers.get("Content-Type", "text/plain")
        if code != 200:
            self.simple(code, body, [("Content-Type", ctype)])
            return
        if fault == "drop" and n == 1 and path.endswith("t.mbox.gz"):
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.simple(200, body, [("Content-Type", ctype)])

    def file(self, name, drop=False, **kw):
        data, _ = self.load(name)
        if data is None:
            self.error(404)
        elif drop:
            r = self.parse_range(len(data))
            start = r[0] if isinstance(r, tuple) else 0
            self.serve(data, cut=(len(data) - start) // 2, **kw)
        else:
            self.serve(data, **kw)

    def etag(self, name):
        data, mtime = self.load(name)
        if data is None:
            self.error(404)
            return
        tag = '"%s"' % hashlib.sha1(data).hexdigest()[:16]
        lm = email.utils.formatdate(mtime, usegmt=True)
        hdrs = [("ETag", tag), ("Last-Modified", lm)]
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if inm is not None:
            if tag in [t.strip() for t in inm.split(",")] or inm == "*":
                self.simple(304, b"", hdrs)
                return
        elif ims is not None:
            try:
                since = email.utils.parsedate_to_datetime(ims).timestamp()
            except (TypeError, ValueError):
                since = None
            if since is not None and int(mtime) <= since:
                self.simple(304, b"", hdrs)
                return
        ir = self.headers.get("If-Range")
        use_range = ir is None or ir == tag or ir == lm
        self.serve(data, hdrs, use_range=use_range)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A client that gives up (a size cap, an error page it does not
        # read, a rejected certificate) is expected here, not a failure.
        if isinstance(sys.exc_info()[1], (ConnectionError, ssl.SSLError,
                                          TimeoutError)):
            return
        super().handle_error(request, client_address)


def watchdog(deadline, parent):
    while time.monotonic() < deadline and os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


def main():
    global ROOT, BACKEND
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("port", type=int)
    ap.add_argument("dir")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--backend", help="the server /pi/ forwards to")
    a = ap.parse_args()
    ROOT = os.path.abspath(a.dir)
    BACKEND = a.backend
    srv = Server(("127.0.0.1", a.port), Handler)
    if a.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.tls[0], a.tls[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=watchdog, daemon=True,
                     args=(time.monotonic() + a.timeout, os.getppid())).start()
    # Built before the port is announced: building it takes a fraction of a
    # second, which under load was long enough for a client's stall timeout
    # to fire and retry, so the test counted two requests for one fetch.
    bomb_bytes()
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
