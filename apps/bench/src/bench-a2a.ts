import {
  type A2AHttpHandler,
  type AgentExecutor,
  createA2AHandler,
  type ExecutionCoordinator,
  InMemoryTaskStore,
  type PushConfigStore,
  type TaskStore,
} from '@a2a/core';
import { benchCard, echoExecutor } from './echo-agent.js';

export const JSONRPC_PATH = '/a2a/jsonrpc';
export const CARD_PATH = '/.well-known/agent-card.json';
export const RAW_PATH = '/raw/echo';
export const MEM_PATH = '/__bench/mem';

export interface BenchOptions {
  /** Store cap; default: the in-memory store's own default. */
  maxTasks?: number | undefined;
  /** Called with the handler (the gRPC listener serves the same one). */
  onHandler?: ((a2a: A2AHttpHandler) => void) | undefined;
  /**
   * The agent; default the native echo agent (echo-agent.ts). `--executor sdk-compat` (main.ts): the same contract
   * written for @a2a-js/sdk 1.x (sdk-echo-agent.ts) through @a2a/sdk-compat's `fromSdkExecutor`.
   */
  executor?: AgentExecutor | undefined;
  /** A durable store (`A2A_DATABASE_URL`, see main.ts) instead of the in-memory one. */
  durable?: { taskStore: TaskStore & PushConfigStore; coordinator: ExecutionCoordinator | undefined } | undefined;
}

/** Our A2A handler with the echo agent: JSON-RPC at /a2a/jsonrpc (no REST binding), card at the well-known path. */
export function createBenchA2A(options: BenchOptions = {}): A2AHttpHandler {
  const taskStore =
    options.durable?.taskStore ?? new InMemoryTaskStore(options.maxTasks ? { maxTasks: options.maxTasks } : {});
  const coordinator = options.durable?.coordinator;
  const a2a = createA2AHandler({
    agentCard: benchCard,
    executor: options.executor ?? echoExecutor,
    taskStore,
    ...(coordinator && { coordinator }),
    routes: { jsonRpc: JSONRPC_PATH, rest: false },
  });
  options.onHandler?.(a2a);
  return a2a;
}

/** The raw reference's answer: what a plain framework JSON endpoint does with the SendMessage body. */
export function rawEcho(body: unknown): {
  jsonrpc: '2.0';
  id: unknown;
  result: { echo: string };
} {
  const b = body as { id?: unknown; params?: { message?: { parts?: { text?: string }[] } } } | undefined;
  return {
    jsonrpc: '2.0',
    id: b?.id ?? null,
    result: { echo: b?.params?.message?.parts?.[0]?.text ?? '' },
  };
}

/** Memory figures, after two full GCs when `gc` is asked for and the process runs with --expose-gc. */
export function memFigures(gc: boolean): NodeJS.MemoryUsage & { gcExposed: boolean } {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (gc && collect) {
    collect();
    collect();
  }
  return { ...process.memoryUsage(), gcExposed: typeof collect === 'function' };
}
