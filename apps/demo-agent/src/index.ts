import { setTimeout as wait } from 'node:timers/promises';
import type { A2AHandlerOptions, AgentCardInput, AgentContext, AgentExecutor } from '@a2a/core';
import { createPlayground } from '@a2a/playground';

export { closeHttpServer, closeOnSignal, type ShutdownSteps } from './shutdown.js';

export interface DemoAgentOptions {
  /** Pause between streamed lines (default 300 ms, so a human sees them arrive). */
  lineDelayMs?: number;
  /** Where tasks live: the in-memory default, or what `createTaskStoreFromEnv()` of @a2a/postgres returned. */
  storage?: Pick<A2AHandlerOptions, 'taskStore' | 'coordinator'>;
}

/** The handler options of a demo app: the Poet agent, its card and the chosen storage. */
export function demoHandlerOptions(options: DemoAgentOptions = {}): A2AHandlerOptions {
  // Only the two fields: a `createTaskStoreFromEnv()` result also carries `postgres` and `close`, which are not options.
  const { taskStore, coordinator } = options.storage ?? {};
  return {
    agentCard: demoAgentCard,
    executor: createDemoExecutor(options),
    ...(taskStore && { taskStore }),
    ...(coordinator && { coordinator }),
  };
}

export const demoAgentCard: AgentCardInput = {
  name: 'Poet',
  description: 'Writes short poems. Tell it a topic ("write a poem about the sea"); it asks when you forget one.',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'poem',
      name: 'Poem',
      description: 'A four-line poem on a topic, streamed line by line',
      tags: ['poetry', 'demo'],
      examples: ['write a poem about the sea', 'a poem please'],
    },
  ],
};

const topicOf = (text: string): string | undefined => /\babout\s+(.+)$/i.exec(text.trim())?.[1]?.replace(/[.!?]+$/, '');

const poem = (topic: string): string[] => [
  `Of ${topic} I sing, in lines that stream,`,
  `each one sent out the moment it is ready,`,
  `a task that asked, then listened, then began,`,
  `and ends here, with ${topic} held steady.`,
];

/** Resolves after `ms`, or early when the signal aborts (a canceled task stops waiting). */
const sleep = (ms: number, signal: AbortSignal) => wait(ms, undefined, { signal }).catch(() => {});

/**
 * A multi-turn agent: without a topic it asks for one (INPUT_REQUIRED) and goes on when the answer arrives on the
 * same task; then it streams a poem into one artifact line by line (append + lastChunk). Cancel stops it mid-poem.
 */
export function createDemoExecutor(options: DemoAgentOptions = {}): AgentExecutor {
  const delay = options.lineDelayMs ?? 300;
  return {
    async execute(ctx: AgentContext) {
      const text = ctx.message.parts
        .map((p) => p.text ?? '')
        .join(' ')
        .trim();
      // A follow-up on a task that asked for input is the topic itself.
      const topic = ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED' ? text : topicOf(text);
      if (!topic) return ctx.inputRequired('What should the poem be about?');
      await ctx.working(`Writing a poem about ${topic}…`);
      const lines = poem(topic);
      for (const [i, line] of lines.entries()) {
        if (ctx.signal.aborted) return; // canceled: core already marked the task CANCELED
        await ctx.artifact({
          artifactId: 'poem',
          name: 'poem.txt',
          text: `${line}\n`,
          append: i > 0,
          lastChunk: i === lines.length - 1,
        });
        if (i < lines.length - 1) await sleep(delay, ctx.signal);
      }
      if (!ctx.signal.aborted) await ctx.complete(`Here is your poem about ${topic}.`);
    },
  };
}

/**
 * The playground every demo serves at /playground. Remote agents on this machine or network (another demo) are
 * refused by the SSRF guard unless listed in `A2A_PLAYGROUND_ALLOW` (comma-separated hosts, IPs or CIDR ranges); the
 * page answers loopback names and IP addresses only, unless `A2A_PLAYGROUND_HOSTS` lists the host names it is reached
 * under (comma-separated; `.example.com` for a domain and its subdomains).
 */
export function demoPlayground() {
  const list = (name: string) =>
    (process.env[name] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return createPlayground({
    remote: { ssrf: { allow: list('A2A_PLAYGROUND_ALLOW') } },
    allowedHosts: list('A2A_PLAYGROUND_HOSTS'),
  });
}

/** What a demo prints on start: where it listens and a request to paste. */
export function startBanner(name: string, url: string, storage = 'in-memory store'): string {
  const base = url.replace(/\/$/, '');
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'write a poem about the sea' }] } },
  });
  return [
    `${name} A2A demo listening on ${base}/ (${storage})`,
    `  agent card: ${base}/.well-known/agent-card.json`,
    `  playground: ${base}/playground`,
    '  try:',
    `  curl -s ${base}/ -H 'content-type: application/json' -d '${body}'`,
    `  curl -sN ${base}/message:stream -H 'content-type: application/json' -d '{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"write a poem about rain"}]}}'`,
  ].join('\n');
}
