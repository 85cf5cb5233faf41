// Reads the few parts of a DOCX we need. The central directory is read first and the declared
// uncompressed sizes summed, so a zip bomb that declares its size is refused before a single byte is
// inflated. The parts we read are then inflated chunk by chunk into their reader, never held whole:
// every inflated byte is counted against a limit per part and one per file, and inflating stops the
// moment either is passed (or the reader has what it needs), whatever the headers declared.
import { StringDecoder } from 'node:string_decoder';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

export class ZipLimitError extends Error {
  override name = 'ZipLimitError';
}

export interface ZipLimits {
  /** Largest sum of the uncompressed sizes the archive declares for all its entries. */
  maxDeclaredBytes: number;
  /** Most bytes inflated from any one part. */
  maxPartBytes: number;
  /** Most bytes inflated from all the parts read from this file together. */
  maxInflatedBytes: number;
}

/** Takes a part's text chunk by chunk; answers false once it needs no more of the part. */
export type ChunkReader = (text: string) => boolean;

export interface ZipParts {
  entries: string[];
  totalUncompressed: number;
  /** Bytes inflated so far, all parts together. */
  readonly inflatedBytes: number;
  /** Streams a part's text into `reader`; false when the archive has no such part. */
  stream(name: string, reader: ChunkReader): Promise<boolean>;
  close(): void;
}

function openZip(buffer: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) reject(err ?? new Error('cannot open zip'));
      else resolve(zip);
    });
  });
}

/**
 * Most entries a DOCX may list: a real one has tens (its XML parts, media, fonts), a few hundred
 * with many images. 300,000 empty entries (28 MB) took the whole parse time limit just to list.
 */
export const MAX_ZIP_ENTRIES = 10_000;

function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

export async function openDocxParts(bytes: Uint8Array, limits: ZipLimits): Promise<ZipParts> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const zip = await openZip(buffer);
  // The count is the central directory's own, read before any entry is.
  if (zip.entryCount > MAX_ZIP_ENTRIES) {
    zip.close();
    throw new ZipLimitError(`the archive lists ${zip.entryCount} entries, over the ${MAX_ZIP_ENTRIES} limit`);
  }
  const entries = await listEntries(zip);
  const totalUncompressed = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (totalUncompressed > limits.maxDeclaredBytes) {
    zip.close();
    throw new ZipLimitError(
      `the archive declares ${totalUncompressed} bytes uncompressed, over the ${limits.maxDeclaredBytes} byte limit`,
    );
  }
  const byName = new Map(entries.map((e) => [e.fileName, e]));
  let inflated = 0;

  const stream = (entry: Entry, reader: ChunkReader): Promise<void> =>
    new Promise((resolve, reject) => {
      zip.openReadStream(entry, (err, input) => {
        if (err || !input) return reject(err ?? new Error('cannot read entry'));
        const decoder = new StringDecoder('utf8');
        let partBytes = 0;
        let done = false;
        const finish = (error: Error | null) => {
          if (done) return;
          done = true;
          input.removeAllListeners('data');
          // Destroying the stream stops the inflater: nothing past this chunk is inflated.
          input.destroy();
          if (error) reject(error);
          else resolve();
        };
        input.on('data', (chunk: Buffer) => {
          partBytes += chunk.length;
          inflated += chunk.length;
          if (partBytes > limits.maxPartBytes) {
            return finish(
              new ZipLimitError(
                `${entry.fileName} inflates past the ${limits.maxPartBytes} byte limit of a part`,
              ),
            );
          }
          if (inflated > limits.maxInflatedBytes) {
            return finish(
              new ZipLimitError(
                `the parts read inflate past the ${limits.maxInflatedBytes} byte limit of a file (at ${entry.fileName})`,
              ),
            );
          }
          try {
            if (!reader(decoder.write(chunk))) finish(null);
          } catch (error) {
            finish(error as Error);
          }
        });
        input.on('error', (error) => finish(error));
        input.on('end', () => {
          if (done) return;
          try {
            reader(decoder.end());
            finish(null);
          } catch (error) {
            finish(error as Error);
          }
        });
      });
    });

  return {
    entries: [...byName.keys()],
    totalUncompressed,
    get inflatedBytes() {
      return inflated;
    },
    async stream(name, reader) {
      const entry = byName.get(name);
      if (!entry) return false;
      // A part that says it is too large is refused unread; one that lies is cut while inflating.
      if (entry.uncompressedSize > limits.maxPartBytes) {
        throw new ZipLimitError(
          `${name} declares ${entry.uncompressedSize} bytes uncompressed, over the ${limits.maxPartBytes} byte limit of a part`,
        );
      }
      await stream(entry, reader);
      return true;
    },
    close: () => zip.close(),
  };
}
