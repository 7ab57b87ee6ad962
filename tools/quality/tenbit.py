#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""strength=auto at 8 and at 10 bits on the same coded pictures.

quality.py's stills (384x288 crops of skimage's pictures) are converted to
I420 (videoconvert), coded and decoded by GStreamer (MPEG-2:
avenc_mpeg2video pass=quant; MJPEG: jpegenc/jpegdec), then filtered by
clepsilon strength=auto as I420, as I420_10LE and P010_10LE (the decoded
values times 4), and as I420_10LE made by videoconvert (bit replication).
A gain is the luma PSNR after minus before, against the pristine frame made
the same way (8 bits; times 4; videoconvert), 10-bit PSNR at peak 1023.
Then ProRes (prores_ks, a 10-bit 4:2:2 block-DCT codec), coded from the
10-bit pristine frame. Needs gstreamer1.0-libav besides run.sh's packages:

  GST_PLUGIN_PATH=build/gst /usr/bin/python3 tools/quality/tenbit.py \
      [--out out/tenbit] [--prores-only]
"""
import argparse
import os
import sys

import numpy as np
from PIL import Image
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quality import STILLS, W, H, fetch_images  # noqa: E402 (this folder)


def through(data, caps_in, chain, caps_out=None):
    """Pushes one frame (bytes) with caps CAPS_IN through CHAIN; returns
    the output's bytes and the last clepsilon's auto-threshold (or None)."""
    desc = "appsrc name=src caps=\"%s\" num-buffers=1 ! %s ! " % (caps_in,
                                                                   chain)
    if caps_out:
        desc += "%s ! " % caps_out
    desc += "appsink name=sink sync=false"
    p = Gst.parse_launch(desc)
    src, sink = p.get_by_name("src"), p.get_by_name("sink")
    p.set_state(Gst.State.PLAYING)
    buf = Gst.Buffer.new_wrapped(bytes(data))
    buf.pts = 0
    buf.duration = Gst.SECOND // 25
    src.emit("push-buffer", buf)
    src.emit("end-of-stream")
    sample = sink.emit("pull-sample")
    out = sample.get_buffer().extract_dup(0, sample.get_buffer().get_size())
    thr = None
    e = p.get_by_name("cl")
    if e is not None:
        thr = e.get_property("stats").get_uint("auto-threshold")[1]
    p.set_state(Gst.State.NULL)
    return out, thr


def raw_caps(fmt):
    return "video/x-raw,format=%s,width=%d,height=%d,framerate=25/1" % (
        fmt, W, H)


def luma8(b):
    return np.frombuffer(b, np.uint8)[:W * H].reshape(H, W).astype(float)


def luma16(b, shift=0):
    return ((np.frombuffer(b, "<u2")[:W * H] >> shift) & 1023).reshape(
        H, W).astype(float)


def psnr(a, b, peak):
    return 10 * np.log10(peak * peak / np.mean((a - b) ** 2))


def times4(i420):
    """I420 bytes as I420_10LE and P010_10LE bytes, every value times 4."""
    v = np.frombuffer(i420, np.uint8).astype(np.uint16) << 2
    n, c = W * H, (W // 2) * (H // 2)
    i010 = v.astype("<u2").tobytes()
    uv = np.empty(2 * c, np.uint16)
    uv[0::2], uv[1::2] = v[n:n + c], v[n + c:]
    p010 = (np.concatenate([v[:n], uv]) << 6).astype("<u2").tobytes()
    return i010, p010


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="out/tenbit")
    parser.add_argument("--prores-only", action="store_true")
    args = parser.parse_args()
    Gst.init(None)
    data = fetch_images(os.path.join(args.out, "cache"))
    codecs = [
        ("mpeg2-q14", "avenc_mpeg2video pass=quant quantizer=14 ! "
         "avdec_mpeg2video"),
        ("mpeg2-q8", "avenc_mpeg2video pass=quant quantizer=8 ! "
         "avdec_mpeg2video"),
        ("mjpeg-q30", "jpegenc quality=30 ! jpegdec"),
        ("mjpeg-q15", "jpegenc quality=15 ! jpegdec"),
    ]
    auto = "clepsilon name=cl strength=auto"
    rows = []
    print("| codec | picture | thr 8 | gain 8-bit dB | thr I420_10LE | gain "
          "I420_10LE dB | thr P010 | gain P010 dB | thr videoconvert | gain "
          "videoconvert dB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, png, x, y in [] if args.prores_only else STILLS:
        img = Image.open("%s/%s" % (data, png)).convert("RGB")
        rgb = img.crop((x, y, x + W, y + H)).tobytes()
        pristine, _ = through(rgb, raw_caps("RGB"), "videoconvert",
                              raw_caps("I420"))
        pr10vc, _ = through(pristine, raw_caps("I420"), "videoconvert",
                            raw_caps("I420_10LE"))
        for cname, chain in codecs:
            dec, _ = through(pristine, raw_caps("I420"), chain + " ! "
                             "videoconvert", raw_caps("I420"))
            out8, t8 = through(dec, raw_caps("I420"), auto)
            d10, p10 = times4(dec)
            o10, t10 = through(d10, raw_caps("I420_10LE"), auto)
            op, tp = through(p10, raw_caps("P010_10LE"), auto)
            ovc, tvc = through(dec, raw_caps("I420"), "videoconvert ! " +
                               raw_caps("I420_10LE") + " ! " + auto)
            ref8 = luma8(pristine)
            ref10 = ref8 * 4
            refvc = luma16(pr10vc)
            g8 = psnr(luma8(out8), ref8, 255) - psnr(luma8(dec), ref8, 255)
            g10 = psnr(luma16(o10), ref10, 1023) - psnr(luma16(d10), ref10,
                                                       1023)
            gp = psnr(luma16(op, 6), ref10, 1023) - psnr(luma16(p10, 6),
                                                         ref10, 1023)
            dvc, _ = through(dec, raw_caps("I420"), "videoconvert",
                             raw_caps("I420_10LE"))
            gvc = psnr(luma16(ovc), refvc, 1023) - psnr(luma16(dvc), refvc,
                                                        1023)
            rows.append((cname, g8, g10, gp, gvc))
            print("| %s | %s | %u | %+.3f | %u | %+.3f | %u | %+.3f | %u | "
                  "%+.3f |" % (cname, name, t8, g8, t10, g10, tp, gp, tvc,
                               gvc), flush=True)
    print()
    print("| codec | mean gain 8-bit | I420_10LE | P010 | videoconvert |")
    print("| --- | --- | --- | --- | --- |")
    for cname, _ in codecs:
        r = np.array([row[1:] for row in rows if row[0] == cname])
        if not len(r):
            continue
        print("| %s | %+.3f | %+.3f | %+.3f | %+.3f |" % ((cname,) +
                                                         tuple(r.mean(0))))
    # a natively 10-bit block-DCT codec: ProRes (4:2:2 10-bit), low quality
    print()
    print("| ProRes (prores_ks) | picture | auto-threshold | gain dB (10-bit "
          "luma) |")
    print("| --- | --- | --- | --- |")
    for opts in ("profile=proxy bits-per-mb=128",
                 "profile=proxy pass=quant quantizer=30"):
        gains = []
        for name, png, x, y in STILLS:
            img = Image.open("%s/%s" % (data, png)).convert("RGB")
            rgb = img.crop((x, y, x + W, y + H)).tobytes()
            pr, _ = through(rgb, raw_caps("RGB"), "videoconvert",
                            raw_caps("I422_10LE"))
            dec, _ = through(pr, raw_caps("I422_10LE"),
                             "avenc_prores_ks %s ! avdec_prores ! "
                             "videoconvert" % opts,
                             raw_caps("I422_10LE"))
            out, t = through(dec, raw_caps("I422_10LE"), auto)
            g = psnr(luma16(out), luma16(pr), 1023) - psnr(luma16(dec),
                                                           luma16(pr), 1023)
            gains.append(g)
            print("| %s | %s | %u | %+.3f |" % (opts, name, t, g),
                  flush=True)
        print("| %s | mean | | %+.3f |" % (opts, np.mean(gains)))


if __name__ == "__main__":
    main()
