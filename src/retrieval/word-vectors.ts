// Word vectors trained on the corpus's own text, as RANKING.md's trials did (no pretrained model can
// reach these machines): a positive-PMI co-occurrence matrix over the analyzer's unigram stems,
// reduced by a truncated SVD (Levy, Goldberg and Dagan 2015), and documents as weighted averages of
// their words' vectors. Everything here is pure: text in, numbers out.
//
// The SVD is randomized (Halko, Martinsson and Tropp 2011): a Gaussian sketch of the range, a few
// power iterations, then the small problem solved densely. A PPMI matrix of a 40k-work corpus has
// ~20k rows and millions of non-zeros; this needs a handful of sparse products and no library.
import { forEachWord, isContentWord, stem } from './analyzer.ts';
import { seededGaussian } from './seeded-random.ts';

export interface WordVectorOptions {
  /** Words seen fewer times are left out of the vocabulary. */
  minCount: number;
  /** At most this many words (the most frequent); keeps a pair's key within 32 bits. */
  maxVocabulary: number;
  /** Words on each side that count as context. */
  window: number;
  dims: number;
  /** Context distribution smoothing: context counts raised to this power (0.75 is standard). */
  smoothing: number;
  /** Extra sketch columns beyond `dims`, and power iterations, of the randomized SVD. */
  oversample: number;
  powerIterations: number;
  /** Word vectors are U x S^eigenWeight (0: U alone, 0.5: the symmetric split). */
  eigenWeight: number;
  seed: number;
}

export const DEFAULT_WORD_VECTOR_OPTIONS: WordVectorOptions = {
  minCount: 5,
  maxVocabulary: 60_000,
  window: 5,
  dims: 200,
  smoothing: 0.75,
  oversample: 20,
  powerIterations: 2,
  eigenWeight: 0.5,
  seed: 1,
};

export interface WordVectors {
  dims: number;
  /** Stem -> row. */
  vocabulary: Map<string, number>;
  /** Row-major, one unit-length row per word. */
  vectors: Float32Array;
  /** Per word: corpus frequency, and the number of texts holding it. */
  counts: Float64Array;
  documentFrequency: Float64Array;
  totalCount: number;
  texts: number;
}

export interface TrainingStats {
  vocabulary: number;
  tokens: number;
  /** Non-zeros of the PPMI matrix. */
  nnz: number;
  /** The singular values kept, largest first. */
  singularValues: number[];
  countMs: number;
  svdMs: number;
}

/** A text's unigram stems in order, as the index analyses them (bigrams and joined compounds left out). */
export function unigramStems(text: string): string[] {
  const out: string[] = [];
  forEachWord(
    text,
    (word, extra) => {
      if (!extra && isContentWord(word)) out.push(stem(word));
    },
    () => {},
  );
  return out;
}

/** A sparse matrix in compressed rows. */
export interface SparseRows {
  rows: number;
  cols: number;
  start: Int32Array;
  col: Int32Array;
  value: Float64Array;
}

/**
 * Symmetric co-occurrence counts within `window` words, as compressed rows. Texts are token-id
 * sequences (words outside the vocabulary already dropped).
 */
export function cooccurrence(texts: readonly Int32Array[], size: number, window: number): SparseRows {
  // Each pair once as (lower, higher) packed in 32 bits, sorted, then counted: far less memory than a
  // map of pairs at this scale.
  let pairs = new Uint32Array(1 << 20);
  let n = 0;
  for (const ids of texts) {
    for (let i = 0; i < ids.length; i++) {
      const a = ids[i]!;
      const end = Math.min(ids.length, i + window + 1);
      for (let j = i + 1; j < end; j++) {
        const b = ids[j]!;
        if (n === pairs.length) {
          const grown = new Uint32Array(pairs.length * 2);
          grown.set(pairs);
          pairs = grown;
        }
        pairs[n++] = a < b ? a * size + b : b * size + a;
      }
    }
  }
  const sorted = pairs.subarray(0, n).sort();
  const perRow = new Int32Array(size + 1);
  const keys: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < n;) {
    const key = sorted[i]!;
    let j = i + 1;
    while (j < n && sorted[j] === key) j++;
    keys.push(key);
    counts.push(j - i);
    const a = Math.floor(key / size);
    const b = key - a * size;
    perRow[a]!++;
    if (a !== b) perRow[b]!++;
    i = j;
  }
  const start = new Int32Array(size + 1);
  for (let r = 0; r < size; r++) start[r + 1] = start[r]! + perRow[r]!;
  const fill = start.slice(0, size);
  const col = new Int32Array(start[size]!);
  const value = new Float64Array(start[size]!);
  keys.forEach((key, k) => {
    const a = Math.floor(key / size);
    const b = key - a * size;
    // A word next to itself counts both ways, like any other pair.
    const c = a === b ? 2 * counts[k]! : counts[k]!;
    col[fill[a]!] = b;
    value[fill[a]!++] = c;
    if (a !== b) {
      col[fill[b]!] = a;
      value[fill[b]!++] = c;
    }
  });
  // Keys were sorted by (lower, higher), so row b received its columns a < b in order before its
  // own row's; every row's columns are ascending.
  return { rows: size, cols: size, start, col, value };
}

