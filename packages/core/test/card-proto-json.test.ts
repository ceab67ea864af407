// A card as `@a2a-js/sdk` writes it (its ProtoJSON codec) is accepted at setup: ProtoJSON omits empty lists, maps and
// strings, so a scheme required without scopes is `{ "Bearer": {} }`, read as `{ list: [] }`.
import { AgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { type AgentCardInput, createA2AHandler } from '../src/index.js';
import { userMessage } from './helpers.js';

const sdkCard = AgentCard.toJSON(
  AgentCard.fromJSON({
    name: 'SDK agent',
    description: '',
    version: '1.0.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    securitySchemes: { Bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { Bearer: { list: [] } } }],
    skills: [{ id: 'echo', name: 'Echo', description: '', tags: ['echo'] }],
  }),
) as AgentCardInput;

describe('an agent card in the SDK wire form', () => {
  it('omits the empty scope list and descriptions (the premise)', () => {
    expect(sdkCard.securityRequirements).toEqual([{ schemes: { Bearer: {} } }]);
    expect(sdkCard).not.toHaveProperty('description');
  });

  it('is accepted at setup, served with the empty lists filled in, and enforced', async () => {
    const a2a = createA2AHandler({
      agentCard: sdkCard,
      executor: { execute: (ctx) => ctx.complete('done') },
      context: (request) => (request.headers.has('authorization') ? { user: { id: 'u', scopes: [] } } : undefined),
      onError: () => {},
    });
    const served = await a2a.fetch(
      new Request('http://agent.test/.well-known/agent-card.json', { headers: { 'a2a-version': '1.0' } }),
    );
    expect(await served.json()).toMatchObject({
      description: '',
      securityRequirements: [{ schemes: { Bearer: { list: [] } } }],
      skills: [{ id: 'echo', description: '' }],
    });
    const send = (headers: Record<string, string>) =>
      a2a.fetch(
        new Request('http://agent.test/message:send', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ message: userMessage('hi') }),
        }),
      );
    expect((await send({})).status).toBe(401);
    const answer = await send({ authorization: 'Bearer t' });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { task: { status: { state: string } } }).task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });
});
