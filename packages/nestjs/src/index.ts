export { A2A_HANDLER } from './a2a-controller.js';
export { A2AModule } from './a2a-module.js';
export {
  type A2AModuleAsyncOptions,
  type A2AModuleOptions,
  type A2AModuleRoutes,
  type A2ANestRequest,
  callerFromUser,
} from './options.js';
