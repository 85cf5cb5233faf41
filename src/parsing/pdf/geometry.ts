// Page geometry from pdf.js text items: lines, superscripts, columns and running heads. Everything
// here reads positions and font sizes only, never the words, so it holds for layouts we have not seen.
import {
  AMBIGUOUS_ACCENTS,
  ANY_ACCENT_CLASS,
  SPACING_ACCENTS,
  SPACING_ACCENT_CLASS,
  composeAccents,
  composedLetter,
  median,
} from '../text-utils.ts';
import { appendTo } from '../../infra/collections.ts';

export interface Item {
  str: string;
  x: number;
  /** Baseline, in PDF space (origin bottom-left). */
  y: number;
  w: number;
  size: number;
  font: string;
  /**
   * A space glyph of its own, with a width, stood right before this piece in the page's text (a
   * Word PDF prints the spaces its author typed): a space, though narrower than a word gap is read.
   */
  spaced?: boolean;
}

export interface Line {
  page: number;
  /** Column index on the page; -1 for a line that spans the columns. */
  column: number;
  x: number;
  y: number;
  right: number;
  size: number;
  font: string;
  runs: { text: string; sup: boolean }[];
  text: string;
  links: string[];
  /** Left edge of the line's column, for indentation. */
  columnLeft: number;
  /**
   * In blocks set side by side (authors on a title page): true on a block's first line, false on
   * its other lines; absent elsewhere.
   */
  cellTop?: boolean;
}

export interface Gutter {
  x: number;
  /** Vertical stretches [top, bottom] over which the gutter separates columns. */
  ranges: [number, number][];
}

/** How many of the ascending `ys` are below `y`. */
function countBelow(ys: ArrayLike<number>, y: number): number {
  let lo = 0;
  let hi = ys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ys[mid]! < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many of the ascending `ys` are at most `y`. */
function countAtMost(ys: Float64Array, y: number): number {
  let lo = 0;
  let hi = ys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ys[mid]! <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The items of a region from the top down, and where text spacing breaks between them: built once
 * for all the runs of all the column edges tried (a walk down the items below each run, sorting them
 * each time, made a page of many short runs cost in the square of its pieces).
 */
interface Descent {
  /**
   * The lowest y reached going down from `bottom` through the items above `floor` while each is
   * within 2.5 of its size below the one before (`bottom` itself when the first is not).
   */
  downFrom(bottom: number, floor: number): number;
}

function descentOf(items: Item[]): Descent {
  // Stable: items at one height keep their order, as when the items below a run were sorted.
  const byY = items.filter((it) => !Number.isNaN(it.y)).sort((a, b) => b.y - a.y);
  const n = byY.length;
  // Negated heights ascend, for the binary searches.
  const depth = Float64Array.from(byY, (it) => -it.y);
  // nextBreak[j]: the first k >= j whose item lies more than 2.5 of its size below item k - 1.
  const nextBreak = new Int32Array(n + 1);
  nextBreak[n] = n;
  for (let j = n - 1; j >= 0; j--) {
    const it = byY[j]!;
    const prev = byY[j - 1];
    nextBreak[j] = prev && prev.y - it.y > 2.5 * it.size ? j : nextBreak[j + 1]!;
  }
  return {
    downFrom(bottom, floor) {
      // Items strictly below `bottom` and strictly above `floor`: [first, end).
      const first = countAtMost(depth, -bottom);
      const end = countBelow(depth, -floor);
      const it = byY[first];
      if (first >= end || !it || bottom - it.y > 2.5 * it.size) return bottom;
      const last = Math.min(nextBreak[first + 1]!, end) - 1;
      return Math.min(bottom, byY[last]!.y);
    },
  };
}

/**
 * Vertical stretches where a column edge holds: runs of lines starting at it, broken wherever a
 * line crosses it (a byline, a full-width figure caption) or the starts stop for a long way.
 */
function columnRanges(
  starters: Item[],
  crossers: Item[],
  below: Descent,
): { ranges: [number, number][]; count: number } {
  const crossing = Float64Array.from(crossers, (c) => c.y)
    .filter((y) => !Number.isNaN(y))
    .sort();
  const events = [
    ...starters.map((it) => ({ it, start: true })),
    ...crossers.map((it) => ({ it, start: false })),
  ].sort((a, b) => b.it.y - a.it.y);
  const ranges: [number, number][] = [];
  let count = 0;
  let run: Item[] = [];
  const close = () => {
    if (run.length >= 3) {
      // The first line of a column is often indented and so not a start: reach up to two lines
      // beyond the run, but never past a line that crosses the gutter.
      const reach = 2.2 * Math.max(...run.map((it) => it.size));
      const top = run[0]!.y;
      const bottom = run[run.length - 1]!.y;
      // The nearest crossing lines above and below the run.
      const ceiling = (crossing[countAtMost(crossing, top)] ?? Infinity) - 0.5;
      const floor = (crossing[countBelow(crossing, bottom) - 1] ?? -Infinity) + 0.5;
      // Below the run, one column may go on after the other has ended (the last page of a
      // reference list): down through the lines that follow at text spacing, to the first line
      // that crosses the gutter.
      const downTo = below.downFrom(bottom, floor);
      ranges.push([Math.min(top + reach, ceiling), Math.max(Math.min(bottom - reach, downTo - 0.5), floor)]);
      count += run.length;
    }
    run = [];
  };
  for (const { it, start } of events) {
    if (!start) {
      close();
      continue;
    }
    const prev = run[run.length - 1];
    if (prev && prev.y - it.y > 6 * Math.max(prev.size, it.size)) close();
    run.push(it);
  }
  close();
  return { ranges, count };
}

/**
 * Moves the cut into the widest empty strip just left of the column edge: list numbers and
 * hanging labels ("22.") stand left of a column's text and belong to that column.
 */
function refineCut(items: Item[], cut: number): number {
  const covered = (c: number) => items.some((it) => it.x < c && it.x + it.w > c);
  let best: { from: number; to: number } | null = null;
  let runStart: number | null = null;
  for (let c = cut; c >= cut - 40; c -= 0.5) {
    if (!covered(c)) {
      runStart ??= c;
      const run = { from: c, to: runStart };
      if (!best || run.to - run.from > best.to - best.from) best = run;
    } else runStart = null;
  }
  return best ? (best.from + best.to) / 2 : cut;
}

/**
 * Items with nothing just left of them on their row: no other item within half its size above or
 * below it that starts left of it and ends less than half its size before it (a wide word space).
 *
 * Swept from left to right over a tree of the items' heights holding the right end of each item
 * already passed: a look along each row, item by item, cost in the square of a row's pieces (a
 * page of 8,000 pieces on one row took 2 s).
 */
function startsOfLines(items: Item[]): Item[] {
  const byY = [...items].sort((a, b) => b.y - a.y);
  const n = byY.length;
  // Positions in ascending height; the tree holds, for each, the right end of its item once swept.
  const rank = Array.from(byY.keys()).sort((a, b) => byY[a]!.y - byY[b]!.y);
  const ys = Float64Array.from(rank, (k) => byY[k]!.y);
  const position = new Int32Array(n);
  rank.forEach((k, p) => (position[k] = p));
  let size = 1;
  while (size < n) size *= 2;
  const ends = new Float64Array(2 * size).fill(-Infinity);
  const put = (p: number, end: number) => {
    for (let i = p + size; i >= 1; i >>= 1) ends[i] = Math.max(ends[i]!, end);
  };
  /** The largest right end among positions lo..hi (inclusive). */
  const furthest = (lo: number, hi: number): number => {
    let best = -Infinity;
    for (let l = lo + size, h = hi + size + 1; l < h; l >>= 1, h >>= 1) {
      if (l & 1) best = Math.max(best, ends[l++]!);
      if (h & 1) best = Math.max(best, ends[--h]!);
    }
    return best;
  };
  const isStart = new Uint8Array(n);
  const byX = Array.from(byY.keys()).sort((a, b) => byY[a]!.x - byY[b]!.x);
  for (let g = 0; g < n;) {
    // Items at one x do not count for each other (only items starting left of an item do).
    let e = g + 1;
    while (e < n && byY[byX[e]!]!.x === byY[byX[g]!]!.x) e++;
    for (let q = g; q < e; q++) {
      const k = byX[q]!;
      const it = byY[k]!;
      const half = 0.5 * it.size;
      // The heights within half its size of its own, by the comparisons a look along the row makes.
      let lo = 0;
      let hi = position[k]!;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (it.y - ys[mid]! <= half) hi = mid;
        else lo = mid + 1;
      }
      const from = lo;
      lo = position[k]!;
      hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ys[mid]! - it.y <= half) lo = mid + 1;
        else hi = mid;
      }
      isStart[k] = furthest(from, lo - 1) > it.x - half ? 0 : 1;
    }
    for (let q = g; q < e; q++) put(position[byX[q]!]!, byY[byX[q]!]!.x + byY[byX[q]!]!.w);
    g = e;
  }
  return byY.filter((_, k) => isStart[k] === 1);
}

