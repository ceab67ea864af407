import type { AgentContext, Task, TaskStore } from '@a2a/core';
import { ownerOf } from '@a2a/core/internal';

/**
 * The tasks the message refers to (`referenceTaskIds`) that the caller may read (unknown ids are left out);
 * `undefined`, synchronously, when it refers to none: most messages, which then take no extra turn.
 */
export function referenceTasks(ctx: AgentContext, store: TaskStore | undefined): Promise<Task[]> | undefined {
  const ids = ctx.message.referenceTaskIds;
  if (!store || !ids?.length) return undefined;
  const owner = ownerOf({ user: ctx.user, tenant: ctx.tenant });
  return Promise.all(ids.map((id) => store.get(id, owner).catch(() => undefined))).then((found) =>
    found.flatMap((stored) => (stored ? [stored.task] : [])),
  );
}
