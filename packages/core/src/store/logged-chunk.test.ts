import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTask, type TaskEvent } from '../task-state.js';
import { InMemoryTaskStore } from './in-memory-task-store.js';
import { LoggedChunk, logEntry, loggedEvent } from './logged-chunk.js';

const part = fc.oneof(
  fc.record({ text: fc.string() }, { noNullPrototype: true }),
  fc.record({ data: fc.dictionary(fc.string(), fc.string()), mediaType: fc.constant('application/json') }),
  fc.record({ text: fc.string(), metadata: fc.dictionary(fc.string(), fc.integer()) }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Artifact events of every shape a caller can hand the store: optional fields absent, set, or set to `undefined`. */
const artifactEvent: fc.Arbitrary<TaskEvent> = fc
  .record(
    {
      artifact: fc.record(
        {
          artifactId: fc.string({ minLength: 1 }),
          parts: fc.array(part, { minLength: 1, maxLength: 3 }),
          name: maybe(fc.string()),
          description: maybe(fc.string()),
          metadata: maybe(fc.dictionary(fc.string(), fc.string())),
        },
        { requiredKeys: ['artifactId', 'parts'], noNullPrototype: true },
      ),
      append: maybe(fc.boolean()),
      lastChunk: maybe(fc.boolean()),
      metadata: maybe(fc.dictionary(fc.string(), fc.string())),
    },
    { requiredKeys: ['artifact'], noNullPrototype: true },
  )
  .map((fields) => ({ kind: 'artifact' as const, ...fields }));

describe('LoggedChunk', () => {
  it('stands for an event exactly: the rebuilt event deep-equals the one logged, whatever its shape', () => {
    fc.assert(
      fc.property(artifactEvent, (event) => {
        expect(loggedEvent(logEntry(event))).toStrictEqual(event);
      }),
      { numRuns: 500 },
    );
  });

  it("is what the log keeps of a streaming agent's chunk, and only of that", () => {
    const chunk = logEntry({
      kind: 'artifact',
      artifact: { artifactId: 'a', parts: [{ text: 'x' }], name: 'n' },
      append: true,
      lastChunk: false,
    });
    expect(chunk).toBeInstanceOf(LoggedChunk);
    const twoParts: TaskEvent = {
      kind: 'artifact',
      artifact: { artifactId: 'a', parts: [{ text: 'x' }, { text: 'y' }] },
    };
    expect(logEntry(twoParts)).toBe(twoParts);
    const unset: TaskEvent = {
      kind: 'artifact',
      artifact: { artifactId: 'a', parts: [{ text: 'x' }], name: undefined },
    };
    expect(logEntry(unset)).toBe(unset);
  });

  it('replays through the store as the events were appended, parts shared with the task', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(artifactEvent, { minLength: 1, maxLength: 20 }), async (events) => {
        const store = new InMemoryTaskStore({ liveLogSize: 8 });
        const message = { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] };
        await store.create(newTask('t', 'c', message, new Date().toISOString()), 'o');
        let version = 1;
        for (const event of events) version = (await store.append('t', version, event)).seq;
        const replayed = (await store.readEvents('t', 1)).map((r) => r.event);
        expect(replayed).toStrictEqual(events.slice(-8));
      }),
      { numRuns: 200 },
    );
  });
});
