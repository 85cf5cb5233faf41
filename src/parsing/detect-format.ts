// The format is decided by the bytes: a name or a MIME type says what the sender believed, not what
// the file is.
import type { ManuscriptFormat } from './types.ts';

export type DetectedFormat = ManuscriptFormat | 'zip' | 'ole' | 'unknown';

function startsWith(bytes: Uint8Array, sig: number[], at = 0): boolean {
  return sig.every((b, i) => bytes[at + i] === b);
}

export function detectFormat(bytes: Uint8Array): DetectedFormat {
  // The PDF header may be preceded by junk; readers accept it within the first kilobyte.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return 'zip';
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  return 'unknown';
}
