/* Epsilon filter (mosquito-noise reduction).
 *
 * Each sample c becomes the rounded mean of the samples p in the
 * (2 * radius + 1)^2 window around it with |p - c| <= threshold:
 * (S + n / 2) / n in integers, n >= 1 since the centre always counts.
 * Edges stay sharp because samples across them differ by more than the
 * threshold; the ringing beside them is averaged away. */

#define EPSILON_BODY(XSTEP)                                                   \
  const int gx = get_global_id (0);                                           \
  src += src_offset;                                                          \
  dst += dst_offset;                                                          \
  const int y = get_global_id (1);                                            \
  if (gx >= width * XSTEP || y >= height)                                     \
    return;                                                                   \
  const int comp = gx % XSTEP;                                                \
  const int x = gx / XSTEP;                                                   \
  const uint c = src[y * src_pitch + gx];                                     \
  uint sum = 0, n = 0;                                                        \
  for (int dy = -radius; dy <= radius; dy++) {                                \
    __global const uchar *row = src + edge_clamp (y + dy, height) * src_pitch \
        + comp;                                                               \
    for (int dx = -radius; dx <= radius; dx++) {                              \
      const uint p = row[edge_clamp (x + dx, width) * XSTEP];                 \
      const uint take = abs_diff (p, c) <= threshold;                         \
      sum += take ? p : 0;                                                    \
      n += take;                                                              \
    }                                                                         \
  }                                                                           \
  dst[y * dst_pitch + gx] = (uchar) ((sum + n / 2) / n);

/* One component per sample: luma, or a chroma plane of a planar format. */
__kernel void
epsilon_planar (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, int radius, uint threshold)
{
  EPSILON_BODY (1)
}

/* Two interleaved components (NV12/NV21 chroma), filtered separately:
 * `width` counts sample pairs. */
__kernel void
epsilon_interleaved (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, int radius, uint threshold)
{
  EPSILON_BODY (2)
}
