// The parser run in the request's own thread. Stands in until the parsing capability's worker pool
// (ctx.parser) is available; it is the same parser, without the pool's isolation and wall-time limit.
import type { Config } from '../infra/config.ts';
import { parseManuscript } from '../parsing/parse-manuscript.ts';
import type { ManuscriptParser } from './parsed-document.ts';

export function inProcessParser(config: Config): ManuscriptParser {
  return {
    // A copy as a plain Uint8Array: pdf.js refuses Node Buffers and may detach what it is given.
    parse: (bytes, fileName) =>
      parseManuscript(new Uint8Array(bytes), fileName, config.parsing, {
        maxFileBytes: config.fileLimitBytes,
      }),
  };
}