/**
 * Whether a height lies in any of the stretches [top, bottom] (bounds included): the stretches
 * merged and sorted once, each height found by a binary search. A column edge may hold over
 * hundreds of short stretches, and every item of the page was tested against each.
 */
function withinRanges(ranges: [number, number][]): (y: number) => boolean {
  const sorted = ranges.filter(([top, bottom]) => top >= bottom).sort((a, b) => a[1] - b[1]);
  const bottoms: number[] = [];
  const tops: number[] = [];
  for (const [top, bottom] of sorted) {
    const last = tops.length - 1;
    if (last >= 0 && bottom <= tops[last]!) tops[last] = Math.max(tops[last]!, top);
    else {
      bottoms.push(bottom);
      tops.push(top);
    }
  }
  return (y) => {
    let lo = 0;
    let hi = bottoms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bottoms[mid]! <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && y <= tops[lo - 1]!;
  };
}

/**
 * Most column edges tried in one region of a page: each costs a pass over the region's pieces. An
 * edge is tried at every 3 points where enough lines start, and 300 is every such place across a
 * page 1,400 points wide (A4 is 595, A2 1,191); a page drawn wider, its pieces set 3 points apart
 * on one row, had 8,000 edges tried (4.6 s for a page of 8,000 pieces).
 */
const MAX_EDGES_TRIED = 300;

/** The `max` edges where the most lines start (all of them when there are no more), in their order. */
function mostStarted<T extends { near: number }>(edges: T[], max: number): T[] {
  if (edges.length <= max) return edges;
  const kept = new Set([...edges].sort((a, b) => b.near - a.near).slice(0, max));
  return edges.filter((e) => kept.has(e));
}

/**
 * A sidebar of small type beside part of a column (a journal's fields in the left margin of its
 * first page: JOSS's "DOI", "Software", "Submitted", "License" beside the title's first section):
 * text left of a column's edge over a few of its lines only, too little against the whole
 * column's lines to pass as a column of its own, and read into them as one line each. The gutter
 * holds over the sidebar's height: ranges cut to it, and the column's lines counted there, when
 * the sidebar holds five pieces or more on three rows or more, in type smaller than the column's,
 * and as many pieces as half the column's lines beside it. In the column's own type such pieces
 * are its own margin's: a numbered heading's number, bullets, a line's first letter set apart.
 */
function sidebarBeside(
  left: Item[],
  starters: Item[],
  ranges: [number, number][],
): { ranges: [number, number][]; count: number } | null {
  if (left.length < 5 || new Set(left.map((it) => Math.round(it.y))).size < 3) return null;
  const top = Math.max(...left.map((it) => it.y + it.size));
  const bottom = Math.min(...left.map((it) => it.y)) - 0.5;
  const cut = ranges
    .map(([t, b]): [number, number] => [Math.min(t, top), Math.max(b, bottom)])
    .filter(([t, b]) => t > b);
  const inCut = withinRanges(cut);
  const column = starters.filter((it) => inCut(it.y));
  const rows = new Set(column.map((it) => Math.round(it.y))).size;
  const size = (its: Item[]) => median(its.map((it) => it.size));
  if (rows < 3 || left.length < 0.5 * rows || size(left) > 0.95 * size(column)) return null;
  return { ranges: cut, count: rows };
}

/**
 * Finds vertical gutters: an x where many lines start (a column's left edge) with text to its
 * left and no line crossing it. Searched again inside each side, so a sidebar beside two columns
 * is found too.
 */
export function findGutters(items: Item[], left: number, right: number, depth = 0): Gutter[] {
  const inside = items.filter((it) => it.x >= left - 1 && it.x + it.w <= right + 1);
  const width = right - left;
  if (inside.length < 12 || width < 150 || depth > 1) return [];
  const bin = 3;
  // A column edge is where lines start. Items that go on a line (a word in another face, a
  // subscript in a formula) line up by chance, and a page of formulas or of references set in
  // several faces has many of them: only line starts count, against the number of lines.
  const lineStarts = startsOfLines(inside);
  const descent = descentOf(inside);
  const starts = new Map<number, number>();
  for (const it of lineStarts) {
    const b = Math.round(it.x / bin);
    starts.set(b, (starts.get(b) ?? 0) + 1);
  }
  const rows = new Set(inside.map((it) => Math.round(it.y))).size;
  const minCount = Math.max(5, 0.12 * rows);
  let best: (Gutter & { score: number }) | null = null;
  const edges: { x: number; near: number }[] = [];
  for (const [b, count] of starts) {
    const x = b * bin;
    if (x < left + 0.2 * width || x > right - 0.15 * width) continue;
    // Right-aligned labels ("[9]", "[10]") start a digit's width apart.
    const near = [-2, -1, 1, 2].reduce((n, d) => n + (starts.get(b + d) ?? 0), count);
    if (near >= minCount) edges.push({ x, near });
  }
  for (const { x } of mostStarted(edges, MAX_EDGES_TRIED)) {
    const aligned = lineStarts.filter((it) => Math.abs(it.x - x) <= bin * 1.5);
    // Lines of a column may start a little left of where most of them start: the first lines of
    // a hanging indent (an author-year reference list), labels ("[12]"), a heading. They would
    // cross a cut set just before the aligned starts; the cut goes into the empty strip left of
    // them, among the lines beside the starts (a line that covers the whole strip crosses it).
    const top = Math.max(...aligned.map((it) => it.y));
    const bottom = Math.min(...aligned.map((it) => it.y));
    const strip = [x - bin - 41, x - bin - 1];
    const cut = refineCut(
      inside.filter(
        (it) =>
          it.y <= top + 3 * it.size &&
          it.y >= bottom &&
          it.x < strip[1]! &&
          it.x + it.w > strip[0]! &&
          !(it.x <= strip[0]! && it.x + it.w >= strip[1]!),
      ),
      x - bin - 1,
    );
    const starters = [...aligned, ...lineStarts.filter((it) => it.x >= cut && it.x < x - bin * 1.5)];
    const crossers = inside.filter((it) => it.x < cut - 1 && it.x + it.w > cut + 0.5);
    const found = columnRanges(starters, crossers, descent);
    let { ranges, count: n } = found;
    if (n < minCount) continue;
    const inRange = withinRanges(ranges);
    // Left of the column edge there must be text too, or this is just an indented block.
    const left = inside.filter((it) => it.x + it.w <= cut + 0.5 && inRange(it.y));
    if (left.length < Math.max(5, 0.5 * n)) {
      const beside = sidebarBeside(left, starters, ranges);
      if (!beside) continue;
      ({ ranges, count: n } = beside);
    }
    if (!best || n > best.score) best = { x: cut, score: n, ranges };
  }
  if (!best) return [];
  const { ranges } = best;
  const inRanges = withinRanges(ranges);
  const within = inside.filter((it) => inRanges(it.y));
  const x = refineCut(within, best.x);
  return [
    ...findGutters(within, left, x, depth + 1),
    { x, ranges },
    ...findGutters(within, x, right, depth + 1),
  ];
}

