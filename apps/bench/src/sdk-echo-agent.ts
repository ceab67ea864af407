// The echo agent contract (echo-agent.ts) written the @a2a-js/sdk 1.x way: an `AgentExecutor` publishing
// `AgentEvent`s on the SDK's bus. The SDK's bench server runs it on the SDK itself (servers/sdk.ts); `--executor
// sdk-compat` runs it on ours through @a2a/sdk-compat's `fromSdkExecutor`, beside the same agent written natively.
import { Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { type ChunkPlan, chunkText, parseChunkPlan, publishTime } from './paced-chunks.js';

const now = () => new Date().toISOString();
// No media type (the proto default, left out of the JSON), as the native agent's parts: both agents answer the same
// JSON, so the compat rows measure the layer rather than a longer answer.
const text = (value: string) => ({
  content: { $case: 'text' as const, value },
  mediaType: '',
  filename: '',
  metadata: undefined,
});
const echoArtifact = (value: string) => ({
  artifactId: 'echo',
  name: 'echo',
  description: '',
  parts: [text(value)],
  metadata: undefined,
  extensions: [],
});
const status = (state: TaskState) => ({ state, timestamp: now(), message: undefined });
/** The request's task in `state`, the user's message as its history. */
const taskEvent = (ctx: RequestContext, state: TaskState, artifacts: ReturnType<typeof echoArtifact>[] = []) =>
  AgentEvent.task({
    id: ctx.taskId,
    contextId: ctx.contextId,
    status: status(state),
    artifacts,
    history: [ctx.userMessage],
    metadata: undefined,
  });
const statusUpdate = (ctx: RequestContext, state: TaskState) =>
  AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, status: status(state), metadata: undefined });
/** Chunk `i` of a streamed artifact: appended after the first. */
const chunkUpdate = (ctx: RequestContext, artifact: ReturnType<typeof echoArtifact>, i: number, lastChunk: boolean) =>
  AgentEvent.artifactUpdate({
    taskId: ctx.taskId,
    contextId: ctx.contextId,
    artifact,
    append: i > 0,
    lastChunk,
    metadata: undefined,
  });

export class SdkEchoExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const user = ctx.userMessage;
    const first = user.parts.find((p) => p.content?.$case === 'text');
    const input = first?.content?.$case === 'text' ? first.content.value : '';
    const plan = parseChunkPlan(user.messageId);
    if (plan) return pacedChunks(plan, ctx, bus);
    if (input.startsWith('message:')) {
      bus.publish(
        AgentEvent.message({
          messageId: crypto.randomUUID(),
          role: Role.ROLE_AGENT,
          contextId: ctx.contextId,
          taskId: '',
          parts: [text(`echo: ${input.slice('message:'.length)}`)],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }),
      );
      return;
    }
    if (input === 'input-required') {
      bus.publish(taskEvent(ctx, TaskState.TASK_STATE_INPUT_REQUIRED));
      return;
    }
    const stream = /^stream:(\d+)$/.exec(input);
    if (stream) {
      const total = Math.max(3, Number(stream[1]));
      bus.publish(taskEvent(ctx, TaskState.TASK_STATE_SUBMITTED));
      bus.publish(statusUpdate(ctx, TaskState.TASK_STATE_WORKING));
      for (let i = 0; i < total - 3; i++) {
        bus.publish(chunkUpdate(ctx, echoArtifact(`chunk ${i}`), i, i === total - 4));
      }
      bus.publish(statusUpdate(ctx, TaskState.TASK_STATE_COMPLETED));
      return;
    }
    bus.publish(taskEvent(ctx, TaskState.TASK_STATE_COMPLETED, [echoArtifact(`echo: ${input}`)]));
  }

  async cancelTask(): Promise<void> {}
}

/** The same paced agent as ours (paced-chunks.ts): WORKING, `count` chunks on a fixed schedule, COMPLETED. */
async function pacedChunks(plan: ChunkPlan, ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
  bus.publish(taskEvent(ctx, TaskState.TASK_STATE_SUBMITTED));
  bus.publish(statusUpdate(ctx, TaskState.TASK_STATE_WORKING));
  const start = performance.now();
  for (let i = 0; i < plan.count; i++) {
    const due = start + (i + 1) * plan.intervalMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    const chunk = echoArtifact(chunkText(i, performance.timeOrigin + due, publishTime()));
    bus.publish(chunkUpdate(ctx, { ...chunk, artifactId: 'chunks', name: 'chunks' }, i, i === plan.count - 1));
  }
  bus.publish(statusUpdate(ctx, TaskState.TASK_STATE_COMPLETED));
}
