/* Helpers shared by every filter; prepended to each filter's source.
 *
 * A plane starts `offset` bytes into its buffer and has `pitch` bytes per row,
 * so that kernels work in place on whole video frames. A plane holds one
 * component (xstep 1) or two interleaved ones (xstep 2, NV12's UV); a work-item
 * handles one sample and only ever looks at samples of its own component.
 * Coordinates outside the plane are clamped to its edge (replicate border). */

static inline int
edge_clamp (int v, int size)
{
  return clamp (v, 0, size - 1);
}
