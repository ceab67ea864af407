import { type A2AHttpHandler, createA2AHandler } from '@a2a/core';
import { type DemoAgentOptions, demoHandlerOptions, demoPlayground } from '@a2a/demo-agent';
import { a2aExpress } from '@a2a/express';
import express, { type Express } from 'express';

/** The demo app: the Poet agent at the root of an Express 5 app, behind express.json() like most apps have,
 * and the playground at /playground. */
export function createApp(options: DemoAgentOptions & { handler?: A2AHttpHandler } = {}): Express {
  const a2a = options.handler ?? createA2AHandler(demoHandlerOptions(options));
  const app = express();
  // The browser playground at /playground, before the body parser: its proxy forwards request bodies byte for byte.
  app.use(a2aExpress(demoPlayground()));
  app.use(express.json());
  app.use(a2aExpress(a2a));
  app.get('/health', (_req, res) => void res.json({ ok: true }));
  return app;
}