/** A spacing accent (or an ASCII stand-in) that ends a string, after an optional space. */
const ACCENT_AT_END = new RegExp(`( ?)(${ANY_ACCENT_CLASS})$`, 'u');
/** A spacing accent that starts a string and is not itself followed by a letter. */
const ACCENT_AT_START = new RegExp(`^(${SPACING_ACCENT_CLASS})(?!\\p{L})`, 'u');

const combiningOf = (accent: string): string | undefined =>
  SPACING_ACCENTS[accent] ?? AMBIGUOUS_ACCENTS[accent];

/**
 * One item made of `a` and the item `b` drawn partly over its end, with the accent between them
 * put on its letter; null when the two are not an accent and its letter.
 *
 * pdfTeX with OT1 fonts draws "č" as the caron, a kern back, then the "c": pdf.js ends one item
 * with the accent ("Hubiˇ") and starts the next at the letter, left of where the first ends. It
 * often reads the shift of the accent over its letter as a space ("Rich `" + "el"). That overlap,
 * a move back by less than a letter's width on the same line, is what tells an accent from a
 * quote mark or a caret, which are followed by a move forward.
 */
function accentJoin(a: Item, b: Item): Item | null {
  const size = Math.max(a.size, b.size);
  const end = a.x + a.w;
  const sameLine = Math.abs(a.y - b.y) <= 0.6 * size && Math.min(a.size, b.size) >= 0.8 * size && b.x > a.x;
  // The next item starts over the end of this one, by no more than an accent's width.
  if (!sameLine || !(b.x < end - 0.05 * size && b.x > end - 1.1 * size)) return null;
  const merged = (text: string, base: Item): Item => ({
    str: text,
    x: a.x,
    // The item with the letters carries the baseline (a capital's accent is raised).
    y: base.y,
    w: Math.max(end, b.x + b.w) - a.x,
    size: base.size,
    font: base.font,
  });
  const tail = ACCENT_AT_END.exec(a.str);
  const letter = /^\p{L}/u.exec(b.str)?.[0];
  if (tail && letter) {
    const before = a.str.slice(0, tail.index);
    const composed = composedLetter(letter, combiningOf(tail[2]!)!);
    // An ASCII stand-in goes on a letter only inside a word or alone: "x ^" + "a" is a formula.
    const ascii = tail[2]! in AMBIGUOUS_ACCENTS;
    if (composed && (!ascii || before === '' || /\p{L}$/u.test(before))) {
      // The space pdf.js puts before an accent inside a word ("Rich `el") is the accent's shift,
      // not a word space; before a capital ("Jean ´Emile") it is most likely a real one, but for
      // a capital inside a word in capitals ("DO ˘" + "GAN", Times' Ğ and Ş built from a breve or
      // a cedilla and the letter): a capital before it, after it a capital or nothing more, and a
      // letter wide enough under its accent that centring the accent shifts it past pdf.js's
      // space (a tenth of an em): the overlap, half the letter's width and the accent's, passes a
      // third of an em (an accent's width) and that tenth. Over a narrow letter ("˙" + "I", İ) the
      // shift is too small to read as a space: the space there is a word's ("...LARININ İNCE...").
      const inCapitals =
        /\p{Lu}$/u.test(before) &&
        /\p{Lu}/u.test(letter) &&
        !/^\P{L}*\p{Ll}/u.test(b.str.slice(letter.length)) &&
        end - b.x > 0.43 * size;
      const keepSpace =
        tail[1] === ' ' && !(/\p{L}$/u.test(before) && (/\p{Ll}/u.test(letter) || inCapitals));
      const text = `${before}${keepSpace ? ' ' : ''}${composed}${b.str.slice(letter.length)}`;
      return merged(text, before.trim() ? a : b);
    }
  }
  // The accent drawn after its letter, back over it.
  const head = ACCENT_AT_START.exec(b.str);
  const last = /\p{L}$/u.exec(a.str)?.[0];
  if (head && last) {
    const composed = composedLetter(last, SPACING_ACCENTS[head[1]!]!);
    if (composed)
      return merged(`${a.str.slice(0, -last.length)}${composed}${b.str.slice(head[1]!.length)}`, a);
  }
  return null;
}

/**
 * Puts TeX's separately drawn accents onto their letters, between items (see accentJoin) and
 * inside them ("Thørv¨ald"). Items are taken in the order the page draws them: an accent and its
 * letter are drawn one right after the other.
 */
export function mendAccents(items: Item[]): Item[] {
  const out: Item[] = [];
  for (const it of items) {
    const prev = out[out.length - 1];
    const joined = prev ? accentJoin(prev, it) : null;
    if (joined) out[out.length - 1] = joined;
    else out.push(it);
  }
  for (const it of out) it.str = composeAccents(it.str);
  return out;
}

/**
 * Whether raised small pieces stand as marks after the words of the line under them: each piece
 * starts where one of the line's words ends, or runs on from a piece that does ("1," then "⋆").
 * Marks set only a little smaller than the names they follow (GENETICS' byline: marks at 0.85 of
 * the names' size) are told by this from a line of smaller type set beside the line.
 */
function marksOfWords(marks: Item[], words: Item[], size: number): boolean {
  const ends = words.map((w) => w.x + w.w);
  for (const m of [...marks].sort((a, b) => a.x - b.x)) {
    if (!ends.some((e) => Math.abs(m.x - e) < 0.3 * size)) return false;
    ends.push(m.x + m.w);
  }
  return true;
}

