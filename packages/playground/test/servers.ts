import type { Server } from 'node:http';
import { type AgentExecutor, createA2AHandler } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import express from 'express';
import { exportJWK, generateKeyPair } from 'jose';
import { createPlayground, type PlaygroundOptions } from '../src/index.js';

export interface Running {
  url: string;
  close(): Promise<void>;
}

export async function listen(app: express.Express): Promise<Running> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A playground alone on an Express app. */
export function startPlayground(options: PlaygroundOptions = {}): Promise<Running> {
  const app = express();
  app.use(a2aExpress(createPlayground(options)));
  return listen(app);
}

/** Echoes the user's text back as a status message, then one artifact chunk, then completes. */
const echo: AgentExecutor = {
  async execute(ctx) {
    const text = ctx.message.parts.map((p) => p.text ?? '').join('');
    await ctx.working(`echo: ${text}`);
    await ctx.artifact({ artifactId: 'echo', name: 'echo.txt', text, lastChunk: true });
    await ctx.complete('done');
  },
};

export interface RemoteAgent extends Running {
  /** Headers of every A2A request the agent received. */
  seen: Headers[];
  /** Every request path the server received. */
  hits: string[];
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
  const a2a = createA2AHandler({
    agentCard: {
      name: 'Echo',
      description: 'Echoes what you say',
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain', 'application/json'],
      skills: [{ id: 'echo', name: 'Echo', description: 'Echo', tags: ['test'] }],
    },
    executor: echo,
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
  return { ...running, seen, hits };
}
