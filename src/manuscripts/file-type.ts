// The source file's format, decided by its bytes: a file name or a MIME type says what the sender
// believed, not what the file is.
export type SourceFormat = 'pdf' | 'docx';

const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];

/** 'pdf', 'docx', or null for anything else (including other zip packages such as .xlsx). */
export function sniffSourceFormat(bytes: Uint8Array): SourceFormat | null {
  // Readers accept junk before the PDF header within the first kilobyte; so do we.
  if (Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('%PDF-')) return 'pdf';
  if (ZIP_LOCAL_HEADER.every((b, i) => bytes[i] === b)) {
    // Entry names are stored uncompressed in the local headers and the central directory, so a
    // Word package shows its main part's name in the raw bytes without inflating anything.
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('word/document.xml')
      ? 'docx'
      : null;
  }
  return null;
}
