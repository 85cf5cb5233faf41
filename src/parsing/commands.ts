// `refmatch parse FILE`: the parse result as JSON on stdout. It needs no database, so it runs in the
// CLI's own process instead of through the command registry's runner; it parses in the same worker
// pool as the server, so the same limits (pages, characters, zip size, wall time) hold.
import { readFile, stat } from 'node:fs/promises';
import { defineLocalCommand } from '../infra/cli/command.ts';
import { terminalJson } from '../infra/cli/terminal-json.ts';

export const parseCommand = defineLocalCommand({
  name: 'parse',
  description: 'Parse a manuscript (PDF or DOCX) and print title, authors, references and text as JSON',
  arguments: [{ syntax: '<file>', description: 'path to a PDF or DOCX file' }],
  options: [{ flags: '--no-text', description: 'leave the full text and sections out of the output' }],
  async run(config, args: { file: string; text: boolean }) {
    const { file } = args;
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      throw Object.assign(new Error(`No such file: ${file}`), { code: 'file_not_found' });
    }
    if (info.size > config.fileLimitBytes) {
      throw Object.assign(
        new Error(`The file is ${info.size} bytes, over the ${config.fileLimitBytes} byte limit`),
        {
          code: 'file_too_large',
        },
      );
    }
    const bytes = new Uint8Array(await readFile(file));
    const { ParserPool } = await import('./parser-pool.ts');
    const pool = new ParserPool({ ...config.parsing, workers: 1 }, { maxFileBytes: config.fileLimitBytes });
    try {
      const result = await pool.parse(bytes, file);
      const output = args.text ? result : { ...result, text: undefined, sections: undefined };
      process.stdout.write(`${terminalJson(output, 2)}\n`);
      if (result.error) {
        process.stderr.write(`${terminalJson({ error: result.error })}\n`);
        process.exitCode = 1;
      }
    } finally {
      await pool.close();
    }
  },
});
