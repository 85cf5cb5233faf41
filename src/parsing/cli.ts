// `refmatch parse FILE`: the parse result as JSON on stdout. It needs no database, so it runs
// here directly instead of through the command registry; it parses in the same worker pool as the
// server, so the same limits (pages, characters, zip size, wall time) hold.
import { readFile, stat } from 'node:fs/promises';
import type { Command as Program } from 'commander';
import type { Config } from '../infra/config.ts';

export function registerParsingCli(program: Program, getConfig: () => Config): void {
  program
    .command('parse')
    .description('Parse a manuscript (PDF or DOCX) and print title, authors, references and text as JSON')
    .argument('<file>', 'path to a PDF or DOCX file')
    .option('--no-text', 'leave the full text and sections out of the output')
    .action(async (file: string, options: { text: boolean }) => {
      const config = getConfig();
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
        const output = options.text ? result : { ...result, text: undefined, sections: undefined };
        process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
        if (result.error) {
          process.stderr.write(`${JSON.stringify({ error: result.error })}\n`);
          process.exitCode = 1;
        }
      } finally {
        await pool.close();
      }
    });
}
