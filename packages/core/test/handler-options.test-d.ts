// Type-level tests, checked by `tsc` in `pnpm typecheck` (this package's tsconfig includes test/).
import { type AgentExecutor, createA2AHandler, createRequestHandler } from '../src/index.js';

const agentCard = { name: 'A', description: 'd', version: '1', skills: [] };
const executor: AgentExecutor = { execute: (ctx) => ctx.complete('ok') };

createA2AHandler({ agentCard, executor, basePath: '/a2a' });
createA2AHandler({ requestHandler: createRequestHandler({ agentCard, executor }), onError: () => {} });

// @ts-expect-error the executor is required
createA2AHandler({ agentCard });
// @ts-expect-error so is the card
createA2AHandler({ executor });
// @ts-expect-error an executor is an object with execute(), not a bare function
createA2AHandler({ agentCard, executor: async () => {} });
// @ts-expect-error a prepared engine has its own executor
createA2AHandler({ requestHandler: createRequestHandler({ agentCard, executor }), executor });
