import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

// `--profile`: the gateway child runs with --cpu-prof; this reads the .cpuprofile it writes at exit and
// prints where its CPU time went, by function (self time) and by package.

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

function where(url: string, root: string): string {
  const path = url.replace(/^file:\/\//, '');
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (module) return module[1]!;
  if (path.startsWith(root)) return relative(root, path);
  return path === '' ? '(native)' : path.startsWith('node:') ? 'node' : path;
}

export async function summarizeProfiles(folder: string, root: string, top = 20): Promise<string> {
  const files = (await readdir(folder)).filter((file) => file.endsWith('.cpuprofile'));
  if (files.length === 0) return `No .cpuprofile in ${folder}`;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(folder, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, index) => {
      const microseconds = profile.timeDeltas[index] ?? 0;
      const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
      if (functionName === '(idle)') return; // waiting for I/O is not CPU time
      const place = where(url, root);
      const name = `${functionName || '(anonymous)'} ${place}${url ? `:${lineNumber + 1}` : ''}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + microseconds);
      byPackage.set(place, (byPackage.get(place) ?? 0) + microseconds);
      total += microseconds;
    });
  }
  const list = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
  return [
    `CPU profile of the gateway (${(total / 1e6).toFixed(1)} s busy):`,
    'Top self time by function:',
    ...list(byFunction),
    'By package / file:',
    ...list(byPackage),
  ].join('\n');
}
