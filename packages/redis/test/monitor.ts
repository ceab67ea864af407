import { Redis } from 'ioredis';

/**
 * The commands a client sends that name keys of `prefix`, as Redis's MONITOR shows them (a real server, no spy). The
 * commands a script runs come as source 'lua' and are left out; EVAL and EVALSHA read as 'script'.
 */
export async function monitorCommands(url: string, prefix: string, client: Pick<Redis, 'exists'>) {
  const connection = new Redis(url);
  const seen: string[][] = [];
  const monitor = await connection.monitor();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua' && args.some((arg) => arg.includes(prefix))) seen.push(args);
  });

  /** Waits until MONITOR has shown every command `client` sent so far (a marker, sent last, has come through). */
  async function drain(): Promise<void> {
    const marker = `${prefix}:marker:${Math.random()}`;
    await client.exists(marker);
    for (let i = 0; i < 200 && !seen.some((args) => args.includes(marker)); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  return {
    /** The commands (with their arguments) sent while `write` ran, and until `settled` resolved. */
    async during(write: () => Promise<unknown>, settled?: () => Promise<unknown>): Promise<string[][]> {
      await drain();
      seen.length = 0;
      await write();
      await settled?.();
      await drain();
      return seen.slice(0, -1).map(([name, ...args]) => {
        const lower = (name as string).toLowerCase();
        return [lower === 'eval' || lower === 'evalsha' ? 'script' : lower, ...args];
      });
    },
    close: () => connection.disconnect(),
  };
}
