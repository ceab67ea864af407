// Span and metric attribute names (documented in the package README, "Observability"). OpenTelemetry's semantic
// conventions where one exists (rpc.*, http.*, server.*, url.*, error.type, db.*); `a2a.*` for the protocol's own.
export const ATTR = {
  rpcSystem: 'rpc.system',
  rpcService: 'rpc.service',
  rpcMethod: 'rpc.method',
  jsonRpcErrorCode: 'rpc.jsonrpc.error_code',
  httpMethod: 'http.request.method',
  httpStatus: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlPath: 'url.path',
  urlScheme: 'url.scheme',
  errorType: 'error.type',
  dbSystem: 'db.system.name',
  dbOperation: 'db.operation.name',
  operation: 'a2a.operation',
  method: 'a2a.method',
  binding: 'a2a.binding',
  protocolVersion: 'a2a.protocol.version',
  taskId: 'a2a.task.id',
  contextId: 'a2a.context.id',
  tenant: 'a2a.tenant',
  taskState: 'a2a.task.state',
  errorCode: 'a2a.error.code',
  outcome: 'a2a.outcome',
  eventKind: 'a2a.event.kind',
  pushConfigId: 'a2a.push.config.id',
  pushSeq: 'a2a.push.seq',
  agentName: 'gen_ai.agent.name',
} as const;

/** The service name of the A2A RPC spans (`A2AService/SendMessage`), as in the protocol's gRPC definition. */
export const RPC_SERVICE = 'A2AService';
