// @a2a/nestjs, the NestJS 11/12 module, on the Express and the Fastify platform: the public exports. Nest's
// platform request/reply ⇄ the handler: `A2AModule` (a2a-module.ts) registers one controller (a2a-controller.ts),
// whose route sends each request through core's Node bridge (serve.ts, with `requestSource`; `@a2a/core/node`); the
// platforms' body and error hooks are platform-hooks.ts, the card's early answer on Express early-card.ts, the options
// options.ts. Setup checks: `@a2a/core/adapter`.
// Tests: packages/nestjs/test/ (`conformance.test.ts` runs @a2a/adapter-testsuite on both platforms, `module.test.ts`
// the module); `npx vitest run packages/nestjs`.
export { A2A_HANDLER } from './a2a-controller.js';
export { A2AModule } from './a2a-module.js';
export {
  type A2AModuleAsyncOptions,
  type A2AModuleOptions,
  type A2AModuleRoutes,
  type A2ANestRequest,
  callerFromUser,
} from './options.js';
