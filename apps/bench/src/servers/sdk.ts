// The official SDK (@a2a-js/sdk) on Express, running the same echo agent contract, for the "× SDK" column.
import { createServer, type Server } from 'node:http';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { JSONRPC_PATH, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { benchCard } from '../echo-agent.js';
import { SdkEchoExecutor } from '../sdk-echo-agent.js';
import { listen } from './listen.js';

export function startSdk(port: number, host: string): Promise<Server> {
  const base = `http://${host}:${port}`;
  const skill = benchCard.skills[0] as (typeof benchCard.skills)[number];
  const card = {
    name: benchCard.name,
    description: benchCard.description,
    version: benchCard.version,
    provider: benchCard.provider,
    documentationUrl: '',
    // Both versions on the same endpoint: the compat layer takes header-less (v0.3) requests.
    supportedInterfaces: [
      {
        url: `${base}${JSONRPC_PATH}`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
      {
        url: `${base}${JSONRPC_PATH}`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '0.3',
      },
    ],
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: benchCard.defaultInputModes,
    defaultOutputModes: benchCard.defaultOutputModes,
    skills: [
      {
        ...skill,
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new SdkEchoExecutor());
  const app = express();
  app.disable('x-powered-by');
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(
    JSONRPC_PATH,
    jsonRpcHandler({
      requestHandler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  app.post(RAW_PATH, express.json(), (req, res) => {
    res.json(rawEcho(req.body));
  });
  app.get(MEM_PATH, (req, res) => {
    res.json(memFigures(req.query.gc === '1'));
  });
  return listen(createServer(app), port, host);
}