/** Positive PMI of a co-occurrence matrix, with the contexts' distribution smoothed. */
export function ppmi(counts: SparseRows, smoothing: number): SparseRows {
  const rowSum = new Float64Array(counts.rows);
  const colSum = new Float64Array(counts.cols);
  for (let r = 0; r < counts.rows; r++) {
    for (let k = counts.start[r]!; k < counts.start[r + 1]!; k++) {
      rowSum[r]! += counts.value[k]!;
      colSum[counts.col[k]!]! += counts.value[k]!;
    }
  }
  let smoothedTotal = 0;
  const contextMass = colSum.map((c) => c ** smoothing);
  for (const c of contextMass) smoothedTotal += c;
  const start = new Int32Array(counts.rows + 1);
  const col: number[] = [];
  const value: number[] = [];
  for (let r = 0; r < counts.rows; r++) {
    for (let k = counts.start[r]!; k < counts.start[r + 1]!; k++) {
      const c = counts.col[k]!;
      // PMI = log P(w,c) / (P(w) P_alpha(c)) = log #(w,c) / (#(w) * P_alpha(c)).
      const pmi = Math.log((counts.value[k]! * smoothedTotal) / (rowSum[r]! * contextMass[c]!));
      if (pmi > 0) {
        col.push(c);
        value.push(pmi);
      }
    }
    start[r + 1] = col.length;
  }
  return {
    rows: counts.rows,
    cols: counts.cols,
    start,
    col: Int32Array.from(col),
    value: Float64Array.from(value),
  };
}

/** A x X (X dense row-major, A.cols x k), or A^T x X when `transposed` (X is A.rows x k). */
function sparseTimes(a: SparseRows, x: Float64Array, k: number, transposed: boolean): Float64Array {
  const out = new Float64Array((transposed ? a.cols : a.rows) * k);
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.start[r]!; p < a.start[r + 1]!; p++) {
      const v = a.value[p]!;
      // Row r of A pairs row r of the output with row col of X, or the other way round.
      const o = (transposed ? a.col[p]! : r) * k;
      const xo = (transposed ? r : a.col[p]!) * k;
      for (let j = 0; j < k; j++) out[o + j]! += v * x[xo + j]!;
    }
  }
  return out;
}

/** X^T X of a dense row-major n x k matrix. */
function gram(x: Float64Array, n: number, k: number): Float64Array {
  const g = new Float64Array(k * k);
  for (let r = 0; r < n; r++) {
    const o = r * k;
    for (let i = 0; i < k; i++) {
      const xi = x[o + i]!;
      if (xi === 0) continue;
      const gi = i * k;
      for (let j = i; j < k; j++) g[gi + j]! += xi * x[o + j]!;
    }
  }
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) g[i * k + j] = g[j * k + i]!;
  return g;
}

/**
 * Orthonormal columns spanning those of X (n x k, n >> k), in place, by Cholesky QR done twice
 * (the second pass restores the orthogonality the first loses to rounding). A column that
 * carries nothing new is left at zero.
 */
