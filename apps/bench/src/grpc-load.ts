import { A2AService } from '@a2a/grpc';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { Client, credentials } from '@grpc/grpc-js';
import { cpuSeconds, newTally, type Tally } from './load.js';

const sendMessage = A2AService.method.sendMessage;
const PATH = `/${A2AService.typeName}/${sendMessage.name}`;

/** A gRPC client for the `grpc-send` scenario: one HTTP/2 connection, as gRPC clients use (streams multiplexed). */
export function grpcSender(address: string) {
  const client = new Client(address, credentials.createInsecure());
  /** One blocking SendMessage (the `send` scenario's body); true when the answer is a COMPLETED task. */
  const send = (n: number) =>
    new Promise<boolean>((resolve) => {
      const request = create(sendMessage.input, {
        message: {
          messageId: `bench-grpc-${process.pid}-${n}`,
          role: 1,
          parts: [{ content: { case: 'text', value: 'hello' } }],
        },
      });
      client.makeUnaryRequest(
        PATH,
        (bytes: Uint8Array) => Buffer.from(bytes),
        (bytes: Buffer) => fromBinary(sendMessage.output, bytes),
        toBinary(sendMessage.input, request),
        (error, response) =>
          resolve(!error && response?.payload.case === 'task' && response.payload.value.status?.state === 3),
      );
    });
  return { send, close: () => client.close() };
}

/** The HTTP closed loop's counterpart over gRPC: `connections` concurrent callers for `seconds`. */
export async function grpcClosedLoop(
  sender: ReturnType<typeof grpcSender>,
  limits: { seconds: number; connections: number; serverPid?: number | undefined },
  tally: Tally = newTally(),
  counter = { n: 0 },
): Promise<Tally> {
  const started = performance.now();
  const until = started + limits.seconds * 1000;
  const cpuBefore = cpuSeconds(limits.serverPid);
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      if (await sender.send(++counter.n)) {
        tally.ok++;
        tally.latencies.push(performance.now() - t0);
      } else tally.failed++;
    }
  };
  await Promise.all(Array.from({ length: limits.connections }, worker));
  tally.seconds += (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds(limits.serverPid);
  if (cpuBefore !== undefined && cpuAfter !== undefined) tally.serverCpuSeconds += cpuAfter - cpuBefore;
  return tally;
}