function groupIntoLines(items: Item[]): Item[][] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const clusters: { y: number; size: number; items: Item[] }[] = [];
  for (const it of sorted) {
    const last = clusters[clusters.length - 1];
    if (last && Math.abs(last.y - it.y) <= 0.3 * Math.max(last.size, it.size)) {
      last.items.push(it);
      if (it.size > last.size) {
        last.size = it.size;
        last.y = it.y;
      }
    } else clusters.push({ y: it.y, size: it.size, items: [it] });
  }
  // A drop cap (the first letter of a section's first paragraph set over two or three lines, AIAA's
  // "I" of "Immediate") sits on a lower line's baseline: it sets no size for that line, and is the
  // first letter of the line it tops, joined to that line's first word.
  clusters.forEach((c, k) => {
    const cap = c.items.reduce((a, b) => (b.size > a.size ? b : a));
    const others = c.items.filter((it) => it !== cap);
    const prev = clusters[k - 1];
    if (
      !others.length ||
      !prev ||
      !/^\p{Lu}$/u.test(cap.str.trim()) ||
      cap.size < 1.6 * Math.max(...others.map((it) => it.size)) ||
      others.some((it) => it.x < cap.x) ||
      prev.y - c.y > cap.size ||
      prev.items.some((it) => it.x <= cap.x)
    )
      return;
    c.items = others;
    c.size = Math.max(...others.map((it) => it.size));
    const firstX = Math.min(...prev.items.map((it) => it.x));
    prev.items.push({ ...cap, str: cap.str.trim(), y: prev.y, size: prev.size, w: firstX - cap.x });
  });
  // A cluster of small type that overlaps a neighbouring line vertically is that line's superscript
  // or subscript, not a line of its own.
  const merged: typeof clusters = [];
  for (const c of clusters) {
    const prev = merged[merged.length - 1];
    if (prev && c.size < 0.85 * prev.size && c.y + c.size * 0.3 < prev.y && c.y > prev.y - 0.45 * prev.size) {
      prev.items.push(...c.items);
      continue;
    }
    if (
      prev &&
      prev.y > c.y &&
      prev.y < c.y + 0.75 * c.size &&
      (prev.size < 0.85 * c.size || (prev.size < 0.9 * c.size && marksOfWords(prev.items, c.items, c.size)))
    ) {
      // The previous cluster was raised small type sitting on this line.
      const sup = merged.pop();
      c.items.push(...(sup?.items ?? []));
    }
    merged.push(c);
  }
  return merged.map((c) => c.items.sort((a, b) => a.x - b.x));
}

/** Letters of the scripts written from right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko). */
const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const LTR_LETTER = /[\p{L}\p{N}]/u;

/**
 * A line's items in reading order. Sorted by their place they stand in visual order, which is the
 * reading order of a left-to-right line only: a line written mostly in a right-to-left script
 * (Hebrew, Arabic) reads from its right end, and a run of Latin words or digits inside it reads
 * from the run's left end as before (XeLaTeX's bidi output draws one glyph an item).
 */
function readingOrder(items: Item[]): Item[] {
  let rtl = 0;
  let ltr = 0;
  for (const it of items)
    for (const ch of it.str) {
      if (RTL_LETTER.test(ch)) rtl++;
      else if (LTR_LETTER.test(ch)) ltr++;
    }
  if (rtl === 0) return items;
  if (rtl <= ltr) {
    // A left-to-right line with right-to-left words in it: each run of them (with the neutral
    // items between its letters) reads from its right end, in its place.
    const out: Item[] = [];
    let run: Item[] = [];
    const flush = () => {
      let end = run.length;
      while (end > 0 && !RTL_LETTER.test(run[end - 1]!.str)) end--;
      out.push(...run.slice(0, end).reverse(), ...run.slice(end));
      run = [];
    };
    for (const it of items) {
      if (RTL_LETTER.test(it.str)) run.push(it);
      else if (run.length && !LTR_LETTER.test(it.str)) run.push(it);
      else {
        flush();
        out.push(it);
      }
    }
    flush();
    return out;
  }
  const reversed = [...items].reverse();
  const out: Item[] = [];
  let run: Item[] = [];
  // A run of left-to-right items, with the neutral ones (spaces, stops) between them, keeps its
  // own order; neutral items at its ends belong to the right-to-left text around it.
  const flush = () => {
    let end = run.length;
    while (end > 0 && !LTR_LETTER.test(run[end - 1]!.str)) end--;
    out.push(...run.slice(end), ...run.slice(0, end).reverse());
    run = [];
  };
  for (const it of reversed) {
    if (RTL_LETTER.test(it.str)) {
      flush();
      out.push(it);
    } else if (run.length || LTR_LETTER.test(it.str)) run.push(it);
    else out.push(it);
  }
  flush();
  return out;
}

