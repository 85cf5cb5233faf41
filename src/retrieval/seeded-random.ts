// Seeded generators, for results that must repeat run to run (Math.random cannot be seeded): the
// benches' splits and the word vectors' random sketch.

/** Uniform in [0, 1), by mulberry32 (a tiny generator, ample for shuffles and sketches). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles `xs` in place by Fisher-Yates with `random` (e.g. seededRandom's) and returns it. */
export function seededShuffle<T>(xs: T[], random: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** Standard normal, by Box-Muller over `seededRandom`. */
export function seededGaussian(seed: number): () => number {
  const uniform = seededRandom(seed);
  return () => {
    const u = 1 - uniform(); // (0, 1]: log(0) never happens
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
}
