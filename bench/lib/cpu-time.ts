// CPU time for the benches that compare us with a child process (pdftotext): wall times on a shared
// machine swing with the other processes' load, CPU time much less.
import { readFileSync } from 'node:fs';

/** CPU ms this process has used so far (user + system). */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU ms the reaped children have used so far: cutime + cstime of /proc/self/stat, which the kernel
 * adds each child's times to once it is reaped; in clock ticks, 10 ms each (USER_HZ 100 on Linux).
 */
export function reapedChildrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
