// Reads the few parts of a DOCX we need. The central directory is read first and the declared
// uncompressed sizes summed, so a zip bomb is refused before a single byte is inflated; yauzl then
// checks while inflating that no entry grows past what it declared.
import yauzl, { type Entry, type ZipFile } from 'yauzl';

export class ZipLimitError extends Error {
  override name = 'ZipLimitError';
}

export interface ZipParts {
  entries: string[];
  totalUncompressed: number;
  read(name: string): Promise<string | null>;
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

function inflate(zip: ZipFile, entry: Entry, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error('cannot read entry'));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          stream.destroy(new ZipLimitError(`${entry.fileName} inflates past ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

export async function openDocxParts(bytes: Uint8Array, maxUncompressed: number): Promise<ZipParts> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const zip = await openZip(buffer);
  const entries = await listEntries(zip);
  const totalUncompressed = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (totalUncompressed > maxUncompressed) {
    zip.close();
    throw new ZipLimitError(
      `the archive declares ${totalUncompressed} bytes uncompressed, over the ${maxUncompressed} byte limit`,
    );
  }
  const byName = new Map(entries.map((e) => [e.fileName, e]));
  return {
    entries: [...byName.keys()],
    totalUncompressed,
    async read(name) {
      const entry = byName.get(name);
      if (!entry) return null;
      const data = await inflate(zip, entry, maxUncompressed);
      return data.toString('utf8');
    },
    close: () => zip.close(),
  };
}
