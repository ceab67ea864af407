// Types of generate-validators.mjs for the TypeScript test that imports it (packages/core/test/validators.test.ts).
export declare const COMPILED: string[];
export declare const GENERATED_PATH: string;
export declare function validatorName(schemaName: string): string;
export declare function generateValidators(modules: {
  schemas: Record<string, unknown>;
  plain: Record<string, unknown>;
  compileFn: (schema: unknown, options?: { debug?: boolean }) => unknown;
  util: Record<string, unknown>;
  zodVersion: string;
}): string;
export declare function generateFromSources(coreDir: string): Promise<string>;
