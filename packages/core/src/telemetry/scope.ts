/**
 * The instrumentation scope of core's spans and metrics: the package and its version (a test keeps the version equal
 * to package.json's; a release bumps both).
 */
export const SCOPE = '@a2a/core';
export const SCOPE_VERSION = '0.1.0';
