import { A2AError } from '../errors.js';
import { isObject } from '../is-object.js';
import type { OperationEnv } from '../server/operations.js';
import type { LegacyMethod, LegacyResult } from './legacy-call.js';
import { badShape, type LegacyVersion } from './shape.js';
import { V01_METHODS } from './v01-methods.js';
import { V01TaskIds } from './v01-task-ids.js';
import { V03_METHODS } from './v03-methods.js';

/** The method tables of the older wires, plus the v0.1 client-chosen task ids. */
export class LegacyMethods {
  private readonly ids = new V01TaskIds();

  static find(method: string): LegacyMethod | undefined {
    if (Object.hasOwn(V03_METHODS, method)) return V03_METHODS[method];
    if (Object.hasOwn(V01_METHODS, method)) return V01_METHODS[method];
    return undefined;
  }

  /** Every method name of the tables (legacy-routes.ts lists them for the handler, which checks names first). */
  static names(): string[] {
    return [...new Set([...Object.keys(V03_METHODS), ...Object.keys(V01_METHODS)])];
  }

  /** Runs a legacy method. `version` picks the table for names both wires have (`tasks/get` …). */
  async run(method: string, params: unknown, env: OperationEnv, version: LegacyVersion): Promise<LegacyResult> {
    env.telemetry?.method(method, version);
    const table = version === '0.1' && Object.hasOwn(V01_METHODS, method) ? V01_METHODS : V03_METHODS;
    const entry = Object.hasOwn(table, method) ? table[method] : LegacyMethods.find(method);
    if (!entry) throw new A2AError('MethodNotFound', `Method not found: ${method} (request read as A2A ${version})`);
    if (params !== undefined && params !== null && !isObject(params)) {
      throw new A2AError(
        'InvalidParams',
        `Invalid params: params must be an object (request read as A2A ${entry.version})`,
      );
    }
    if (isObject(params) && Object.hasOwn(params, '')) throw badShape(entry.version, '(root)', 'empty field name');
    return entry.run(params ?? {}, env, this.ids);
  }

  /** Is `id` a task id a v0.1 client chose (so header-less tasks/get & co. answer in v0.1 shapes)? */
  isV01Alias(id: string, env: OperationEnv): boolean {
    return this.ids.has(id, env);
  }
}
