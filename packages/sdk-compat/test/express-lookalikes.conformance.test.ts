import { createServer, type Server } from 'node:http';
import { defineAdapterSuites, type HarnessStartOptions, testCaller } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import { UnauthenticatedUser } from '@a2a-js/sdk/server';
import express from 'express';
import { agentCardHandler, jsonRpcHandler, restHandler } from '../src/express.js';
import { close, listen } from './helpers.js';

// The Express look-alikes hold the same bar as the adapters: the conformance and adversarial suites, with the
// handler mounted the SDK's way (card, JSON-RPC and HTTP+JSON each by its own handler at the same prefix) and the
// caller from an SDK-style `userBuilder`.
const userBuilder = async (req: express.Request) => {
  const user = testCaller(req.get('x-test-user'))?.user;
  return user ? { isAuthenticated: true, userName: user.id, scopes: user.scopes } : new UnauthenticatedUser();
};

const harness = {
  name: 'Express 5, @a2a/sdk-compat look-alikes',
  // Served through `@a2a/express`: a stream finished within the agent's burst is one body.
  streamsInOneWrite: true,
  async start(a2a: A2AHttpHandler, o: HarnessStartOptions) {
    const app = express();
    app.set('trust proxy', o.trustProxy);
    if (o.bodyParser) app.use(express.json());
    app.use(`${o.mountPath}/.well-known/agent-card.json`, agentCardHandler({ agentCardProvider: a2a }));
    app.use(o.mountPath || '/', jsonRpcHandler({ requestHandler: a2a, userBuilder }));
    app.use(o.mountPath || '/', restHandler({ requestHandler: a2a, userBuilder }));
    app.get(`${o.mountPath}/host-route`, (_req, res) => void res.type('text').send('host'));
    const server: Server = createServer(app);
    return { baseUrl: await listen(server), close: () => close(server) };
  },
};

defineAdapterSuites(harness);
