// Reading the metrics as Prometheus does: GET /metrics on the metrics port, the text format parsed into samples.

export type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a text-format exposition (comment lines left out). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

export async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  return parseMetrics(await response.text());
}

/** The samples named `name` whose labels include `labels`. */
export const matching = (samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

/** The sum of those samples' values (0 when there is none). */
export const total = (samples: Sample[], name: string, labels: Record<string, string> = {}): number =>
  matching(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0);
