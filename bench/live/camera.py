#!/usr/bin/python3
"""The live benchmark's camera: GStreamer's RTSP server serving a PRE-ENCODED H.264 clip in a loop,
without re-encoding, at rtsp://127.0.0.1:PORT/cam (any query string: same stream).

    /usr/bin/python3 camera.py CLIP.h264 PORT [FPS]

CLIP.h264 is an Annex-B elementary stream with an access unit delimiter before every access unit
but (possibly) the first, no B-frames (run.ts makes it with ffmpeg). The file is split into access
units once; one feeder thread pushes them into an appsrc at FPS (default 25) with continuous
timestamps (n / FPS), looping for ever, so the RTP timestamps never jump back.

The media factory is SHARED: every client (the hub's RTSP clients, the ffmpeg baseline) gets the
same RTP packets from one pipeline, so 256 clients cost one feeder, not 256 pipelines. Clients are
told apart by query strings (rtsp://.../cam?n=7), which gst-rtsp-server ignores when matching mounts.

Prints READY once the server listens. Exits on SIGTERM/SIGINT or when stdin closes.
"""
import signal
import sys
import threading
import time

import gi

gi.require_version('Gst', '1.0')
gi.require_version('GstRtspServer', '1.0')
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

AUD = b'\x00\x00\x00\x01\x09'


def split_access_units(data):
    starts = []
    i = data.find(AUD)
    while i >= 0:
        starts.append(i)
        i = data.find(AUD, i + len(AUD))
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(data))
    return [data[starts[k]:starts[k + 1]] for k in range(len(starts) - 1)]


class Feeder:
    """Pushes the clip's access units into one media's appsrc in real time until the media goes."""

    def __init__(self, appsrc, units, fps):
        self.appsrc = appsrc
        self.units = [Gst.Buffer.new_wrapped(u) for u in units]
        self.fps = fps
        self.stopped = False
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        frame = Gst.SECOND // self.fps
        n = 0
        base_pts = None
        t0 = time.monotonic()
        while not self.stopped:
            # Absolute deadlines: a late push is followed by quick ones, the rate stays FPS.
            delay = t0 + n / self.fps - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if base_pts is None:
                clock = self.appsrc.get_clock()
                base_pts = (clock.get_time() - self.appsrc.get_base_time()) if clock else 0
            buf = self.units[n % len(self.units)].copy()
            buf.pts = base_pts + n * frame
            buf.dts = buf.pts
            buf.duration = frame
            ret = self.appsrc.emit('push-buffer', buf)
            if ret != Gst.FlowReturn.OK:
                break
            n += 1


def main():
    if len(sys.argv) < 3:
        sys.stderr.write('usage: camera.py CLIP.h264 PORT [FPS]\n')
        return 2
    clip, port = sys.argv[1], sys.argv[2]
    fps = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    with open(clip, 'rb') as f:
        units = split_access_units(f.read())
    sys.stderr.write(f'camera: {len(units)} access units from {clip}\n')

    Gst.init(None)
    launch = (
        '( appsrc name=src is-live=true format=time do-timestamp=false '
        f'caps=video/x-h264,stream-format=byte-stream,alignment=au,framerate={fps}/1 '
        '! h264parse ! video/x-h264,stream-format=avc,alignment=au '
        '! rtph264pay name=pay0 pt=96 config-interval=-1 mtu=1400 )'
    )
    server = GstRtspServer.RTSPServer()
    server.set_address('127.0.0.1')
    server.set_service(port)
    # Up to 256 hub clients + 256 ffmpeg clients are not at once, but give the listen queue room.
    server.set_backlog(1024)
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch)
    factory.set_shared(True)

    feeders = []

    def on_configure(_factory, media):
        src = media.get_element().get_by_name('src')
        feeder = Feeder(src, units, fps)
        feeders.append(feeder)

        def on_unprepared(_m):
            feeder.stopped = True

        media.connect('unprepared', on_unprepared)

    factory.connect('media-configure', on_configure)
    server.get_mount_points().add_factory('/cam', factory)
    if server.attach(None) == 0:
        sys.stderr.write(f'cannot listen on 127.0.0.1:{port}\n')
        return 1

    loop = GLib.MainLoop()

    def stop(*_):
        for fd in feeders:
            fd.stopped = True
        GLib.idle_add(loop.quit)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def watch_stdin():
        try:
            while sys.stdin.read(1):
                pass
        except Exception:
            pass
        stop()

    threading.Thread(target=watch_stdin, daemon=True).start()
    print(f'READY rtsp://127.0.0.1:{port}/cam', flush=True)
    loop.run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
