import type { NextConfig } from 'next';

const config: NextConfig = {
  // Loaded by Node as they are (the workspace's built ESM), not bundled.
  serverExternalPackages: ['@a2a/core', '@a2a/demo-agent'],
};
export default config;
