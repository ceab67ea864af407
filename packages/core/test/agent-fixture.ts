import type { AgentExecutor } from '../src/index.js';
import { deferred } from './helpers.js';

/** Behaviour chosen by the first word of the message text. */
export function fixtureExecutor() {
  const gates = new Map<string, ReturnType<typeof deferred>>();
  const aborted: string[] = [];
  const gate = (name: string) => {
    const d = gates.get(name) ?? deferred();
    gates.set(name, d);
    return d;
  };
  const executor: AgentExecutor = {
    async execute(ctx) {
      const text = ctx.message.parts[0]?.text ?? '';
      const [word, arg = ''] = text.split(' ');
      switch (word) {
        case 'reply':
          return ctx.reply(`you said ${arg}`);
        case 'wire':
          return ctx.reply(`wire ${ctx.protocolVersion}`);
        case 'ask':
          if (ctx.task) {
            // An artifact before the status change: the turn must not end while the state is still INPUT_REQUIRED.
            await ctx.artifact({ artifactId: 'answer', text: arg });
            return ctx.complete(`thanks for ${text}`);
          }
          return ctx.inputRequired('what is your name?');
        case 'boom':
          throw new Error('kaboom');
        case 'hang':
          ctx.signal.addEventListener('abort', () => aborted.push(ctx.taskId));
          await ctx.working('hanging');
          return new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        case 'stubborn':
          // Ignores the abort signal and returns only when released.
          await ctx.working('not listening');
          return gate(arg).promise.then(() => undefined);
        case 'background':
          await ctx.working('started');
          void gate(arg).promise.then(() => ctx.complete('finished later'));
          return;
        case 'gated': {
          await ctx.working('step 1');
          await gate(arg).promise;
          await ctx.artifact({ artifactId: 'out', text: 'chunk 1' });
          await gate(`${arg}-2`).promise;
          return ctx.complete('done');
        }
        case 'chunks': {
          const n = Number(arg);
          for (let i = 0; i < n; i++) {
            void ctx.artifact({ artifactId: 'big', text: `c${i}`, append: i > 0, lastChunk: i === n - 1 });
          }
          return ctx.complete();
        }
        default:
          if (ctx.task) {
            await ctx.working(`continuing with ${text}`);
            return;
          }
          await ctx.working('working on it');
          await ctx.artifact({ name: 'echo', text });
          return ctx.complete(`echo: ${text}`);
      }
    },
    // A slow cancel hook for `stubborn`: the CANCELED event is written well after the execution was aborted.
    async cancel(ctx) {
      if (ctx.message.parts[0]?.text?.startsWith('stubborn')) await new Promise((r) => setTimeout(r, 30));
    },
  };
  return { executor, release: (name: string) => gate(name).resolve(undefined), aborted };
}
