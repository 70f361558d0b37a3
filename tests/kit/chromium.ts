import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// Debian's Chromium for the browser tests, started the one way they all need: headless, and kept from
// calling home (updates, sync, safe browsing), so that a page's own requests are all it makes.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumThere = existsSync(CHROMIUM);

/** Two origins of one site, school.test, both on loopback (a lessons page and the gateway's API). */
export const SCHOOL_SITE = '--host-resolver-rules=MAP lessons.school.test 127.0.0.1, MAP api.school.test 127.0.0.1';

export function launchChromium(...extraArgs: string[]): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
