import type { NextConfig } from 'next';

const config: NextConfig = {
  // Loaded by Node as they are (the workspace's built ESM), not bundled.
  serverExternalPackages: ['@a2a/core', '@a2a/demo-agent'],
  // The card advertises JSON-RPC at `/a2a/`: served there, not redirected with a 308 to `/a2a` (clients such as
  // Python's httpx and curl without -L do not follow a redirected POST).
  skipTrailingSlashRedirect: true,
};
export default config;
