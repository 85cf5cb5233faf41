import { describe, expect, it } from 'vitest';
import { analyze, isBigram } from '../../src/retrieval/analyzer.ts';
import { seededGaussian } from '../../src/retrieval/seeded-random.ts';
import {
  commonDirection,
  cooccurrence,
  cosine,
  documentVector,
  orthonormalize,
  ppmi,
  symmetricEigen,
  trainWordVectors,
  truncatedSvd,
  unigramStems,
  withoutDirection,
  type SparseRows,
} from '../../src/retrieval/word-vectors.ts';

function dense(m: SparseRows): number[][] {
  const out = Array.from({ length: m.rows }, () => new Array<number>(m.cols).fill(0));
  for (let r = 0; r < m.rows; r++)
    for (let k = m.start[r]!; k < m.start[r + 1]!; k++) out[r]![m.col[k]!] = m.value[k]!;
  return out;
}

function sparse(rows: number[][]): SparseRows {
  const start = [0];
  const col: number[] = [];
  const value: number[] = [];
  for (const row of rows) {
    row.forEach((v, c) => {
      if (v !== 0) {
        col.push(c);
        value.push(v);
      }
    });
    start.push(col.length);
  }
  return {
    rows: rows.length,
    cols: rows[0]!.length,
    start: Int32Array.from(start),
    col: Int32Array.from(col),
    value: Float64Array.from(value),
  };
}

/** An n x k matrix with orthonormal columns, row-major. */
function randomOrthonormal(n: number, k: number, seed: number): Float64Array {
  const g = seededGaussian(seed);
  const x = Float64Array.from({ length: n * k }, () => g());
  orthonormalize(x, n, k);
  return x;
}

describe('word vectors: the analysis', () => {
  it('reads the unigram stems the index reads, in order, without bigrams', () => {
    const text = 'Pre-trained neural networks for parsing; the networks';
    expect(unigramStems(text)).toEqual(analyze(text).terms.filter((t) => !isBigram(t) && t !== 'pretrain'));
  });
});

describe('word vectors: co-occurrence and PPMI', () => {
  it('counts each pair within the window once per occurrence, symmetrically', () => {
    // 0 1 2 0 with window 2: (0,1) (0,2) (1,2) (1,0) (2,0).
    const m = dense(cooccurrence([Int32Array.from([0, 1, 2, 0])], 3, 2));
    expect(m).toEqual([
      [0, 2, 2],
      [2, 0, 1],
      [2, 1, 0],
    ]);
  });

  it('counts a word next to itself on both sides of the diagonal', () => {
    expect(dense(cooccurrence([Int32Array.from([0, 0])], 1, 1))).toEqual([[2]]);
  });

  it('keeps pairs seen more often than chance and drops the others', () => {
    const counts = sparse([
      [0, 10, 1],
      [10, 0, 5],
      [1, 5, 0],
    ]);
    const m = dense(ppmi(counts, 1));
    expect(m[0]![1]).toBeGreaterThan(0);
    expect(m[0]![2]).toBe(0);
    // With smoothing 1 it is the plain PMI: log(#(w,c) * D / (#(w) #(c))).
    expect(m[0]![1]).toBeCloseTo(Math.log((10 * 32) / (11 * 15)), 12);
  });
});

