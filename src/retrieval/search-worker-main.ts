// The search worker: scores queries over the index's shared arrays (postings, norms, states), so a
// search at a million works does not hold the main thread's event loop. The main thread analyses
// the query (cheap) and sends term ids and weights; the worker sends back the top works.
import { parentPort } from 'node:worker_threads';
import { Scorer, type ScoredQuery, type ScorerTuning, type ScoringSource, type SearchHit } from './search.ts';
import type { Segment } from './segment.ts';

export interface WorkerState {
  type: 'state';
  segments: Segment[];
  slotCount: number;
  docCount: number;
  norms: Float32Array;
  states: Uint8Array;
  slotWork: Int32Array;
  years: Int16Array;
  bounds: Float32Array;
}

export interface WorkerSearch {
  type: 'search';
  id: number;
  query: ScoredQuery;
  k: number;
  tuning: Partial<ScorerTuning>;
}

export interface WorkerReply {
  id: number;
  hits?: SearchHit[];
  error?: string;
}

class View implements ScoringSource {
  constructor(private readonly state: WorkerState) {}
  get segments() {
    return this.state.segments;
  }
  get slotCount() {
    return this.state.slotCount;
  }
  get docCount() {
    return this.state.docCount;
  }
  internals() {
    const { norms, states, slotWork, years, bounds } = this.state;
    return { norms, states, slotWork, years, bounds };
  }
}

let scorer: Scorer | null = null;
const port = parentPort!;
port.on('message', (message: WorkerState | WorkerSearch) => {
  if (message.type === 'state') {
    scorer = new Scorer(new View(message));
    return;
  }
  const reply: WorkerReply = { id: message.id };
  try {
    reply.hits = scorer ? scorer.search(message.query, message.k, undefined, message.tuning) : [];
  } catch (error) {
    reply.error = error instanceof Error ? error.message : String(error);
  }
  port.postMessage(reply);
});
