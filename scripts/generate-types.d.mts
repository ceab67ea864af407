// Types of generate-types.mjs for the TypeScript test that imports it (packages/core/test/types-generated.test.ts).
export declare const TYPES: [name: string, schema: string][];
export declare const GENERATED_TYPES_PATH: string;
export declare function generateTypes(): string;
export declare function verify(generatedText: string): void;