function buildLine(sorted: Item[], page: number, column: number, columnLeft: number): Line {
  const items = readingOrder(sorted);
  const size = Math.max(...items.map((i) => i.size));
  const base = items.find((i) => i.size === size) ?? items[0]!;
  const runs: Line['runs'] = [];
  const fontChars = new Map<string, number>();
  let prevEnd: number | null = null;
  let text = '';
  items.forEach((it, k) => {
    // Raised small letters set inside a word, touching it on both sides (the "A" of the LaTeX
    // logo), are part of it; a mark stands after its word, before a space or a comma.
    const touching = (a: Item | undefined, b: Item | undefined) =>
      a !== undefined && b !== undefined && b.x - (a.x + a.w) < 0.1 * size;
    const inWord =
      /^\p{L}+$/u.test(it.str) &&
      touching(items[k - 1], it) &&
      touching(it, items[k + 1]) &&
      /\p{L}$/u.test(items[k - 1]!.str) &&
      /^\p{L}/u.test(items[k + 1]!.str);
    const sup = it.size < 0.85 * size && it.y > base.y + 0.15 * size && !inWord;
    // The space between an item and the one read before it, on whichever side that one stands.
    const prev = items[k - 1];
    const gap = prevEnd === null || !prev ? 0 : Math.max(it.x - prevEnd, prev.x - (it.x + it.w));
    const needsSpace =
      prevEnd !== null &&
      (gap > 0.2 * it.size || (it.spaced === true && gap > 0.1 * it.size)) &&
      !text.endsWith(' ') &&
      !it.str.startsWith(' ');
    // A gap wider than a letter pair's (EPTCS sets its authors' names side by side with a quad
    // between them and no comma) is kept in the runs as a tab, which the byline splits on; the
    // line's text reads it as a space.
    const piece = (needsSpace && !sup ? (gap > 1.2 * it.size ? '\t' : ' ') : '') + it.str;
    const last = runs[runs.length - 1];
    // A raised number set apart from the word before it and touching the letters after it is a
    // prefix ("with ⁹Be Nuclei", "¹³C"), not a mark on that word: the space before it stays, in
    // the run before.
    const next = items[k + 1];
    if (
      sup &&
      needsSpace &&
      last &&
      !last.sup &&
      /^\p{N}+$/u.test(it.str) &&
      /\p{L}$/u.test(prev?.str ?? '') &&
      touching(it, next) &&
      /^\p{Lu}/u.test(next?.str ?? '')
    ) {
      last.text += ' ';
      text += ' ';
    }
    if (last && last.sup === sup) last.text += piece;
    else runs.push({ text: piece, sup });
    text += piece;
    prevEnd = it.x + it.w;
    if (!sup) fontChars.set(it.font, (fontChars.get(it.font) ?? 0) + it.str.length);
  });
  const font = [...fontChars.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? base.font;
  const first = sorted[0]!;
  const lastItem = sorted[sorted.length - 1]!;
  return {
    page,
    column,
    x: first.x,
    y: base.y,
    right: lastItem.x + lastItem.w,
    size,
    font,
    // A TeX accent is its own glyph, set just before its letter (or, a cedilla, just after it): the
    // runs, which the byline's names are read from, are mended as the line's text is.
    runs: runs.map((r) => ({ ...r, text: composeAccents(r.text) })),
    text: composeAccents(text.replace(/\s+/g, ' ').trim()),
    links: [],
    columnLeft,
  };
}

/**
 * A gutter at a known x on one page: the stretches where no line crosses it and text stands on
 * both sides of it.
 */
function gutterAt(items: Item[], x: number): Gutter | null {
  const crossing = items.filter((it) => it.x < x - 1 && it.x + it.w > x + 1);
  // Whatever shares a row with a crossing line belongs to that line, on either side.
  const inCrossingRow = (it: Item) => crossing.some((c) => Math.abs(c.y - it.y) <= 0.5 * c.size);
  const rows = (its: Item[]) => new Set(its.map((it) => Math.round(it.y))).size;
  const ranges: [number, number][] = [];
  let stretch: Item[] = [];
  // `beforeSpanning`: a line across the page follows the stretch. Columns set over such a line
  // end about level (balanced, as multicol and a class's \onecolumn set them); a short line well
  // under the shorter column's foot, over the line across (a heading of the one-column part that
  // follows, too short to cross the gutter), is no column's line and is read after both columns.
  const close = (beforeSpanning: boolean) => {
    const left = stretch.filter((it) => it.x + it.w <= x + 1);
    const right = stretch.filter((it) => it.x >= x - 1);
    if (rows(left) >= 2 && rows(right) >= 2) {
      // The lowest line of a column, and how far under it the other column may still end: columns
      // balanced line by line end within a line or so of each other (an entry's space, a line the
      // balance could not split).
      const foot = (its: Item[]) => {
        const low = its.reduce((a, b) => (b.y < a.y ? b : a));
        return low.y - 2 * low.size;
      };
      const bottom = beforeSpanning
        ? Math.max(foot(left), foot(right))
        : stretch[stretch.length - 1]!.y - 0.5;
      ranges.push([stretch[0]!.y + 0.5, bottom]);
    }
    stretch = [];
  };
  for (const it of [...items].sort((a, b) => b.y - a.y)) {
    if (inCrossingRow(it)) close(true);
    else stretch.push(it);
  }
  close(false);
  return ranges.length ? { x, ranges } : null;
}

/**
 * The gutters of every page. A page whose columns are too short to show their edges (the last
 * page of a reference list, with a few lines in its right column) takes the gutter the other
 * pages share, wherever no line crosses it. The first page keeps its own reading: there a title
 * and author blocks stand side by side above the columns.
 */
export function documentGutters(pages: { items: Item[]; width: number }[]): Gutter[][] {
  const found = pages.map((p) => findGutters(p.items, 0, p.width).sort((a, b) => a.x - b.x));
  const single = found.filter((g) => g.length === 1).map((g) => g[0]!.x);
  const shared = median(single);
  const agreeing = single.filter((x) => Math.abs(x - shared) <= 6).length;
  if (agreeing < 2 || agreeing < 0.5 * found.filter((g) => g.length > 0).length) return found;
  return found.map((g, i) => {
    if (i === 0) return g;
    if (g.length === 0) {
      const fallback = gutterAt(pages[i]!.items, shared);
      return fallback ? [fallback] : g;
    }
    // A page whose own edge is not the document's holds it over part of the page only: an IEEE
    // journal's last page, the list's two columns above the biographies, whose text starts right of
    // the photos (their edge, with more lines, is the one found). Over the rest of the page, the
    // shared gutter holds wherever no line crosses it.
    if (g.some((gutter) => Math.abs(gutter.x - shared) <= 6)) return g;
    const inRanges = withinRanges(g.flatMap((gutter) => gutter.ranges));
    const rest = gutterAt(
      pages[i]!.items.filter((it) => !inRanges(it.y)),
      shared,
    );
    return rest ? [...g, rest].sort((a, b) => a.x - b.x) : g;
  });
}

/** Lines of one page in reading order: bands between spanning lines, each band column by column. */
export function orderPage(items: Item[], page: number, gutters: Gutter[]): Line[] {
  if (items.length === 0) return [];
  // A gutter exists only over the height of its columns: above and below it (a title, a full-width
  // abstract, a footnote across the page) lines span the page.
  const columnOf = (it: Item): number => {
    const active = gutters.filter((g) => g.ranges.some(([top, bottom]) => it.y <= top && it.y >= bottom));
    if (active.length === 0) return -1;
    if (active.some((g) => it.x < g.x - 1 && it.x + it.w > g.x + 1)) return -1;
    return active.filter((g) => g.x <= it.x + 1).length;
  };
  const byColumn = new Map<number, Item[]>();
  for (const it of items) {
    const c = columnOf(it);
    appendTo(byColumn, c, it);
  }
  const lines: Line[] = [];
  for (const [c, its] of byColumn) {
    const left = c < 0 ? 0 : Math.min(...its.map((i) => i.x));
    for (const group of groupIntoLines(its)) lines.push(buildLine(group, page, c, left));
  }
  const spanning = lines.filter((l) => l.column < 0).sort((a, b) => b.y - a.y);
  const units = page === 1 ? sideBySideBlocks(spanning, byColumn.get(-1) ?? []) : spanning.map((l) => [l]);
  const ordered: Line[] = [];
  let upper = Infinity;
  const columns = [...byColumn.keys()].filter((c) => c >= 0).sort((a, b) => a - b);
  const emitBand = (top: number, bottom: number) => {
    for (const c of columns) {
      ordered.push(
        ...lines
          .filter((l) => l.column === c && l.y < top && l.y >= bottom)
          .sort((a, b) => b.y - a.y || a.x - b.x),
      );
    }
  };
  for (const unit of units) {
    emitBand(upper, unit[0]!.y);
    ordered.push(...unit);
    upper = Math.min(...unit.map((l) => l.y));
  }
  emitBand(upper, -Infinity);
  return ordered;
}

/** The items a line was built from, left to right. */
function itemsOf(line: Line, items: Item[]): Item[] {
  return items
    .filter((it) => it.y <= line.y + 0.75 * line.size && it.y >= line.y - 0.45 * line.size)
    .filter((it) => it.x >= line.x - 0.5 && it.x + it.w <= line.right + 0.5)
    .sort((a, b) => a.x - b.x);
}

/** A piece whose middle is within a tenth of the columns' spacing of one column's centre. */
function centredOnGrid(cell: Item[], centres: number[]): boolean {
  const [mid] = centresOf([cell]);
  const spacing = Math.min(...centres.slice(1).map((c, k) => c - centres[k]!));
  return centres.some((c) => Math.abs(c - mid!) <= 0.1 * spacing);
}

/** The horizontal middle of each piece. */
function centresOf(cells: Item[][]): number[] {
  return cells.map((c) => (c[0]!.x + Math.max(...c.map((i) => i.x + i.w))) / 2);
}

/** Pieces of a line split where the gap between two items is wider than a few letters. */
function cellsOf(line: Line, items: Item[]): Item[][] {
  const own = itemsOf(line, items);
  const cells: Item[][] = [];
  let prevEnd = -Infinity;
  for (const it of own) {
    if (cells.length === 0 || it.x - prevEnd > 2.5 * line.size) cells.push([it]);
    else cells[cells.length - 1]!.push(it);
    prevEnd = Math.max(prevEnd, it.x + it.w);
  }
  return cells;
}

/**
 * Pieces of a line cut at the borders of the columns whose centres are given (halfway between
 * two), when no item crosses a border by more than a third of a letter: null otherwise. Author
 * blocks set in columns with no gutter (Typst's grid, text justified to each column's width) leave
 * no wide gap between one column's words and the next one's, only the grid that the row of names
 * above them drew.
 */
function gridCells(line: Line, items: Item[], centres: number[]): Item[][] | null {
  const borders = centres.slice(1).map((c, k) => (centres[k]! + c) / 2);
  const slack = 0.3 * line.size;
  const cells: Item[][] = centres.map(() => []);
  for (const it of itemsOf(line, items)) {
    const k = borders.filter((b) => it.x + it.w / 2 > b).length;
    if (k > 0 && it.x < borders[k - 1]! - slack) return null;
    if (k < borders.length && it.x + it.w > borders[k]! + slack) return null;
    cells[k]!.push(it);
  }
  return cells.filter((c) => c.length > 0);
}

/**
 * Author blocks set side by side on a title page (arXiv, JSS, ACM and Quarto templates): rows of
 * short pieces parted by wide gaps, stacked over each other. Each such band is read block by block,
 * column after column, as a reader does, instead of across the page, which interleaves the names
 * with each other's affiliations. Other spanning lines stay units of their own.
 */
function sideBySideBlocks(spanning: Line[], items: Item[]): Line[][] {
  const units: Line[][] = [];
  let band: { line: Line; cells: Item[][] }[] = [];
  // The centres of the band's last row of pieces parted by wide gaps (its names): the lines under
  // it, set close, are cut at its columns' borders when they show no such gaps themselves.
  let grid: number[] | null = null;
  const flush = () => {
    grid = null;
    if (band.length >= 2) {
      // Column centres from the row with the most pieces; every piece goes to the nearest one.
      const widest = band.reduce((a, b) => (b.cells.length > a.cells.length ? b : a));
      const centres = widest.cells.map((c) => (c[0]!.x + Math.max(...c.map((i) => i.x + i.w))) / 2);
      const columns: Line[][] = centres.map(() => []);
      for (const { line, cells } of band) {
        for (const cell of cells) {
          const mid = (cell[0]!.x + Math.max(...cell.map((i) => i.x + i.w))) / 2;
          let k = 0;
          centres.forEach((c, j) => {
            if (Math.abs(c - mid) < Math.abs(centres[k]! - mid)) k = j;
          });
          columns[k]!.push(buildLine(cell, line.page, -1, line.columnLeft));
        }
      }
      // A block starts a column, or under a gap wider than the column's own leading.
      for (const column of columns) {
        const pitch = median(column.slice(1).map((l, i) => column[i]!.y - l.y));
        column.forEach((l, i) => {
          const above = column[i - 1];
          l.cellTop = !above || above.y - l.y > 1.45 * pitch;
        });
      }
      units.push(columns.flat());
    } else units.push(...band.map((b) => [b.line]));
    band = [];
  };
  for (const line of spanning) {
    let cells = cellsOf(line, items);
    const prev = band[band.length - 1]?.line;
    const close = prev !== undefined && prev.y - line.y <= 1.6 * Math.max(prev.size, line.size);
    // A row of pieces under a wider space than the leading opens a row of blocks: its centres are
    // the grid. A close line under it is cut at the grid when it shows fewer pieces of its own.
    const opensRow = cells.length >= 2 && (grid === null || !close);
    // A line that fits one column of the grid alone (a block's last address line) is cut so too,
    // when it is centred under that column's name as the grid's lines are; a line set flush left
    // under names and their emails (JMLR) is the affiliation of the names, not of the first alone.
    let cut = !opensRow && grid && close && cells.length < grid.length ? gridCells(line, items, grid) : null;
    if (cut && cut.length === 1 && grid && !centredOnGrid(cut[0]!, grid)) cut = null;
    if (cut) cells = cut;
    const fits =
      (cells.length >= 2 || (cut !== null && cells.length === 1)) &&
      cells.length <= 4 &&
      cells.every((c) => c.reduce((n, i) => n + i.str.length, 0) <= 60) &&
      (!prev || prev.y - line.y <= 3 * Math.max(prev.size, line.size));
    if (!fits) {
      flush();
      if (cells.length >= 2 && cells.length <= 4) {
        band.push({ line, cells });
        if (!cells.every((c) => c.reduce((n, i) => n + i.str.length, 0) <= 60)) flush();
        else if (opensRow) grid = centresOf(cells);
      } else units.push([line]);
      continue;
    }
    band.push({ line, cells });
    if (opensRow) grid = centresOf(cells);
  }
  flush();
  return units;
}

/** A page number in lower-case roman numerals, as a margin key reads it: "iv", "xii". */
const ROMAN_PAGE_NUMBER = /^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})$/;

