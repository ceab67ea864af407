import { listen } from '@a2a/adapter-testsuite';
import { type AgentExecutor, createA2AHandler } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import express from 'express';
import { exportJWK, generateKeyPair } from 'jose';
import { createPlayground, type PlaygroundOptions } from '../src/index.js';

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** A playground alone on an Express app. */
export function startPlayground(options: PlaygroundOptions = {}): Promise<Running> {
  const app = express();
  app.use(a2aExpress(createPlayground(options)));
  return listen(app);
}

/** What "hold" waits on: a promise the test resolves (`release()`), then a fresh one for the next hold. */
class Gate {
  private open!: () => void;
  wait = this.renew();
  release(): void {
    this.open();
    this.wait = this.renew();
  }
  private renew(): Promise<void> {
    return new Promise((resolve) => {
      this.open = resolve;
    });
  }
}

/**
 * Echoes the user's text back as a status message, then one artifact chunk, then completes. "letter" gets a letter
 * instead: one artifact in three chunks (the second and third appended, no separator of their own), a second
 * artifact, and a final message of two text parts. "hold" sends its first chunk, then waits for the test to release
 * it before the second chunk and the end: a task that is running, or has ended, exactly when a test says.
 */
const echoOf = (gate: Gate): AgentExecutor => ({
  async execute(ctx) {
    const text = ctx.message.parts.map((p) => p.text ?? '').join('');
    if (text === 'hold') {
      await ctx.working('Holding…');
      await ctx.artifact({ artifactId: 'held', name: 'held.txt', text: 'first half, ' });
      await gate.wait;
      await ctx.artifact({ artifactId: 'held', text: 'second half', append: true, lastChunk: true });
      await ctx.complete('Released.');
      return;
    }
    if (text === 'letter') {
      await ctx.working('Drafting…');
      await ctx.artifact({ artifactId: 'letter', name: 'letter.txt', text: 'Dear friend,\n' });
      await ctx.artifact({ artifactId: 'letter', text: 'all is ', append: true });
      await ctx.artifact({ artifactId: 'letter', text: 'well.', append: true, lastChunk: true });
      await ctx.artifact({ artifactId: 'ps', name: 'ps.txt', text: 'P.S. see you soon', lastChunk: true });
      await ctx.complete([{ text: 'Signed,' }, { text: 'the echo' }]);
      return;
    }
    await ctx.working(`echo: ${text}`);
    await ctx.artifact({ artifactId: 'echo', name: 'echo.txt', text, lastChunk: true });
    await ctx.complete('done');
  },
});

export interface RemoteAgent extends Running {
  /** Headers of every A2A request the agent received. */
  seen: Headers[];
  /** Every request path the server received. */
  hits: string[];
  /** Lets the tasks waiting on "hold" finish. */
  release(): void;
}

/**
 * A "remote" agent with a signed card (JWKS at its root), plus broken cards under /bad: one failing the schema, one
 * with a tampered signature, one that is not JSON, one whose texts are HTML, and one over the playground's size limit.
 */
export async function startRemoteAgent(): Promise<RemoteAgent> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const seen: Headers[] = [];
  const hits: string[] = [];
  const gate = new Gate();
  const a2a = createA2AHandler({
    agentCard: {
      name: 'Echo',
      description: 'Echoes what you say',
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain', 'application/json'],
      skills: [{ id: 'echo', name: 'Echo', description: 'Echo', tags: ['test'], examples: ['say hello', 'letter'] }],
    },
    executor: echoOf(gate),
    signAgentCard: { keys: [{ kid: 'k1', privateKey, publicJwk }] },
  });
  const app = express();
  app.use((req, _res, next) => {
    hits.push(req.path);
    next();
  });
  app.get('/bad/invalid.json', (_req, res) => {
    res.json({ name: '', description: 'no interfaces', version: '1', capabilities: {}, skills: [{ id: 5 }] });
  });
  app.get('/bad/html.json', (_req, res) => {
    const xss = '<img src=x onerror="window.__xss=1">';
    res.json({ name: xss, description: xss, version: '1', capabilities: {}, skills: [] });
  });
  app.get('/bad/not-json', (_req, res) => void res.type('text/html').send('<html>hello</html>'));
  app.get('/bad/huge.json', (_req, res) => void res.json({ pad: 'x'.repeat(1 << 20) })); // over the 1 MiB card limit
  app.get('/bad/tampered.json', async (_req, res) => {
    const card = await (await fetch(`${running.url}/.well-known/agent-card.json`)).json();
    res.json({ ...card, description: 'changed after signing' });
  });
  app.use(
    a2aExpress(a2a, {
      context: (req) => {
        seen.push(new Headers(req.headers as Record<string, string>));
        return {};
      },
    }),
  );
  const running = await listen(app);
  return { ...running, seen, hits, release: () => gate.release() };
}