describe('word vectors: the dense algebra', () => {
  it('orthonormalizes columns without changing their span', () => {
    const g = seededGaussian(3);
    const n = 50;
    const k = 6;
    const x = Float64Array.from({ length: n * k }, () => g());
    const q = Float64Array.from(x);
    orthonormalize(q, n, k);
    for (let i = 0; i < k; i++)
      for (let j = 0; j < k; j++) {
        let s = 0;
        for (let r = 0; r < n; r++) s += q[r * k + i]! * q[r * k + j]!;
        expect(s).toBeCloseTo(i === j ? 1 : 0, 10);
      }
    // Each original column is its own projection on Q's span.
    for (let j = 0; j < k; j++) {
      const coef = Array.from({ length: k }, (_, i) => {
        let s = 0;
        for (let r = 0; r < n; r++) s += q[r * k + i]! * x[r * k + j]!;
        return s;
      });
      for (let r = 0; r < n; r++) {
        const back = coef.reduce((t, c, i) => t + c * q[r * k + i]!, 0);
        expect(back).toBeCloseTo(x[r * k + j]!, 9);
      }
    }
  });

  it('finds the eigenpairs of a symmetric matrix', () => {
    const m = Float64Array.from([4, 1, 2, 1, 3, 0, 2, 0, 5]);
    const { values, vectors } = symmetricEigen(m, 3);
    for (let e = 0; e < 3; e++) {
      for (let r = 0; r < 3; r++) {
        let mv = 0;
        for (let c = 0; c < 3; c++) mv += m[r * 3 + c]! * vectors[c * 3 + e]!;
        expect(mv).toBeCloseTo(values[e]! * vectors[r * 3 + e]!, 10);
      }
    }
    expect([...values].reduce((a, b) => a + b, 0)).toBeCloseTo(12, 10);
  });

  it('recovers the leading singular values and vectors of a matrix of known spectrum', () => {
    const n = 80;
    const rank = 12;
    const singular = [50, 30, 20, 10, 8, 6, 4, 3, 2, 1.5, 1, 0.5];
    const u = randomOrthonormal(n, rank, 1);
    const v = randomOrthonormal(n, rank, 2);
    const rows = Array.from({ length: n }, (_, r) =>
      Array.from({ length: n }, (_, c) =>
        singular.reduce((t, s, i) => t + s * u[r * rank + i]! * v[c * rank + i]!, 0),
      ),
    );
    const svd = truncatedSvd(sparse(rows), 4, { oversample: 6, powerIterations: 2, seed: 7 });
    expect(svd.dims).toBe(4);
    singular.slice(0, 4).forEach((s, i) => expect(svd.s[i]).toBeCloseTo(s, 6));
    for (let i = 0; i < 4; i++) {
      let dot = 0;
      for (let r = 0; r < n; r++) dot += svd.u[r * 4 + i]! * u[r * rank + i]!;
      expect(Math.abs(dot)).toBeCloseTo(1, 6);
    }
  });
});

describe('word vectors: training and documents', () => {
  // Two fields that share no words: words of one field end up closer to each other than to the other's.
  const sentences = [
    'protein folding structure prediction amino acid residue',
    'amino acid residue contacts predict protein structure',
    'protein structure folding kinetics residue',
    'galaxy cluster redshift survey dark matter halo',
    'dark matter halo mass galaxy redshift',
    'redshift survey galaxy cluster lensing halo',
  ];
  const texts = Array.from({ length: 20 }, (_, i) => sentences[i % sentences.length]!);
  const { model, stats } = trainWordVectors(texts, { minCount: 5, dims: 4, oversample: 4 });
  const vectorOf = (word: string) => {
    const i = model.vocabulary.get(unigramStems(word)[0]!)!;
    return model.vectors.subarray(i * model.dims, (i + 1) * model.dims);
  };

  it('reports what it trained on', () => {
    expect(stats.vocabulary).toBe(model.vocabulary.size);
    expect(stats.nnz).toBeGreaterThan(0);
    expect(stats.singularValues).toHaveLength(model.dims);
    expect(model.texts).toBe(texts.length);
  });

  it('puts words of one field closer together than words of two fields', () => {
    expect(cosine(vectorOf('protein'), vectorOf('residue'))).toBeGreaterThan(
      cosine(vectorOf('protein'), vectorOf('galaxy')),
    );
    expect(cosine(vectorOf('galaxy'), vectorOf('halo'))).toBeGreaterThan(
      cosine(vectorOf('halo'), vectorOf('amino')),
    );
  });

  it('gives a document a unit vector near its field, and none to a text of unknown words', () => {
    for (const weighting of ['sif', 'idf', 'tf'] as const) {
      const a = documentVector(model, 'Residue contacts in protein folding', weighting)!;
      const b = documentVector(model, 'Amino acid structure prediction', weighting)!;
      const c = documentVector(model, 'Galaxy redshift and dark matter', weighting)!;
      expect(cosine(a, a)).toBeCloseTo(1, 5);
      expect(cosine(a, b)).toBeGreaterThan(cosine(a, c));
    }
    expect(documentVector(model, 'entirely unrelated vocabulary')).toBeNull();
  });

  it('finds the direction all documents share and takes it out of a vector', () => {
    const unit = (xs: number[]) => {
      const n = Math.hypot(...xs);
      return Float32Array.from(xs, (x) => x / n);
    };
    // Every document leans along the first axis, and differs along the others.
    const docs = [unit([3, 1, 0]), unit([3, -1, 0]), unit([3, 0, 1]), unit([3, 0, -1]), null];
    const common = commonDirection(docs, 3);
    expect(Math.abs(common[0]!)).toBeCloseTo(1, 5);
    const v = withoutDirection(docs[0]!, common)!;
    expect(cosine(v, common)).toBeCloseTo(0, 6);
    expect(cosine(v, v)).toBeCloseTo(1, 6);
    expect(withoutDirection(common, common)).toBeNull();
  });
});
