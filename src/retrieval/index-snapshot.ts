// The search index persisted: one file holding the index's typed arrays as they lie in memory, so a
// restart reads them back (I/O and a checksum) instead of analysing every work again (~57 µs of CPU
// a work: a minute at a million). The file records the database it was made from and the cursors
// into that database's change logs it reflects (db-work-index.ts catches up from them), the format
// and analysis it was made with, and a CRC-32 of every array; a file that fails any check is
// refused, never served.
//
// Layout: a 32-byte prefix, the arrays (each 8-aligned, in native byte order), then a JSON header
// describing them. The prefix is written last and the file renamed into place only once complete
// and synced, so a reader sees a whole snapshot or the previous one.
//   prefix: magic "RMWIDXSN" (8) | format version u32 | header length u32 | header offset f64 |
//           header CRC-32 u32 | reserved u32
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { analyzerFingerprint } from './analyzer.ts';
import { scalarsOf, type IndexOptions, type IndexScalars, type IndexState } from './bm25-index.ts';
import type { Segment } from './segment.ts';

/** Raised whenever the layout or the meaning of an array changes (2: title document frequencies). */
export const SNAPSHOT_FORMAT_VERSION = 2;
export const SNAPSHOT_FILE = 'work-index.snapshot';
const MAGIC = 'RMWIDXSN';
const PREFIX_BYTES = 32;
// Checksums are taken in pieces so that writing in the background never holds the event loop long.
const CRC_PIECE = 8 * 2 ** 20;
const READ_CONCURRENCY = 3;
// A temporary file this old belongs to a writer that died (a write takes seconds).
const ABANDONED_TEMP_MS = 60 * 60_000;

/** Where in the database's change logs a snapshot stands, and which database that is. */
export interface SnapshotCursor {
  /** database_identity.id (src/infra/db/identity.ts). */
  databaseId: string;
  /** Highest works.change_seq the index reflects. */
  changeSeq: number;
  /** Highest work_deletions.seq the index reflects. */
  deletionSeq: number;
}

type ArrayKind = 'i32' | 'u8' | 'f32' | 'f64' | 'i16';
type AnyTypedArray = Int32Array | Uint8Array | Float32Array | Float64Array | Int16Array;
const KINDS = {
  i32: Int32Array,
  u8: Uint8Array,
  f32: Float32Array,
  f64: Float64Array,
  i16: Int16Array,
} as const;

interface ArrayEntry {
  name: string;
  kind: ArrayKind;
  length: number;
  offset: number;
  crc: number;
}

export interface SnapshotHeader extends SnapshotCursor {
  formatVersion: number;
  littleEndian: boolean;
  analyzer: string;
  options: IndexOptions;
  writtenAt: string;
  works: number;
  unigramCount: number;
  scalars: IndexScalars;
  segments: Array<{ firstSlot: number; lastSlot: number; dead: number; stored: number }>;
  arrays: ArrayEntry[];
}

/** Why a snapshot was not used. */
export type SnapshotRejection = 'missing' | 'truncated' | 'corrupt' | 'incompatible' | 'stale';

export type SnapshotRead =
  | { ok: true; header: SnapshotHeader; state: IndexState; bytes: number }
  | { ok: false; reason: SnapshotRejection; detail: string };

const LITTLE_ENDIAN = os.endianness() === 'LE';
const SEGMENT_ARRAYS = [
  'termIds',
  'offsets',
  'slots',
  'tfs',
  'impacts',
  'forward',
  'forwardOffsets',
  'titles',
] as const;

function kindOf(array: AnyTypedArray): ArrayKind {
  if (array instanceof Int32Array) return 'i32';
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Float32Array) return 'f32';
  if (array instanceof Float64Array) return 'f64';
  return 'i16';
}

function bytesOf(array: AnyTypedArray): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

function crcOf(bytes: Uint8Array): number {
  let crc = 0;
  for (let at = 0; at < bytes.length; at += CRC_PIECE) crc = crc32(bytes.subarray(at, at + CRC_PIECE), crc);
  return crc;
}

