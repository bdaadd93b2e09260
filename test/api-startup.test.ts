/** Start-up failures inside the process: a port in use is a clear StartupError and leaves nothing running. */
import { afterAll, describe, expect, it } from 'vitest';
import { StartupError } from '../src/server/start.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let first: TestServer | undefined;
afterAll(async () => {
  await first?.close();
});

describe('start-up', () => {
  it('names the address and what to do when the port is in use', async () => {
    first = await startTestServer({ start: { watch: false } });
    const port = new URL(first.url).port;
    const second = startTestServer({ env: { PORT: port } });
    await expect(second).rejects.toBeInstanceOf(StartupError);
    await expect(second).rejects.toThrow(`cannot listen on 127.0.0.1:${port}:\n  EADDRINUSE: the port is in use; set PORT and HOST`);
    // The first server is unaffected.
    expect((await fetch(`${first.url}/v1/health`)).status).toBe(200);
  });
});
