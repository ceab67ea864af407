import { type AdapterHarness, defineAdapterSuites, listen, testCaller } from '@a2a/adapter-testsuite';
import Hapi from '@hapi/hapi';
import { type A2AHapiOptions, a2aHapi } from '../src/index.js';

// Hapi parses nothing on the plugin's route; the "body parser" flag picks Hapi buffering the payload ('data').
// Compression is Hapi's built-in gzip (on by default); the flag makes every response eligible (minBytes 1).
const harness: AdapterHarness = {
  name: 'Hapi 21',
  // A stream finished within the agent's burst is one body (`writeNodeResponseAfterBurst`).
  streamsInOneWrite: true,
  async start(handler, o) {
    const server = Hapi.server({
      port: 0,
      host: '127.0.0.1',
      ...(o.compression ? { compression: { minBytes: 1 } } : {}),
    });
    const options: A2AHapiOptions = {
      handler,
      payload: o.bodyParser ? 'data' : 'stream',
      trustProxy: o.trustProxy,
      context: (request) => testCaller(request.headers['x-test-user'] as string | undefined),
    };
    await server.register({ plugin: a2aHapi, options }, o.mountPath ? { routes: { prefix: o.mountPath } } : {});
    server.route({
      method: 'GET',
      path: `${o.mountPath}/host-route`,
      handler: (_request, h) => h.response('host').type('text/plain'),
    });
    await server.start();
    const { url, close } = await listen(server.listener, { stop: () => server.stop({ timeout: 100 }) });
    return { baseUrl: url, close };
  },
};

defineAdapterSuites(harness);
