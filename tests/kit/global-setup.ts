import type { TestProject } from 'vitest/node';
import { createTemplate, type Template } from './template.ts';

// Makes the template database once per run for the projects that start gateways (vitest.config.ts), and
// removes it after the last of them; each worker finds it with `inject('lgwTemplate')` (tests/kit/gateway.ts).

declare module 'vitest' {
  export interface ProvidedContext {
    lgwTemplate: Template;
  }
}

type Shared = { made: ReturnType<typeof createTemplate>; users: number };
// Every project's global setup runs in vitest's own process: the projects share one template through it.
const registry = globalThis as { lgwTemplateShared?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (registry.lgwTemplateShared ??= { made: createTemplate(), users: 0 });
  shared.users += 1;
  const { template, drop } = await shared.made;
  project.provide('lgwTemplate', template);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete registry.lgwTemplateShared;
    await drop();
  };
}
