// Each organization's share of the parser workers. The parser pool serves files in the order they
// arrive, and a file may hold its worker for all of PARSE_TIMEOUT_MS (a 60 KB PDF of one text array
// of millions of items does): one organization's uploads in flight (UPLOADS_IN_FLIGHT_PER_ORG) of such
// files took every worker, and every other organization's upload waited behind all of them. Here an
// organization has at most `parsesPerOrganization(workers)` files in the pool at once; its others
// wait in a line of its own, which the pool's other organizations never wait behind.
import type { ManuscriptParser } from './parsed-document.ts';

/** Files one organization may have in the parser pool at once: half the workers, at least one. */
export function parsesPerOrganization(workers: number): number {
  return Math.max(1, Math.floor(workers / 2));
}

export class ParseShares {
  private readonly inPool = new Map<number, number>();
  private readonly lines = new Map<number, Array<() => void>>();
  private waiting = 0;

  constructor(
    private readonly perOrganization: number,
    /** Told how many files wait for their organization's share, each time it changes. */
    private readonly onWaiting: (waiting: number) => void = () => undefined,
  ) {}

  /** The parser as one organization's uploads use it: within that organization's share. */
  forOrganization(organizationId: number, parser: ManuscriptParser): ManuscriptParser {
    return {
      parse: async (bytes, fileName) => {
        await this.enter(organizationId);
        try {
          return await parser.parse(bytes, fileName);
        } finally {
          this.leave(organizationId);
        }
      },
    };
  }

  private async enter(organizationId: number): Promise<void> {
    const held = this.inPool.get(organizationId) ?? 0;
    if (held < this.perOrganization) {
      this.inPool.set(organizationId, held + 1);
      return;
    }
    // The place is handed over by `leave`, already counted for this file.
    await new Promise<void>((resolve) => {
      const line = this.lines.get(organizationId) ?? [];
      line.push(resolve);
      this.lines.set(organizationId, line);
      this.onWaiting(++this.waiting);
    });
  }

  private leave(organizationId: number): void {
    const line = this.lines.get(organizationId);
    const next = line?.shift();
    if (next) {
      if (line!.length === 0) this.lines.delete(organizationId);
      this.onWaiting(--this.waiting);
      next();
      return;
    }
    const held = (this.inPool.get(organizationId) ?? 1) - 1;
    if (held > 0) this.inPool.set(organizationId, held);
    else this.inPool.delete(organizationId);
  }
}
