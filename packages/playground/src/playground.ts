import type { HandleOptions, HandlerMount, MountableHandler } from '@a2a/core';
import { AgentScopes } from './agent-scope.js';
import { ASSET_TYPES, Assets } from './assets.js';
import { cardEndpoint } from './card-endpoint.js';
import { type AllowedHosts, createHostCheck } from './host-check.js';
import { json } from './limits.js';
import { checkSameOrigin } from './origin-check.js';
import { proxyRequest } from './proxy.js';
import { RemoteAgents, type RemoteOptions } from './remote.js';

export interface PlaygroundOptions {
  /** Where the page is served (and its API under `{basePath}/api`). Default `/playground`. */
  basePath?: string;
  /**
   * The agent the page connects to first, as a URL path on the same origin (or an absolute URL). Default
   * `/.well-known/agent-card.json`: the app's own agent, called same-origin from the browser.
   */
  agentCardUrl?: string;
  /**
   * Agents on other origins, reached only through the playground's server (card fetch and an SSRF-guarded proxy that
   * calls only the interfaces of the card the page is connected to; public addresses only unless allow-listed).
   * `false` turns them off: the page then talks to its own agent only.
   */
  remote?: RemoteOptions | false;
  /**
   * Host names the playground answers besides loopback names (`localhost`, `*.localhost`) and IP addresses, which
   * always pass: `['agents.example.com', '.example.org']` (a leading dot: the domain and its subdomains), or `true`
   * for any host (only behind a proxy that checks Host itself). Any other `Host` gets 403: it closes DNS rebinding.
   */
  allowedHosts?: AllowedHosts;
  /** Largest request body the proxy forwards. Default 8 MiB. */
  maxBodyBytes?: number;
}

/** Content-Security-Policy of the page: its own script and style only, nothing inline, no other origin. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The playground as a handler any @a2a adapter mounts next to (or instead of) the agent: it routes by the URL's own
 * path (like a core handler with a `basePath`), answers `undefined` elsewhere, and declares `mount` for Hapi.
 */
export function createPlayground(options: PlaygroundOptions = {}): MountableHandler & { readonly mount: HandlerMount } {
  const basePath = normalizeBasePath(options.basePath ?? '/playground');
  const assets = new Assets();
  const remote = options.remote === false ? undefined : new RemoteAgents(options.remote);
  const scopes = remote && new AgentScopes(remote);
  const checkHost = createHostCheck(options.allowedHosts);
  const maxBodyBytes = options.maxBodyBytes ?? 8 << 20;
  const config = JSON.stringify({
    basePath,
    agentCardUrl: options.agentCardUrl ?? '/.well-known/agent-card.json',
    remote: Boolean(remote),
  });

  async function page(name: string, method: string): Promise<Response> {
    let body = await assets.read(name);
    if (name === 'index.html') {
      // The page's settings as a JSON data attribute (HTML-escaped): no inline script, so the CSP stays strict.
      const html = new TextDecoder()
        .decode(body)
        .replaceAll('%BASE%', basePath)
        .replace('%CONFIG%', escapeHtml(config));
      body = new TextEncoder().encode(html);
    }
    return new Response(method === 'HEAD' ? null : (body as BodyInit), {
      headers: {
        'content-type': ASSET_TYPES[name] as string,
        'cache-control': name === 'index.html' ? 'no-cache' : 'public, max-age=300',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      },
    });
  }

  async function handle(request: Request, _options?: HandleOptions): Promise<Response | undefined> {
    const path = new URL(request.url).pathname;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
    const rest = path.slice(basePath.length);
    const method = request.method;
    const wrongHost = checkHost(request);
    if (wrongHost) return wrongHost;
    if (rest === '' || rest === '/' || rest === '/index.html') {
      return method === 'GET' || method === 'HEAD' ? page('index.html', method) : notAllowed('GET, HEAD');
    }
    const asset = rest.slice(1);
    if (asset in ASSET_TYPES)
      return method === 'GET' || method === 'HEAD' ? page(asset, method) : notAllowed('GET, HEAD');
    if (rest === '/api/card' || rest === '/api/proxy') {
      if (method !== 'POST') return notAllowed('POST');
      const crossSite = checkSameOrigin(request);
      if (crossSite) return crossSite;
      if (rest === '/api/card') return cardEndpoint(request, remote, scopes);
      if (!remote || !scopes) {
        return json(403, { error: 'Remote agents are disabled on this playground (remote: false)' });
      }
      return proxyRequest(request, remote, scopes, maxBodyBytes);
    }
    return json(404, { error: `No playground resource at ${path}` });
  }

  return {
    mount: { basePath, rootPaths: [] },
    async handle(request, handleOptions) {
      try {
        return await handle(request, handleOptions);
      } catch (error) {
        // A body parser mounted before the playground took the bytes: core's message says how to mount it.
        const setup = error instanceof TypeError && error.message.includes('body parser');
        return json(500, { error: setup ? error.message : 'The playground could not answer this request' });
      }
    },
  };
}

const notAllowed = (allow: string) =>
  new Response(JSON.stringify({ error: `Method not allowed (use ${allow})` }), {
    status: 405,
    headers: { allow, 'content-type': 'application/json; charset=utf-8' },
  });

function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~\-/]+$/.test(trimmed)) {
    throw new TypeError(
      `createPlayground: basePath must be a URL path like '/playground', got ${JSON.stringify(path)}`,
    );
  }
  return trimmed;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
