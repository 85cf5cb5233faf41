// What ran on a thread during one stretch of time, from a V8 CPU profile (`node --cpu-prof`): the
// functions the samples of that stretch were in (self) and under (inclusive). Finds what held the
// event loop when a bench says when the hold ended (bench:hostile-uploads with BENCH_STALLS=1).
//
//   npx tsx bench/profile-window.ts <file.cpuprofile> <end µs> <length ms> [rows]
//
// The profile's sample times are on the clock of process.hrtime (µs), as the bench prints them.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, endArg, lengthArg, rowsArg] = process.argv.slice(2);
if (!file || !endArg || !lengthArg) {
  console.error('usage: npx tsx bench/profile-window.ts <file.cpuprofile> <end µs> <length ms> [rows]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const end = Number(endArg);
const start = end - Number(lengthArg) * 1000;
const rows = Number(rowsArg ?? 25);

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
const label = (id: number) => {
  const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
  return `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let sampled = 0;
let idle = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i]!;
  if (at < start || at > end) return;
  if (nodes.get(id)!.callFrame.functionName === '(idle)') {
    idle++;
    return;
  }
  sampled++;
  self.set(label(id), (self.get(label(id)) ?? 0) + 1);
  const under = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parentOf.get(n)) under.add(label(n));
  for (const name of under) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
});

const top = (counts: Map<string, number>) =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(
      ([name, n]) =>
        `  ${String(n).padStart(6)}  ${((100 * n) / Math.max(sampled, 1)).toFixed(0).padStart(3)}%  ${name}`,
    )
    .join('\n');
console.log(`${sampled} samples busy, ${idle} idle, in ${lengthArg} ms to ${end} µs`);
console.log(`self:\n${top(self)}`);
console.log(`inclusive:\n${top(inclusive)}`);
