/* Convolution of an 8-bit plane with a user-given kernel of odd size.
 *
 * out = clamp (floor (sum (k * p) / divisor + bias + 0.5), 0, 255), with
 * k[r][c] weighing the sample at (x + c - kw / 2, y + r - kh / 2). The sum is
 * taken in float: exact for integer coefficients while |sum| < 2^24, and the
 * host builds with correctly rounded division where the device offers it, so
 * that exact arithmetic gives exact results. */

__kernel void
convolve (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, __constant float * coeffs, int kw, int kh, float divisor,
    float bias)
{
  const int x = get_global_id (0);
  const int y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  src += src_offset;
  dst += dst_offset;

  float acc = 0.0f;
  for (int r = 0; r < kh; r++) {
    __global const uchar *row = src + edge_clamp (y + r - kh / 2, height) * src_pitch;
    for (int c = 0; c < kw; c++)
      acc += coeffs[r * kw + c] * (float) row[edge_clamp (x + c - kw / 2, width)];
  }
  const float v = floor (acc / divisor + bias + 0.5f);
  /* The host keeps divisors away from 0; NaN must still not reach a cast. */
  dst[y * dst_pitch + x] = isnan (v) ? 0 : (uchar) clamp (v, 0.0f, 255.0f);
}
