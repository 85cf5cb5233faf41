// Work a process takes only so much of at once (manuscript uploads, a group's export): places
// counted in all and per organization, so that one organization's work cannot take every place and
// shut the others out. One gate a kind of work, per app (app-context.ts).
import { errors } from './app-error.ts';

/** Seconds a refused request is told to wait before it tries again. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export class InFlightGate {
  private total = 0;
  private readonly byOrg = new Map<number, number>();

  /**
   * `work` names what is counted in a refusal's message ("uploads", "exports"); `onCount` is told
   * the places taken after each change (a gauge of /metrics).
   */
  constructor(
    private readonly work: string,
    private readonly limit: number,
    private readonly perOrgLimit: number,
    private readonly onCount: (inFlight: number) => void = () => {},
  ) {}

  /**
   * Takes a place of the process's, then one of the organization's, and returns what gives them
   * back. Refuses (503 `unavailable`, Retry-After) when either is full, taking none.
   */
  admit(organizationId: number): () => void {
    if (this.total >= this.limit) this.busy(`The service is handling as many ${this.work} as it can`);
    const held = this.byOrg.get(organizationId) ?? 0;
    if (held >= this.perOrgLimit) {
      this.busy(`The organization has ${held} ${this.work} in progress, the most at once`);
    }
    this.byOrg.set(organizationId, held + 1);
    this.onCount(++this.total);
    let released = false;
    return () => {
      // Given back once, however many ways the work ends (finished, failed, the client gone).
      if (released) return;
      released = true;
      this.onCount(--this.total);
      const left = (this.byOrg.get(organizationId) ?? 1) - 1;
      if (left > 0) this.byOrg.set(organizationId, left);
      else this.byOrg.delete(organizationId);
    };
  }

  /** Places taken now, in all. */
  get inFlight(): number {
    return this.total;
  }

  private busy(why: string): never {
    throw errors.busy(`${why}: try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`, BUSY_RETRY_AFTER_SECONDS);
  }
}