/** A DOI in a margin's row, its digits as printed. */
const DOI_IN_ROW = /10\.\d{4,9}\/\S+/;

/** Normalised text of a running head or foot: digits vary from page to page, the rest does not. */
function marginKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, '');
}

/**
 * Raised small type on a word of a larger line beside it ("NC¹" in a title, the first line of its
 * page): a superscript on a row of its own, neither a page number nor a running head (the same
 * mark may recur on other pages). Each item stands over the baseline of a larger item's line,
 * within that item's height, and touches it at one side.
 */
function raisedOnText(all: Item[], row: Item[]): boolean {
  return row.every((it) =>
    all.some(
      (o) =>
        !row.includes(o) &&
        o.size > it.size &&
        o.y < it.y &&
        o.y + o.size > it.y &&
        (Math.abs(o.x + o.w - it.x) < it.size || Math.abs(it.x + it.w - o.x) < it.size),
    ),
  );
}

/**
 * Drops running heads, feet and page numbers: items in the top or bottom band of a page whose row
 * text recurs on several pages, and rows that are only a number.
 */
export function dropRunningHeads(pages: { items: Item[]; height: number }[]): number {
  // A tenth of the page: ACM journals set their running foot at 9.5% of the height. A line of
  // text so low goes only if it recurs on other pages, which body text does not.
  const band = (p: { height: number }) => 0.1 * p.height;
  const rowCount = (p: { items: Item[] }) => new Set(p.items.map((it) => Math.round(it.y / 3))).size;
  const rowsOf = (p: { items: Item[]; height: number }) => {
    const rows = new Map<number, Item[]>();
    // The page's first and last rows are read wherever they stand: a page number or a foot set
    // higher than the band (elsarticle's number at 12% of the height, acmart's manuscript foot at
    // 16%) is still the last thing on its page. On a page of a few rows, whose text may be all
    // alike, only rows in the band may go for recurring.
    const lowest = Math.min(...p.items.map((it) => it.y));
    const highest = Math.max(...p.items.map((it) => it.y));
    for (const it of p.items) {
      const edgeRow = Math.abs(it.y - lowest) < 1.5 || Math.abs(it.y - highest) < 1.5;
      if (it.y > p.height - band(p) || it.y < band(p) || edgeRow) {
        const key = Math.round(it.y / 3);
        const row = rows.get(key);
        if (row) row.push(it);
        else rows.set(key, [it]);
      }
    }
    return [...rows.values()].map((its) => {
      const text = its
        .sort((a, b) => a.x - b.x)
        .map((i) => i.str)
        .join('');
      return {
        items: its,
        inBand: its.some((it) => it.y > p.height - band(p) || it.y < band(p)),
        mayRecur: its.some((it) => it.y > p.height - band(p) || it.y < band(p)) || rowCount(p) >= 5,
        key: marginKey(text),
        digits: text.replace(/\D+/g, ' ').trim(),
        doi: DOI_IN_ROW.exec(text)?.[0] ?? null,
        size: Math.max(...its.map((it) => it.size)),
      };
    });
  };
  const perPage = pages.map(rowsOf);
  const counts = new Map<string, number>();
  for (const rows of perPage)
    for (const k of new Set(rows.map((r) => r.key))) counts.set(k, (counts.get(k) ?? 0) + 1);
  const minRepeats = Math.max(2, Math.ceil(0.3 * pages.length));
  // A title that the other pages repeat as their running head (ICML's) is set larger on its own
  // page than they set it. Each text's largest size and the next (a second row as large is the
  // next) tell it in constant time per row, however many pages repeat the text.
  const sizes = new Map<string, { first: number; second: number }>();
  for (const rows of perPage)
    for (const r of rows) {
      const z = sizes.get(r.key) ?? { first: -Infinity, second: -Infinity };
      if (r.size >= z.first) sizes.set(r.key, { first: r.size, second: z.first });
      else sizes.set(r.key, { first: z.first, second: Math.max(z.second, r.size) });
    }
  const headOfTitle = (row: { key: string; size: number }) => {
    const z = sizes.get(row.key);
    return z !== undefined && row.size === z.first && z.second > 0 && row.size > 1.2 * z.second;
  };
  // A running head that names the part it stands over ("REFERENCES 8:11", a chapter's name) recurs
  // on a few pages only, too few to count; its page number tells it: the same row, in the band,
  // on a page one or two away (heads alternate between left and right pages), with other numbers.
  // A row that prints a DOI is such a head only with the same DOI as the other page's (the
  // article's own): a reference list broken over pages may open each page on the last line of an
  // entry, its DOI ("DOI: 10.1021/ja01315a105", then "DOI: 10.1021/ja00315a051" a page on), rows
  // that read alike once their digits are masked.
  const nearbyWithOtherNumber = (i: number, row: { key: string; digits: string; doi: string | null }) =>
    row.key.includes('#') &&
    [i - 2, i - 1, i + 1, i + 2].some((j) =>
      (perPage[j] ?? []).some(
        (r) => r.inBand && r.key === row.key && r.digits !== row.digits && r.doi === row.doi,
      ),
    );
  // A head that names a part of a long document (a class's "APPENDICES" over the appendices and
  // the list set among them) recurs on that part's pages only, too few to count, with no page
  // number beside it: it is the top row of each of at least three pages in a row.
  const topKey = perPage.map((rows, i) => {
    const inBand = rows.filter((r) => r.inBand && r.items.some((it) => it.y > pages[i]!.height / 2));
    const top = inBand.sort(
      (a, b) => Math.max(...b.items.map((it) => it.y)) - Math.max(...a.items.map((it) => it.y)),
    )[0];
    return top?.key ?? null;
  });
  // The run of pages in a row whose top rows read alike, each page's from its first to its last.
  const runStart = topKey.map(() => 0);
  topKey.forEach((k, i) => (runStart[i] = i > 0 && k !== null && topKey[i - 1] === k ? runStart[i - 1]! : i));
  const runEnd = topKey.map(() => 0);
  for (let i = topKey.length - 1; i >= 0; i--)
    runEnd[i] =
      i < topKey.length - 1 && topKey[i] !== null && topKey[i + 1] === topKey[i] ? runEnd[i + 1]! : i;
  const headOfRun = (i: number, key: string) => topKey[i] === key && runEnd[i]! - runStart[i]! >= 2;
  // Front matter numbered in lower-case roman numerals ("iv" over a thesis's abstract, "v" over its
  // contents): a numeral alone in the band is its page's number where another page's band has one
  // too. Left in, it read as a line of the text (a word in lower case that kept the abstract's last
  // sentence open over the next page's heading).
  const romanOnly = (row: { key: string; inBand: boolean }) => row.inBand && ROMAN_PAGE_NUMBER.test(row.key);
  const romanPages = perPage.filter((rows) => rows.some(romanOnly)).length;
  let dropped = 0;
  pages.forEach((p, i) => {
    const drop = new Set<Item>();
    for (const row of perPage[i] ?? []) {
      const pageNumber = /^(page)?#(of#)?$|^#\/#$|^-#-$/.test(row.key) || (romanPages >= 2 && romanOnly(row));
      const recurs =
        row.mayRecur &&
        pages.length >= 3 &&
        ((counts.get(row.key) ?? 0) >= minRepeats ||
          (row.inBand && nearbyWithOtherNumber(i, row)) ||
          (row.inBand && headOfRun(i, row.key))) &&
        !headOfTitle(row);
      if (row.key && (pageNumber || recurs) && !raisedOnText(p.items, row.items)) {
        for (const it of row.items) drop.add(it);
      }
    }
    if (drop.size) {
      dropped += drop.size;
      p.items = p.items.filter((it) => !drop.has(it));
    }
  });
  return dropped;
}

