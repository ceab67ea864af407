import type { TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, type RequestContext } from '@a2a-js/sdk/server';

// The SDK events the execution tests publish, built as an SDK executor would (every field spelled out).

/** A bare status update for the context's task (or `taskId`'s). */
export const status = (ctx: RequestContext, state: TaskState, taskId = ctx.taskId): AgentExecutionEvent =>
  AgentEvent.statusUpdate({
    taskId,
    contextId: ctx.contextId,
    status: { state, message: undefined, timestamp: undefined },
    metadata: undefined,
  });

/** A plain text artifact chunk (the translation's fast path); `texts: []` makes one the engine refuses (no parts). */
export const chunk = (ctx: RequestContext, texts: string[], taskId = ctx.taskId): AgentExecutionEvent =>
  AgentEvent.artifactUpdate({
    taskId,
    contextId: ctx.contextId,
    artifact: {
      artifactId: 'a',
      name: '',
      description: '',
      parts: texts.map((value) => ({
        content: { $case: 'text', value },
        metadata: undefined,
        filename: '',
        mediaType: '',
      })),
      metadata: undefined,
      extensions: [],
    },
    append: false,
    lastChunk: false,
    metadata: undefined,
  });
