import { chainJsonRpcRouters, type Dialect, type DialectName } from '../compat/dialects/dialect.js';
import type { V03RestStreamFrames } from '../compat/v03-rest.js';
import type { JsonRpcVersionRouter } from '../http/json-rpc.js';
import { onDemand } from '../on-demand.js';
import type { LoadedWires, RouteMatch } from './match-route.js';

// The older wires' REST routes (v0.3 REST, v0.2's extended card) and the dialects are imported at their first request,
// not at start-up (docs/performance.md, "Footprint"): whether a request needs them is told synchronously from its path,
// so v1.0 requests never wait on them. One import per process, shared by every handler.
const v03RestModule = onDemand(() => import('../compat/v03-rest.js'));
const v02CardModule = onDemand(() => import('../compat/v02-extended-card.js'));
const dialectsModule = onDemand(() => import('../compat/dialects/make-dialects.js'));

/**
 * One handler's wires that load at their first request: what the route matcher sees (`wires`), and what serves them
 * once loaded. The dialects start loading when the handler is made; the others when a request first needs them.
 */
export class LazyWires {
  readonly wires: LoadedWires;
  /** The dialects' JSON-RPC methods, tried before the versions' (with `wires.dialects`). */
  dialectRpc: JsonRpcVersionRouter | undefined;
  readonly #dialectsReady: Promise<void> | undefined;
  #closing = false;

  constructor(
    private readonly options: { dialects: readonly DialectName[]; v03RestStreamFrames: V03RestStreamFrames },
  ) {
    const none = options.dialects.length === 0;
    this.wires = { v03Rest: undefined, dialects: none ? [] : undefined, v02Card: undefined };
    // Started now so that the first request waits as little as possible; `close()` ends what they hold.
    this.#dialectsReady = none
      ? undefined
      : dialectsModule().then(({ makeDialects }) => {
          const dialects = makeDialects(options.dialects);
          this.dialectRpc = chainJsonRpcRouters(dialects.map((d) => d.jsonRpc));
          this.wires.dialects = dialects;
          if (this.#closing) closeAll(dialects);
        });
  }

  /** Loads what a `load` match asks for. */
  async load(wire: Extract<RouteMatch, { kind: 'load' }>['wire']): Promise<void> {
    switch (wire) {
      case 'v03-rest': {
        const { V03RestServer } = await v03RestModule();
        this.wires.v03Rest ??= new V03RestServer({ streamFrames: this.options.v03RestStreamFrames });
        return;
      }
      case 'v02-card': {
        const { v02ExtendedCard } = await v02CardModule();
        this.wires.v02Card ??= v02ExtendedCard();
        return;
      }
      case 'dialects':
        return this.#dialectsReady;
    }
  }

  /** Ends what the dialects hold (now, or once they load). */
  close(): void {
    this.#closing = true;
    closeAll(this.wires.dialects ?? []);
  }
}

const closeAll = (dialects: readonly Dialect[]) => {
  for (const dialect of dialects) dialect.close?.();
};