export function orthonormalize(x: Float64Array, n: number, k: number): void {
  for (let pass = 0; pass < 2; pass++) {
    const g = gram(x, n, k);
    // Cholesky G = R^T R, upper R; a pivot lost to rounding marks a dependent column.
    const r = new Float64Array(k * k);
    let scale = 0;
    for (let i = 0; i < k; i++) scale = Math.max(scale, g[i * k + i]!);
    const tiny = scale * 1e-13;
    for (let i = 0; i < k; i++) {
      let d = g[i * k + i]!;
      for (let p = 0; p < i; p++) d -= r[p * k + i]! ** 2;
      if (d <= tiny) continue;
      const rii = Math.sqrt(d);
      r[i * k + i] = rii;
      for (let j = i + 1; j < k; j++) {
        let s = g[i * k + j]!;
        for (let p = 0; p < i; p++) s -= r[p * k + i]! * r[p * k + j]!;
        r[i * k + j] = s / rii;
      }
    }
    // X <- X R^-1, row by row (forward substitution on each row).
    const row = new Float64Array(k);
    for (let t = 0; t < n; t++) {
      const o = t * k;
      for (let j = 0; j < k; j++) {
        const rjj = r[j * k + j]!;
        if (rjj === 0) {
          row[j] = 0;
          continue;
        }
        let s = x[o + j]!;
        for (let p = 0; p < j; p++) s -= row[p]! * r[p * k + j]!;
        row[j] = s / rjj;
      }
      x.set(row, o);
    }
  }
}

/** Eigenvalues and eigenvectors (columns of a row-major k x k) of a symmetric matrix, by cyclic Jacobi. */
export function symmetricEigen(m: Float64Array, k: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) v[i * k + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < k; i++) {
      diag += a[i * k + i]! ** 2;
      for (let j = i + 1; j < k; j++) off += a[i * k + j]! ** 2;
    }
    if (off <= 1e-30 * diag || off === 0) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * k + q]! - a[p * k + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p]!;
          const arq = a[r * k + q]!;
          a[r * k + p] = c * arp - s * arq;
          a[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r]!;
          const aqr = a[q * k + r]!;
          a[p * k + r] = c * apr - s * aqr;
          a[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p]!;
          const vrq = v[r * k + q]!;
          v[r * k + p] = c * vrp - s * vrq;
          v[r * k + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const values = new Float64Array(k);
  for (let i = 0; i < k; i++) values[i] = a[i * k + i]!;
  return { values, vectors: v };
}

/**
 * The `dims` largest singular values of A and their left singular vectors (row-major rows x dims),
 * by a randomized range finder with power iterations.
 */
export function truncatedSvd(
  a: SparseRows,
  dims: number,
  options: { oversample: number; powerIterations: number; seed: number },
): { u: Float64Array; s: Float64Array; dims: number } {
  const k = Math.min(dims + options.oversample, a.rows, a.cols);
  const d = Math.min(dims, k);
  const gaussian = seededGaussian(options.seed);
  const omega = new Float64Array(a.cols * k);
  for (let i = 0; i < omega.length; i++) omega[i] = gaussian();
  let q = sparseTimes(a, omega, k, false);
  orthonormalize(q, a.rows, k);
  for (let it = 0; it < options.powerIterations; it++) {
    const z = sparseTimes(a, q, k, true);
    orthonormalize(z, a.cols, k);
    q = sparseTimes(a, z, k, false);
    orthonormalize(q, a.rows, k);
  }
  // B = Q^T A (k x cols); B B^T = (A^T Q)^T (A^T Q), whose eigenvectors W give U = Q W.
  const bt = sparseTimes(a, q, k, true);
  const { values, vectors } = symmetricEigen(gram(bt, a.cols, k), k);
  const order = [...values.keys()].sort((x, y) => values[y]! - values[x]!).slice(0, d);
  const s = Float64Array.from(order, (i) => Math.sqrt(Math.max(0, values[i]!)));
  const u = new Float64Array(a.rows * d);
  for (let r = 0; r < a.rows; r++) {
    for (let c = 0; c < d; c++) {
      const w = order[c]!;
      let sum = 0;
      for (let p = 0; p < k; p++) sum += q[r * k + p]! * vectors[p * k + w]!;
      u[r * d + c] = sum;
    }
  }
  return { u, s, dims: d };
}