function viewOf(kind: ArrayKind, buffer: SharedArrayBuffer, length: number): AnyTypedArray {
  const Kind = KINDS[kind] as unknown as new (b: ArrayBufferLike, at: number, n: number) => AnyTypedArray;
  return new Kind(buffer, 0, length);
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** The state's arrays under their names, in file order. */
function namedArrays(state: IndexState, unigrams: Uint8Array): Array<[string, AnyTypedArray]> {
  const arrays: Array<[string, AnyTypedArray]> = [
    ['unigrams', unigrams],
    ['termLeft', state.termLeft],
    ['termRight', state.termRight],
    ['dfs', state.dfs],
    ['titleDfs', state.titleDfs],
    ['termBound', state.termBound],
    ['slotWork', state.slotWork],
    ['slotState', state.slotState],
    ['slotLength', state.slotLength],
    ['slotNorm', state.slotNorm],
    ['slotYear', state.slotYear],
    ['slotSeq', state.slotSeq],
  ];
  state.segments.forEach((segment, i) => {
    for (const name of SEGMENT_ARRAYS) arrays.push([`segments.${i}.${name}`, segment[name]]);
  });
  return arrays;
}

async function writeFully(fh: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await fh.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

async function readFully(fh: FileHandle, into: Uint8Array, position: number): Promise<number> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await fh.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

export interface WriteOptions {
  /** Checked between arrays: true abandons the write (the process is closing). */
  shouldStop?: () => boolean;
}

/**
 * Writes the state to `file` atomically (a temporary file beside it, synced, then renamed). The
 * state must not change until the promise settles. Resolves to the file's size, or null when
 * `shouldStop` abandoned it.
 */
export async function writeIndexSnapshot(
  file: string,
  state: IndexState,
  cursor: SnapshotCursor,
  options: WriteOptions = {},
): Promise<number | null> {
  if (state.unigrams.some((u) => u.includes('\n'))) throw new Error('a unigram holds a line break');
  const unigrams = Buffer.from(state.unigrams.join('\n'), 'utf8');
  const arrays = namedArrays(state, unigrams);
  const entries: ArrayEntry[] = [];
  let offset = PREFIX_BYTES;
  for (const [name, array] of arrays) {
    entries.push({ name, kind: kindOf(array), length: array.length, offset, crc: 0 });
    offset = align8(offset + array.byteLength);
  }
  const headerOffset = offset;

  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fh = await open(temp, 'w', 0o600);
  let complete = false;
  try {
    for (let i = 0; i < arrays.length; i++) {
      if (options.shouldStop?.()) return null;
      const bytes = bytesOf(arrays[i]![1]);
      // The write runs on libuv's pool while the checksum is taken here.
      const writing = writeFully(fh, bytes, entries[i]!.offset);
      entries[i]!.crc = crcOf(bytes);
      await writing;
    }
    const header: SnapshotHeader = {
      ...cursor,
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      littleEndian: LITTLE_ENDIAN,
      analyzer: analyzerFingerprint(),
      options: state.options,
      writtenAt: new Date().toISOString(),
      works: state.liveWorks,
      unigramCount: state.unigrams.length,
      scalars: scalarsOf(state),
      segments: state.segments.map((s, i) => ({
        firstSlot: s.firstSlot,
        lastSlot: s.lastSlot,
        dead: state.segmentDead[i]!,
        stored: state.segmentStored[i]!,
      })),
      arrays: entries,
    };
    const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    await writeFully(fh, headerBytes, headerOffset);
    const prefix = Buffer.alloc(PREFIX_BYTES);
    prefix.write(MAGIC, 0, 'latin1');
    prefix.writeUInt32LE(SNAPSHOT_FORMAT_VERSION, 8);
    prefix.writeUInt32LE(headerBytes.length, 12);
    prefix.writeDoubleLE(headerOffset, 16);
    prefix.writeUInt32LE(crc32(headerBytes), 24);
    await writeFully(fh, prefix, 0);
    await fh.sync();
    complete = true;
    return headerOffset + headerBytes.length;
  } finally {
    await fh.close();
    if (complete) {
      await rename(temp, file);
      await syncDirectory(dir);
    } else {
      await rm(temp, { force: true });
    }
  }
}

/** Makes a rename durable; not every platform lets a directory be opened for that. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The rename itself is atomic; only its durability across a power cut is left to the OS.
  }
}

/** Removes temporary files left by writers that died mid-write (a crash, kill -9). */
export async function removeAbandonedTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.tmp-`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const full = path.join(dir, name);
    try {
      if (Date.now() - (await stat(full)).mtimeMs > ABANDONED_TEMP_MS) await rm(full, { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}

const refuse = (reason: SnapshotRejection, detail: string): SnapshotRead => ({ ok: false, reason, detail });

function sameOptions(a: IndexOptions, b: IndexOptions): boolean {
  const keys = Object.keys(b) as Array<keyof IndexOptions>;
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Reads a snapshot written for an index with `options`. After the header is read and found
 * compatible, `check` may refuse it (it answers for the database: its identity and cursors) before
 * the arrays are read. Every array's checksum is verified before the state is returned.
 */
export async function readIndexSnapshot(
  file: string,
  options: IndexOptions,
  check: (header: SnapshotHeader) => Promise<{ reason: SnapshotRejection; detail: string } | null>,
): Promise<SnapshotRead> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', `no snapshot at ${file}`);
    // Not readable (permissions, I/O): the index is built from the database; the write will say more.
    return refuse('corrupt', `unreadable: ${(error as Error).message}`);
  }
  let checkFailed = false;
  try {
    const size = (await fh.stat()).size;
    const prefix = Buffer.alloc(PREFIX_BYTES);
    if ((await readFully(fh, prefix, 0)) < PREFIX_BYTES) return refuse('truncated', `${size} bytes`);
    if (prefix.toString('latin1', 0, 8) !== MAGIC) return refuse('corrupt', 'not a snapshot (magic)');
    const version = prefix.readUInt32LE(8);
    if (version !== SNAPSHOT_FORMAT_VERSION)
      return refuse('incompatible', `format version ${version}, this build reads ${SNAPSHOT_FORMAT_VERSION}`);
    const headerLength = prefix.readUInt32LE(12);
    const headerOffset = prefix.readDoubleLE(16);
    if (!Number.isSafeInteger(headerOffset) || headerOffset < PREFIX_BYTES)
      return refuse('corrupt', 'header offset');
    if (headerOffset + headerLength > size)
      return refuse('truncated', `${size} bytes, the header ends at ${headerOffset + headerLength}`);
    if (headerOffset + headerLength < size) return refuse('corrupt', `${size} bytes, more than written`);
    const headerBytes = Buffer.alloc(headerLength);
    await readFully(fh, headerBytes, headerOffset);
    if (crc32(headerBytes) !== prefix.readUInt32LE(24)) return refuse('corrupt', 'header checksum');
    let header: SnapshotHeader;
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as SnapshotHeader;
    } catch {
      return refuse('corrupt', 'header is not JSON');
    }
    if (header.littleEndian !== LITTLE_ENDIAN)
      return refuse('incompatible', 'written with another byte order');
    if (header.analyzer !== analyzerFingerprint())
      return refuse('incompatible', `analyzer ${header.analyzer}, this build's is ${analyzerFingerprint()}`);
    if (!sameOptions(header.options, options))
      return refuse(
        'incompatible',
        `index options ${JSON.stringify(header.options)}, this index's are ${JSON.stringify(options)}`,
      );
    let refused: Awaited<ReturnType<typeof check>>;
    try {
      refused = await check(header);
    } catch (error) {
      // The database's answer failed, not the file: the caller retries the start.
      checkFailed = true;
      throw error;
    }
    if (refused) return refuse(refused.reason, refused.detail);

    for (const entry of header.arrays) {
      const Kind = KINDS[entry.kind];
      if (!Kind || !Number.isSafeInteger(entry.length) || entry.length < 0)
        return refuse('corrupt', `array ${entry.name}`);
      if (entry.offset < PREFIX_BYTES || entry.offset + entry.length * Kind.BYTES_PER_ELEMENT > headerOffset)
        return refuse('corrupt', `array ${entry.name} lies outside the file`);
    }
    // Each array is read into its own SharedArrayBuffer (a search worker reads them without a
    // copy). A few reads run at once on libuv's pool (the kernel's copy into fresh pages is most of
    // a read from the page cache, and it spreads over the cores), each checksum taken here as its
    // read completes.
    const arrays = new Map<string, AnyTypedArray>();
    // Held in an object: the readers set it, and the check after them must not be narrowed away.
    const outcome: { failure: { reason: SnapshotRejection; detail: string } | null } = { failure: null };
    let next = 0;
    const reader = async () => {
      while (outcome.failure === null && next < header.arrays.length) {
        const entry = header.arrays[next++]!;
        const byteLength = entry.length * KINDS[entry.kind].BYTES_PER_ELEMENT;
        const buffer = new SharedArrayBuffer(Math.max(1, byteLength));
        const bytes = new Uint8Array(buffer, 0, byteLength);
        if ((await readFully(fh, bytes, entry.offset)) < byteLength)
          outcome.failure ??= { reason: 'truncated', detail: `array ${entry.name}` };
        else if (crcOf(bytes) !== entry.crc)
          outcome.failure ??= { reason: 'corrupt', detail: `checksum of ${entry.name}` };
        else arrays.set(entry.name, viewOf(entry.kind, buffer, entry.length));
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, reader));
    if (outcome.failure) return refuse(outcome.failure.reason, outcome.failure.detail);
    const state = stateOf(header, arrays, options);
    return state ? { ok: true, header, state, bytes: size } : refuse('corrupt', 'arrays do not fit together');
  } catch (error) {
    if (checkFailed) throw error;
    // A file that cannot be read (an I/O error, a header of the wrong shape) is as good as corrupt.
    return refuse('corrupt', `unreadable: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await fh.close();
  }
}

/** The state from the arrays read, or null when they do not form one (a file written wrongly). */
function stateOf(
  header: SnapshotHeader,
  arrays: Map<string, AnyTypedArray>,
  options: IndexOptions,
): IndexState | null {
  function get<K extends ArrayKind>(name: string, kind: K): InstanceType<(typeof KINDS)[K]> {
    const array = arrays.get(name);
    if (!array || kindOf(array) !== kind) throw new SnapshotShapeError(name);
    return array as InstanceType<(typeof KINDS)[K]>;
  }
  try {
    const unigramText = Buffer.from(get('unigrams', 'u8')).toString('utf8');
    const unigrams = header.unigramCount === 0 ? [] : unigramText.split('\n');
    if (unigrams.length !== header.unigramCount) return null;
    const termLeft = get('termLeft', 'i32');
    const slotWork = get('slotWork', 'i32');
    const terms = termLeft.length;
    const slots = slotWork.length;
    const state: IndexState = {
      options: { ...options },
      unigrams,
      termLeft,
      termRight: get('termRight', 'i32'),
      dfs: get('dfs', 'i32'),
      titleDfs: get('titleDfs', 'i32'),
      termBound: get('termBound', 'f32'),
      slotWork,
      slotState: get('slotState', 'u8'),
      slotLength: get('slotLength', 'f32'),
      slotNorm: get('slotNorm', 'f32'),
      slotYear: get('slotYear', 'i16'),
      slotSeq: get('slotSeq', 'f64'),
      segments: header.segments.map((s, i): Segment => {
        const at = (name: string) => `segments.${i}.${name}`;
        return {
          termIds: get(at('termIds'), 'i32'),
          offsets: get(at('offsets'), 'i32'),
          slots: get(at('slots'), 'i32'),
          tfs: get(at('tfs'), 'u8'),
          impacts: get(at('impacts'), 'u8'),
          forward: get(at('forward'), 'i32'),
          forwardOffsets: get(at('forwardOffsets'), 'i32'),
          titles: get(at('titles'), 'u8'),
          firstSlot: s.firstSlot,
          lastSlot: s.lastSlot,
        };
      }),
      segmentDead: header.segments.map((s) => s.dead),
      segmentStored: header.segments.map((s) => s.stored),
      ...header.scalars,
    };
    const termArrays = [state.termRight, state.dfs, state.titleDfs, state.termBound];
    const slotArrays = [state.slotState, state.slotLength, state.slotNorm, state.slotYear, state.slotSeq];
    if (termArrays.some((a) => a.length !== terms) || slotArrays.some((a) => a.length !== slots)) return null;
    if (state.segments.some((s) => s.lastSlot >= slots || s.titles.length !== (s.slots.length + 7) >> 3))
      return null;
    return state;
  } catch (error) {
    if (error instanceof SnapshotShapeError) return null;
    throw error;
  }
}

class SnapshotShapeError extends Error {}
