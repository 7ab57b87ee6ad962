#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clepsilon from Python (PyGObject): de-noises a clip headless and prints
the element's figures at the end.

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/stats.py [--preset NAME |
        --strength LEVEL] [--device DEV] [FILE]

FILE is any file GStreamer decodes; without one, 60 frames of a test pattern
coded as MJPEG at quality 30 (videotestsrc ! jpegenc ! jpegdec), which rings.
--preset loads one of the element's presets (dvd-rip, divx-xvid, mjpeg-camera,
low-bitrate-stream, broadcast-capture); --strength sets the knob (off, light,
medium, strong, auto). The element's warnings are printed as they come;
exit status 1 on an error.

Needs python3-gi, gir1.2-gstreamer-1.0 and gir1.2-gst-plugins-base-1.0
(examples/run.sh installs them).
"""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

FIGURES = ("frames", "transform-ms-per-frame", "device-ms-per-frame",
           "memory-path", "epsilon-launch", "auto-threshold")


def source(path):
    if path:
        return ("filesrc location=\"%s\" ! decodebin ! videoconvert"
                % path.replace('"', '\\"'))
    return ("videotestsrc num-buffers=60 pattern=zone-plate kx2=20 ky2=20 "
            "kt=1 ! video/x-raw,width=640,height=360 ! jpegenc quality=30 "
            "! jpegdec ! videoconvert")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    knob = parser.add_mutually_exclusive_group()
    knob.add_argument("--preset")
    knob.add_argument("--strength")
    parser.add_argument("--device", default="auto")
    parser.add_argument("file", nargs="?")
    args = parser.parse_args()

    Gst.init(None)
    # I420: a decoder's format (the DCT stage, strength=auto, takes 8-bit
    # and 10-bit formats alike).
    pipeline = Gst.parse_launch(
        "%s ! video/x-raw,format=I420 ! clepsilon name=denoiser ! fakesink"
        % source(args.file))
    denoiser = pipeline.get_by_name("denoiser")
    denoiser.set_property("device", args.device)
    if args.preset and not denoiser.load_preset(args.preset):
        sys.exit("no preset %s (installed with the plugin, or "
                 "GST_PRESET_PATH=gst/presets in a source tree)" % args.preset)
    if args.strength:
        Gst.util_set_object_arg(denoiser, "strength", args.strength)

    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    status = 0
    while True:
        msg = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE,
            Gst.MessageType.EOS | Gst.MessageType.ERROR
            | Gst.MessageType.WARNING)
        if msg.type == Gst.MessageType.WARNING:
            print("warning: %s" % msg.parse_warning()[0].message)
            continue
        if msg.type == Gst.MessageType.ERROR:
            print("error: %s" % msg.parse_error()[0].message, file=sys.stderr)
            status = 1
        break

    # The figures since start (the element notifies them at EOS too).
    stats = denoiser.get_property("stats")
    strength = denoiser.get_property("strength")
    print("device: %s" % denoiser.get_property("device-name"))
    print("strength: %s" % strength.value_nick)
    for field in FIGURES:
        print("%s: %s" % (field, stats.get_value(field)))
    pipeline.set_state(Gst.State.NULL)
    return status


if __name__ == "__main__":
    sys.exit(main())
