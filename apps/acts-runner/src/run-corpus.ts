import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isRecord } from './assertion-engine.js';
import type { BindingClient } from './bindings/binding.js';
import { grpcClient } from './bindings/grpc-client.js';
import { httpJsonClient } from './bindings/http-json-client.js';
import { httpRequest } from './bindings/http-transport.js';
import { jsonRpcClient } from './bindings/json-rpc-client.js';
import type { BindingName } from './grammar.js';
import type { Corpus } from './loader.js';
import { startPushReceiver } from './push-receiver.js';
import { type ActsReport, buildReport } from './report.js';
import { type RunContext, runTest, type TestResult } from './test-runner.js';

export interface RunOptions {
  /** The SUT's origin, e.g. http://127.0.0.1:9999 (its card is at /.well-known/agent-card.json). */
  baseUrl: string;
  bindings: BindingName[];
  authToken?: string;
  /** `{{insufficientAuthToken}}`: a credential the SUT knows but that lacks the rights a test asks for. */
  insufficientAuthToken?: string;
  /** Prefixes the SUT declares (a sut-behaviors YAML file's `behaviors[*].prefix`). */
  behaviors?: Set<string>;
  /** Only tests whose id matches. */
  filter?: RegExp;
  concurrency?: number;
  streamTimeoutMs?: number;
  environment?: Record<string, string>;
  onResult?: (binding: BindingName, result: TestResult) => void;
}

/** The v1.0 interfaces the card lists, by ACTS binding name. */
export function interfacesOf(card: Record<string, unknown>): Partial<Record<BindingName, string>> {
  const names: Record<string, BindingName> = { JSONRPC: 'jsonrpc', 'HTTP+JSON': 'rest', GRPC: 'grpc' };
  const out: Partial<Record<BindingName, string>> = {};
  for (const i of Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []) {
    if (!isRecord(i) || typeof i.url !== 'string' || !String(i.protocolVersion ?? '').startsWith('1.')) continue;
    const binding = names[String(i.protocolBinding)];
    if (binding && !out[binding]) out[binding] = i.url;
  }
  return out;
}

export function readBehaviors(file: string): Set<string> {
  const doc = parse(readFileSync(file, 'utf8')) as unknown;
  const list = isRecord(doc) && Array.isArray(doc.behaviors) ? doc.behaviors : [];
  return new Set(list.filter(isRecord).map((b) => String(b.prefix)));
}

/** Runs the corpus on each binding; one ACTS report per binding. */
export async function runCorpus(corpus: Corpus, options: RunOptions): Promise<ActsReport[]> {
  const origin = options.baseUrl.replace(/\/+$/, '');
  const cardUrl = `${origin}/.well-known/agent-card.json`;
  const answer = await httpRequest(cardUrl, { method: 'GET', headers: { 'A2A-Version': corpus.specVersion || '1.0' } });
  if (answer.status !== 200 || !isRecord(answer.json))
    throw new Error(`no agent card at ${cardUrl} (HTTP ${answer.status})`);
  const card = answer.json;
  const urls = interfacesOf(card);
  const receiver = await startPushReceiver();
  const reports: ActsReport[] = [];
  const tests = corpus.tests.filter((t) => !options.filter || options.filter.test(t.id));
  try {
    for (const binding of options.bindings) {
      const url = urls[binding];
      if (!url) throw new Error(`the card lists no v1.0 ${binding} interface`);
      const client: BindingClient =
        binding === 'jsonrpc'
          ? jsonRpcClient(url, cardUrl)
          : binding === 'rest'
            ? httpJsonClient(url, cardUrl)
            : grpcClient(url, cardUrl);
      const ctx: RunContext = {
        binding,
        client,
        card,
        rawBase: { ...(urls.jsonrpc && { jsonrpc: urls.jsonrpc }), ...(urls.rest && { rest: urls.rest }) },
        ...(options.authToken && { authToken: options.authToken }),
        variables: {
          SUT_BASE_URL: origin,
          baseUrl: origin,
          webhookUrl: receiver.url,
          ...(options.authToken && { authToken: options.authToken }),
          ...(options.insufficientAuthToken && { insufficientAuthToken: options.insufficientAuthToken }),
        },
        ...(options.behaviors && { behaviors: options.behaviors }),
        capabilities: new Set([
          'webhook_endpoint',
          'header_inspection',
          ...(options.authToken ? ['auth_credentials'] : []),
        ]),
        streamTimeoutMs: options.streamTimeoutMs ?? 30_000,
      };
      const started = Date.now();
      const results: TestResult[] = new Array(tests.length);
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < tests.length; i = next++) {
          const result = await runTest(tests[i] as (typeof tests)[number], ctx);
          results[i] = result;
          options.onResult?.(binding, result);
        }
      };
      await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
      client.close();
      reports.push(
        buildReport({
          actsVersion: corpus.actsVersion,
          specVersion: corpus.specVersion,
          binding,
          tests,
          results,
          durationMs: Date.now() - started,
          ...(options.environment && { environment: options.environment }),
        }),
      );
    }
  } finally {
    await receiver.close();
  }
  return reports;
}