/** Word vectors from a corpus's texts (e.g. each work's title and abstract). */
export function trainWordVectors(
  texts: Iterable<string>,
  given: Partial<WordVectorOptions> = {},
): { model: WordVectors; stats: TrainingStats } {
  const o = { ...DEFAULT_WORD_VECTOR_OPTIONS, ...given };
  const t0 = performance.now();
  const tokenized: string[][] = [];
  const frequency = new Map<string, number>();
  for (const text of texts) {
    const stems = unigramStems(text);
    tokenized.push(stems);
    for (const s of stems) frequency.set(s, (frequency.get(s) ?? 0) + 1);
  }
  const kept = [...frequency.entries()]
    .filter(([, c]) => c >= o.minCount)
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, o.maxVocabulary);
  const vocabulary = new Map(kept.map(([w], i) => [w, i]));
  const size = vocabulary.size;
  const counts = Float64Array.from(kept, ([, c]) => c);
  const documentFrequency = new Float64Array(size);
  let tokens = 0;
  const ids = tokenized.map((stems) => {
    const row = stems.map((s) => vocabulary.get(s) ?? -1).filter((i) => i >= 0);
    tokens += row.length;
    for (const i of new Set(row)) documentFrequency[i]!++;
    return Int32Array.from(row);
  });
  const matrix = ppmi(cooccurrence(ids, size, o.window), o.smoothing);
  const t1 = performance.now();
  const { u, s, dims } = truncatedSvd(matrix, o.dims, o);
  const vectors = new Float32Array(size * dims);
  for (let r = 0; r < size; r++) {
    let norm = 0;
    for (let c = 0; c < dims; c++) {
      const x = u[r * dims + c]! * s[c]! ** o.eigenWeight;
      vectors[r * dims + c] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let c = 0; c < dims; c++) vectors[r * dims + c]! /= norm;
  }
  let totalCount = 0;
  for (const c of counts) totalCount += c;
  return {
    model: { dims, vocabulary, vectors, counts, documentFrequency, totalCount, texts: tokenized.length },
    stats: {
      vocabulary: size,
      tokens,
      nnz: matrix.value.length,
      singularValues: [...s],
      countMs: t1 - t0,
      svdMs: performance.now() - t1,
    },
  };
}

/** Per occurrence: 1 ('tf', the plain frequency-weighted mean), the word's IDF, or SIF's weight. */
export type TermWeighting = 'tf' | 'idf' | 'sif';

/**
 * A text's vector: the average of its words' vectors, each occurrence weighted by 1, by the word's
 * IDF or by SIF's a / (a + p(w)) (Arora et al. 2017), unit length; null when no word is known.
 */
export function documentVector(
  model: WordVectors,
  text: string,
  weighting: TermWeighting = 'sif',
  sifA = 1e-3,
): Float32Array | null {
  const d = model.dims;
  const sum = new Float64Array(d);
  let any = false;
  for (const s of unigramStems(text)) {
    const i = model.vocabulary.get(s);
    if (i === undefined) continue;
    const w =
      weighting === 'tf'
        ? 1
        : weighting === 'idf'
          ? Math.log((model.texts + 1) / (model.documentFrequency[i]! + 0.5))
          : sifA / (sifA + model.counts[i]! / model.totalCount);
    const o = i * d;
    for (let c = 0; c < d; c++) sum[c]! += w * model.vectors[o + c]!;
    any = true;
  }
  if (!any) return null;
  let norm = 0;
  for (const x of sum) norm += x * x;
  norm = Math.sqrt(norm);
  return norm > 0 ? Float32Array.from(sum, (x) => x / norm) : null;
}

/** Cosine of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * The direction every document vector shares (the first singular vector of the documents,
 * uncentred), by power iteration; SIF removes it so that similarity reflects what sets documents
 * apart rather than their common vocabulary.
 */
export function commonDirection(documents: ReadonlyArray<Float32Array | null>, dims: number): Float32Array {
  let x = new Float64Array(dims).fill(1 / Math.sqrt(dims));
  for (let it = 0; it < 30; it++) {
    const next = new Float64Array(dims);
    for (const d of documents) {
      if (!d) continue;
      let dot = 0;
      for (let c = 0; c < dims; c++) dot += d[c]! * x[c]!;
      for (let c = 0; c < dims; c++) next[c]! += dot * d[c]!;
    }
    let norm = 0;
    for (const v of next) norm += v * v;
    norm = Math.sqrt(norm);
    if (norm === 0) break;
    x = next.map((v) => v / norm);
  }
  return Float32Array.from(x);
}

/** The vector less its projection on a unit direction, unit length again (null if nothing is left). */
export function withoutDirection(v: Float32Array, direction: Float32Array): Float32Array | null {
  const dot = cosine(v, direction);
  const out = v.map((x, i) => x - dot * direction[i]!);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm);
  return norm > 1e-9 ? out.map((x) => x / norm) : null;
}
