// Progress of long commands: a bar (count, rate, ETA) on a terminal; plain periodic lines otherwise,
// so logs of a non-interactive run stay readable.
import cliProgress from 'cli-progress';
import type { ProgressEvent } from './command.ts';
import { terminalText } from './terminal-json.ts';

const LINE_INTERVAL_MS = 5_000;

export function progressRenderer(stream: NodeJS.WriteStream): {
  update(e: ProgressEvent): void;
  stop(): void;
} {
  let bar: cliProgress.SingleBar | null = null;
  let lastLine = 0;
  const started = Date.now();
  return {
    update(event) {
      if (stream.isTTY) {
        if (!bar) {
          const unit = terminalText(event.unit);
          bar = new cliProgress.SingleBar(
            {
              stream,
              format: event.total
                ? `{bar} {percentage}% | {value}/{total} ${unit} | {speed} ${unit}/s | ETA {eta_formatted}`
                : `{value} ${unit} | {speed} ${unit}/s`,
              etaBuffer: 50,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(event.total ?? 0, 0, { speed: 0 });
        }
        if (event.total !== null) bar.setTotal(event.total);
        const seconds = Math.max((Date.now() - started) / 1000, 0.001);
        bar.update(event.done, { speed: Math.round(event.done / seconds) });
        return;
      }
      const now = Date.now();
      if (now - lastLine < LINE_INTERVAL_MS && event.total !== event.done) return;
      lastLine = now;
      const seconds = Math.max((now - started) / 1000, 0.001);
      const rate = Math.round(event.done / seconds);
      const of = event.total !== null ? `/${event.total}` : '';
      // The message is often a file's path as the file system gives it: a name may hold ESC or a line break.
      const unit = terminalText(event.unit);
      const message = event.message ? ` ${terminalText(event.message)}` : '';
      stream.write(`${event.done}${of} ${unit} (${rate} ${unit}/s)${message}\n`);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
