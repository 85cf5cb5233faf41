// The data files pdf.js reads from disk, from the pdfjs-dist package pinned at the version unpdf
// bundles: the CMaps (Adobe's character collections) without which the text of a CID font that has no
// ToUnicode map (pLaTeX/dvipdfmx Japanese, many Chinese and Korean PDFs) cannot be read at all.
import { createRequire } from 'node:module';
import path from 'node:path';

let resolved: { dir: string | null } | null = null;

/**
 * The `cmaps/` directory of the pdfjs-dist installed beside `from` (this module by default), as the
 * path pdf.js in Node joins CMap names to (it ends in '/', and is a path: pdf.js reads it with
 * fs.readFile, which takes no file: URL string), or null when the package is missing.
 */
export function findCmapDir(from: string | URL = import.meta.url): string | null {
  try {
    const manifest = createRequire(from).resolve('pdfjs-dist/package.json');
    return `${path.dirname(manifest).split(path.sep).join('/')}/cmaps/`;
  } catch {
    return null;
  }
}

/**
 * The CMap directory this process reads, found once. Without it PDFs still parse, less the text of
 * fonts that need a CMap: a warning says so once (in each parser worker that finds it missing).
 */
export function cmapDir(): string | null {
  if (!resolved) {
    resolved = { dir: findCmapDir() };
    if (resolved.dir === null) {
      process.emitWarning(
        'pdfjs-dist is not installed: PDFs are parsed without CMaps, and the text of CID fonts without a ToUnicode map (much Japanese, Chinese and Korean text) is lost',
        { code: 'REFMATCH_NO_CMAPS' },
      );
    }
  }
  return resolved.dir;
}
