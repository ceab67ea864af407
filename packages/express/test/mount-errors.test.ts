// Mistakes Express only shows when a request comes: answered with an error that names the fix (Express's error
// handler), instead of serving at a doubled path or failing every route with a bare TypeError.
import { createFixture, type Listening, listen } from '@a2a/adapter-testsuite';
import express from 'express';
import { afterEach, expect, it, vi } from 'vitest';
import { a2aExpress } from '../src/index.js';

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(app: express.Express): Promise<string> {
  server = await listen(app);
  return server.url;
}

/** Express's own error handler, showing the message (as in development). */
const showError: express.ErrorRequestHandler = (error: Error, _req, res, _next) => {
  res.status(500).type('text').send(error.message);
};

it('refuses a handler with a basePath mounted under a prefix, naming the fix', async () => {
  const { a2a } = createFixture(undefined, { basePath: '/a2a' });
  const app = express();
  app.use('/api', a2aExpress(a2a));
  app.use(showError);
  const origin = await start(app);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    for (const path of ['/api/a2a/', '/api/.well-known/agent-card.json']) {
      const answer = await fetch(`${origin}${path}`);
      expect(answer.status).toBe(500);
      expect(await answer.text()).toMatch(
        /a2aExpress: the handler has basePath '\/a2a'.*app\.use\(a2aExpress\(handler\)\), not under '\/api'/,
      );
    }
    // Logged too, once: an error handler of the app's own may answer without the message.
    expect(logged.mock.calls).toEqual([[expect.stringMatching(/a2aExpress: the handler has basePath '\/a2a'/)]]);
  } finally {
    logged.mockRestore();
  }
});

it('serves the same handler mounted at the root', async () => {
  const { a2a } = createFixture(undefined, { basePath: '/a2a' });
  const app = express();
  app.use(a2aExpress(a2a));
  const origin = await start(app);
  expect((await fetch(`${origin}/.well-known/agent-card.json`)).status).toBe(200);
});

it('names the fix when a2aExpress itself is given to app.use', async () => {
  const app = express();
  app.use(a2aExpress as never);
  app.use(showError);
  const origin = await start(app);
  const answer = await fetch(`${origin}/anything`);
  expect(answer.status).toBe(500);
  expect(await answer.text()).toMatch(
    /a2aExpress was given to the framework uncalled.*app\.use\(a2aExpress\(handler\)\)/,
  );
});

it("names the fix when the handler's fetch is given to app.use", async () => {
  const { a2a } = createFixture();
  const app = express();
  app.use(a2a.fetch as never);
  app.use(showError);
  const origin = await start(app);
  for (const path of ['/', '/.well-known/agent-card.json', '/other']) {
    const answer = await fetch(`${origin}${path}`);
    expect(answer.status).toBe(500);
    expect(await answer.text()).toMatch(
      /^a2a\.fetch\(\) takes a Fetch Request and was given Node's request \(was it mounted as framework middleware.*app\.use\(a2aExpress\(a2a\)\) from @a2a\/express/,
    );
  }
});
