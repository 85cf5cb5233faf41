// The loopback admin channel. A server on the embedded database owns its data directory, so a CLI
// started beside it cannot open it; instead the server listens on 127.0.0.1 (a random port) and
// executes CLI commands for the CLI. The port and a random token are written to admin.json (mode
// 0600) in the data directory; only a process that can read that file can send commands.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext, ProgressEvent, ServerHooks } from '../infra/cli/command.ts';
import { findCommand } from './registry.ts';
import { AppError, toAppError } from '../infra/errors.ts';
import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/index.ts';

export interface AdminEndpoint {
  port: number;
  token: string;
  pid: number;
}

export function adminFile(dataDir: string): string {
  return path.join(dataDir, 'admin.json');
}

type Line =
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'result'; value: unknown }
  | { type: 'error'; code: string; message: string };

export async function startAdminChannel(
  config: Config,
  db: Database,
  hooks: ServerHooks,
): Promise<{ close(): Promise<void> }> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(token);
  const server: Server = createServer((req, res) => {
    const given = Buffer.from(String(req.headers['x-admin-token'] ?? ''));
    if (req.method !== 'POST' || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(403).end();
      return;
    }
    let name: string;
    try {
      name = decodeURIComponent((req.url ?? '').replace(/^\/commands\//, ''));
    } catch {
      // A malformed escape must not throw inside the listener: that would take the server down.
      res.writeHead(400).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const send = (line: Line) => res.write(`${JSON.stringify(line)}\n`);
      void (async () => {
        try {
          const command = findCommand(name);
          if (!command) throw new AppError(400, 'unknown_command', `Unknown command: ${name}`);
          const args = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
          const ctx: CommandContext = {
            config,
            db,
            server: hooks,
            progress: (event) => send({ type: 'progress', event }),
          };
          const value = await command.run(ctx, args);
          hooks.invalidateAuth();
          for (const after of hooks.afterCommand) await after(name);
          send({ type: 'result', value });
        } catch (error) {
          const appError = error instanceof AppError ? error : toAppError(error);
          send({
            type: 'error',
            code: appError.code,
            message: error instanceof AppError ? error.message : appError.message,
          });
        } finally {
          res.end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const file = adminFile(config.dataDir);
  const endpoint: AdminEndpoint = { port, token, pid: process.pid };
  await writeFile(file, JSON.stringify(endpoint), { mode: 0o600 });
  let closed = false;
  return {
    async close() {
      if (closed) return;
      closed = true;
      await rm(file, { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function readAdminEndpoint(dataDir: string): Promise<AdminEndpoint | null> {
  try {
    return JSON.parse(await readFile(adminFile(dataDir), 'utf8')) as AdminEndpoint;
  } catch {
    return null;
  }
}

export class AdminChannelUnavailable extends Error {
  override name = 'AdminChannelUnavailable';
}

export class RemoteCommandError extends Error {
  override name = 'RemoteCommandError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Sends a command to the serving process; rejects with AdminChannelUnavailable if none answers. */
export function sendCommand(
  endpoint: AdminEndpoint,
  name: string,
  args: unknown,
  onProgress: (event: ProgressEvent) => void,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        method: 'POST',
        path: `/commands/${encodeURIComponent(name)}`,
        headers: { 'x-admin-token': endpoint.token, 'content-type': 'application/json' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new AdminChannelUnavailable(`admin channel answered ${res.statusCode}`));
          return;
        }
        let buffer = '';
        let settled = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let newline: number;
          while (!settled && (newline = buffer.indexOf('\n')) >= 0) {
            const text = buffer.slice(0, newline);
            buffer = buffer.slice(newline + 1);
            // A line that is no command's (another program on the port, a server of another
            // version) fails the call: thrown here, in a stream's handler, it took the CLI down
            // with a stack trace.
            let line: Line;
            try {
              line = JSON.parse(text) as Line;
            } catch {
              settled = true;
              reject(new Error("The admin channel answered with a line that is not a command's"));
              res.destroy();
              return;
            }
            if (line.type === 'progress') onProgress(line.event);
            else if (line.type === 'result') {
              settled = true;
              resolve(line.value);
            } else {
              settled = true;
              reject(new RemoteCommandError(line.code, line.message));
            }
          }
        });
        // 'close', not 'end': a server that stops in the middle of a command (killed, or shut down)
        // cuts the answer off, which ends no stream; waiting for 'end' left the CLI waiting forever.
        const cutOff = () => {
          if (!settled) reject(new Error('The server closed the admin channel before answering'));
        };
        res.on('error', cutOff);
        res.on('close', cutOff);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ECONNREFUSED' ? new AdminChannelUnavailable(error.message) : error);
    });
    req.end(JSON.stringify(args));
  });
}