/**
 * Numbers in the text's own size whose steps vary with the lines' heights (Typst numbers every
 * line, headings and double-spaced paragraphs alike): they rise by one from each to the next and
 * stand left of the text, each on the baseline of a text line, and few text lines between the
 * first and the last go without one (a table's rows, an equation's parts). A numbered list's
 * entries run over lines of their own.
 */
function numbersEveryLine(cluster: Item[], items: Item[]): boolean {
  if (cluster.length < 8) return false;
  const byY = [...cluster].sort((a, b) => b.y - a.y);
  for (let i = 1; i < byY.length; i++) if (Number(byY[i]!.str) - Number(byY[i - 1]!.str) !== 1) return false;
  const right = Math.max(...cluster.map((it) => it.x + it.w));
  const top = byY[0]!.y;
  const bottom = byY[byY.length - 1]!.y;
  const tolerance = (it: Item) => 0.3 * it.size;
  // The baselines are also kept in order of height, where the one nearest an item is beside it:
  // comparing each item with every baseline cost in the square of a page of numbered lines.
  const inCluster = new Set(cluster);
  const baselines: number[] = [];
  const ascending: number[] = [];
  for (const it of items) {
    if (inCluster.has(it) || it.x < right || it.y > top + 1 || it.y < bottom - 1) continue;
    if (Number.isNaN(it.y)) {
      baselines.push(it.y);
      continue;
    }
    const at = countBelow(ascending, it.y);
    const near = (y: number | undefined) => y !== undefined && Math.abs(y - it.y) <= tolerance(it);
    if (near(ascending[at]) || near(ascending[at - 1])) continue;
    baselines.push(it.y);
    ascending.splice(at, 0, it.y);
  }
  // Each baseline against the numbers near its height only: within the widest tolerance of any.
  const numbers = cluster.filter((n) => !Number.isNaN(n.y)).sort((a, b) => a.y - b.y);
  const heights = numbers.map((n) => n.y);
  const reach = Math.max(...numbers.map(tolerance)) * (1 + 1e-9) + 1e-9;
  const numbered = baselines.filter((y) => {
    for (let i = countBelow(heights, y - reach); i < numbers.length && heights[i]! <= y + reach; i++)
      if (Math.abs(numbers[i]!.y - y) <= tolerance(numbers[i]!)) return true;
    return false;
  });
  return numbered.length >= 0.9 * cluster.length && numbered.length >= 0.7 * baselines.length;
}

