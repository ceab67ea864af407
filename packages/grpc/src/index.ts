// The contract's descriptors (@bufbuild/protobuf): `A2AService.methods[i].input/output` build clients and fixtures.
export { A2AService } from './gen/lf/a2a/v1/a2a_pb.js';
export {
  type A2AGrpcListenOptions,
  type A2AGrpcServer,
  type A2AGrpcServerOptions,
  createA2AGrpcServer,
} from './server.js';
export {
  type A2AGrpcCall,
  type A2AGrpcService,
  type A2AGrpcServiceOptions,
  createA2AGrpcService,
  type GrpcStatusName,
} from './service.js';
