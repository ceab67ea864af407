import { isA2AError } from '../errors.js';
import type { OperationEnv } from '../server/operations.js';
import { ownerOf } from '../server/request-handler.js';
import { BoundedCache } from '../store/bounded-cache.js';
import { V01View } from './v01-translate.js';

/**
 * The task ids v0.1 clients chose. v0.1 clients name their tasks; the engine does not take client ids, so keep
 * (owner, client id) -> server id, and back for the answers.
 */
export class V01TaskIds {
  private readonly aliases = new BoundedCache<string, string>({ max: 10_000 });
  private readonly reverse = new BoundedCache<string, string>({ max: 10_000 });

  /** Is `id` a task id a v0.1 client chose? */
  has(id: string, env: OperationEnv): boolean {
    return this.aliases.has(this.key(id, env));
  }

  private key = (clientId: string, env: OperationEnv) => `${ownerOf(env.call)}\u0000${clientId}`;

  serverTaskId(clientId: string, env: OperationEnv): string {
    return this.aliases.get(this.key(clientId, env)) ?? clientId;
  }

  /** The server id of the task a v0.1 client names, or `undefined` when it is a new task. */
  async existingTask(clientId: string, env: OperationEnv): Promise<string | undefined> {
    const known = this.aliases.get(this.key(clientId, env));
    if (known) return known;
    try {
      await env.handler.getTask({ id: clientId, historyLength: 0 }, env.call);
      return clientId;
    } catch (error) {
      if (isA2AError(error) && error.type === 'TaskNotFound') return undefined;
      throw error;
    }
  }

  remember(clientId: string | undefined, serverId: string, env: OperationEnv): void {
    if (clientId === undefined || clientId === serverId) return;
    this.aliases.set(this.key(clientId, env), serverId);
    this.reverse.set(this.key(serverId, env), clientId);
  }

  view(env: OperationEnv): V01View {
    return new V01View((serverId) => this.reverse.get(this.key(serverId, env)) ?? serverId);
  }
}
