// Types of pack-packages.mjs for the TypeScript tests that import it (apps/readme-check).
export declare const ROOT: string;
export declare function publishedPackages(): string[];
export declare function npmEnv(): NodeJS.ProcessEnv;
export declare function packPackages(dest: string, dirs?: string[], root?: string): Record<string, string>;
