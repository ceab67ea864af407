import { createServer } from 'node:http';
import { createNodeHandler } from '@a2a/core/node';
import { type AdapterHarness, testCaller } from './harness.js';
import { listen } from './listen.js';

const isJson = (type: string | undefined) => /^application\/(a2a\+)?json/i.test(type ?? '');

/**
 * Core's own Node bridge on plain node:http: the reference harness, and the one a store package serves its store
 * through. A "body parser" here is a listener that consumes the JSON body first and leaves `req.body` (what
 * connect-style parsers do); compression has no plain-node equivalent, so the compressed-streaming cases are skipped.
 * The name must start with `node:http` (the known bridge cases are keyed on it).
 */
export function nodeHarness(name = 'node:http (reference)'): AdapterHarness {
  return {
    name,
    noCompression: 'node:http has no compression middleware',
    // A stream finished within the agent's burst is one body (`writeNodeResponseAfterBurst`).
    streamsInOneWrite: true,
    async start(a2a, options) {
      const listener = createNodeHandler(a2a, {
        trustProxy: options.trustProxy,
        context: (req) => testCaller(req.headers['x-test-user']),
      });
      const server = createServer((req, res) => {
        const url = req.url ?? '/';
        if (url === `${options.mountPath}/host-route`) return void res.end('host');
        if (!url.startsWith(`${options.mountPath}/`)) {
          res.statusCode = 404;
          return void res.end('outside the mount');
        }
        // A connect-style mount: `req.url` relative to the prefix, the full path in `originalUrl`.
        if (options.mountPath) Object.assign(req, { originalUrl: url, url: url.slice(options.mountPath.length) });
        const next = () => {
          res.statusCode = 404;
          res.end('no such route');
        };
        if (!options.bodyParser || !isJson(req.headers['content-type'])) return void listener(req, res, next);
        // A JSON body parser ahead of the handler, like express.json(): it consumes the stream and leaves `req.body`.
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const raw = Buffer.concat(chunks);
          try {
            // What express.json() leaves; a body over its limit is kept as bytes (a verify hook) so core answers 413.
            const kept = raw.byteLength > 100_000 ? { rawBody: raw } : {};
            Object.assign(req, { body: JSON.parse(raw.toString('utf8')), _body: true, ...kept });
          } catch {
            Object.assign(req, { rawBody: raw, _body: true }); // what a verify hook keeps: the handler answers -32700
          }
          void listener(req, res, next);
        });
      });
      const { url, close } = await listen(server);
      return { baseUrl: url, close };
    },
  };
}
