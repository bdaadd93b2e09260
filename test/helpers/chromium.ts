/**
 * The real browser of the browser tests: Debian's Chromium (installed by scripts/setup-test-deps.sh), headless, with
 * the flags a container needs and nothing that reaches the network on its own.
 */
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts Chromium; the caller closes it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
