// Bigram dictionary: (left term id, right term id) -> bigram term id in an open-addressing hash
// table over one Int32Array. A Map keyed by "left right" strings allocated a string per bigram
// occurrence while indexing and cost several times the memory.
const EMPTY = -1;

export class PairTable {
  private table: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1024) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.table = new Int32Array(n * 3).fill(EMPTY);
    this.mask = n - 1;
  }

  private static hash(left: number, right: number): number {
    return (Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca6b)) >>> 0;
  }

  get(left: number, right: number): number {
    const t = this.table;
    let i = PairTable.hash(left, right) & this.mask;
    for (;;) {
      const at = i * 3;
      const l = t[at]!;
      if (l === EMPTY) return -1;
      if (l === left && t[at + 1] === right) return t[at + 2]!;
      i = (i + 1) & this.mask;
    }
  }

  /** Adds a pair known to be absent. */
  set(left: number, right: number, id: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.insert(left, right, id);
    this.size++;
  }

  private insert(left: number, right: number, id: number): void {
    const t = this.table;
    let i = PairTable.hash(left, right) & this.mask;
    while (t[i * 3] !== EMPTY) i = (i + 1) & this.mask;
    t[i * 3] = left;
    t[i * 3 + 1] = right;
    t[i * 3 + 2] = id;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2).fill(EMPTY);
    this.mask = (this.mask + 1) * 2 - 1;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at] !== EMPTY) this.insert(old[at]!, old[at + 1]!, old[at + 2]!);
    }
  }

  byteLength(): number {
    return this.table.byteLength;
  }
}