/**
 * The wavy underline a marked-up copy draws under added text (latexdiff's default markup, ulem's
 * \uwave): a row of a small font's colon-shaped glyph, which the text layer gives as pieces of
 * colons alone (":::::::") set in smaller type just under the baseline of the word they underline.
 * Dropped, or they run into the words ("agent::::::::agent-to-agent"). A colon in the text is set
 * in the text's own type, on its baseline. Returns how many pieces were dropped.
 */
export function dropWavyUnderlines(pages: { items: Item[] }[]): number {
  let dropped = 0;
  for (const page of pages) {
    const marks = page.items.filter((it) => /^:+$/.test(it.str.trim()));
    if (!marks.length) continue;
    const under = new Set(
      marks.filter((m) =>
        page.items.some(
          (w) =>
            w !== m &&
            w.size >= 1.25 * m.size &&
            w.y > m.y &&
            w.y - m.y < w.size &&
            w.x < m.x + m.w &&
            m.x < w.x + w.w &&
            /\p{L}/u.test(w.str),
        ),
      ),
    );
    if (!under.size) continue;
    page.items = page.items.filter((it) => !under.has(it));
    dropped += under.size;
  }
  return dropped;
}

/**
 * Drops margin line numbers (preprints and review copies: lineno, papaja, acmart review): a column
 * of bare numbers at one right edge whose values rise by one step per printed line, so that the
 * vertical distance per increment is the same all down the page. A numbered reference list also
 * rises, but its entries take a varying number of lines, so its step is not constant.
 */
export function dropLineNumbers(pages: { items: Item[] }[]): number {
  const edgeOf = (it: Item) => it.x + it.w;
  const clustersOf = (items: Item[]): Item[][] => {
    const numbers = items
      .filter((it) => /^\d{1,4}$/.test(it.str.trim()))
      .sort((a, b) => edgeOf(a) - edgeOf(b));
    const clusters: Item[][] = [];
    for (const it of numbers) {
      const last = clusters[clusters.length - 1];
      if (last && edgeOf(it) - edgeOf(last[last.length - 1]!) <= 3) last.push(it);
      else clusters.push([it]);
    }
    return clusters;
  };
  const isLineNumbering = (cluster: Item[], textSize: number, items: Item[]): boolean => {
    if (cluster.length < 5) return false;
    if (numbersEveryLine(cluster, items)) return true;
    const byY = [...cluster].sort((a, b) => b.y - a.y);
    const steps: number[] = [];
    let ones = 0;
    for (let i = 1; i < byY.length; i++) {
      const rise = Number(byY[i]!.str) - Number(byY[i - 1]!.str);
      if (rise === 1) ones++;
      steps.push(rise >= 1 && rise <= 10 ? (byY[i - 1]!.y - byY[i]!.y) / rise : NaN);
    }
    const valid = steps.filter((s) => !Number.isNaN(s));
    const pitch = median(valid);
    const size = median(cluster.map((it) => it.size));
    // Small numbers beside double-spaced text (papaja) step by four times their own size.
    if (pitch < 0.8 * size || pitch > 5 * size) return false;
    if (steps.filter((s) => Math.abs(s - pitch) <= 0.15 * pitch).length >= 0.8 * steps.length) return true;
    // Numbers in type much smaller than the text, one per line, where paragraph spacing makes the
    // step uneven (a JOSS draft's reference list): every step rises by one, and none is more than
    // a blank line's worth longer than the shortest. A numbered list sets its numbers in the
    // text's own size.
    const shortest = Math.min(...valid);
    return (
      size <= 0.7 * textSize &&
      cluster.length >= 8 &&
      ones >= 0.9 * steps.length &&
      valid.every((s) => s <= 2.5 * shortest)
    );
  };
  const perPage = pages.map((p) => clustersOf(p.items));
  const textSizes = pages.map((p) =>
    median(p.items.filter((it) => !/^\d{1,4}$/.test(it.str.trim())).map((it) => it.size)),
  );
  // A column's two edges: numbers left of the text align on their right edge, numbers right of it
  // (Word's numbering in the right margin) on their left edge, so 9 and 10 share only that one.
  const edges = perPage.flatMap((clusters, i) =>
    clusters
      .filter((c) => isLineNumbering(c, textSizes[i]!, pages[i]!.items))
      .map((c) => ({ left: median(c.map((it) => it.x)), right: median(c.map(edgeOf)) })),
  );
  let dropped = 0;
  pages.forEach((p, i) => {
    const drop = new Set<Item>();
    const text = p.items.filter((it) => !/^\d{1,4}$/.test(it.str.trim()));
    const textLeft = Math.min(...text.map((it) => it.x));
    const textRight = Math.max(...text.map(edgeOf));
    for (const cluster of perPage[i] ?? []) {
      if (isLineNumbering(cluster, textSizes[i]!, p.items)) {
        for (const it of cluster) drop.add(it);
        continue;
      }
      // A page with few lines (a title page) numbers too few to tell: its numbers count when they
      // stand at an edge numbered on other pages, outside the page's text.
      for (const it of cluster) {
        const leftOfText = edgeOf(it) <= textLeft + 1;
        const rightOfText = it.x >= textRight - 1;
        const atEdge = edges.some((e) =>
          rightOfText ? Math.abs(it.x - e.left) <= 3 : Math.abs(edgeOf(it) - e.right) <= 3,
        );
        if (atEdge && (leftOfText || rightOfText)) drop.add(it);
      }
    }
    if (drop.size) {
      dropped += drop.size;
      p.items = p.items.filter((it) => !drop.has(it));
    }
  });
  return dropped;
}

export { median };
